package cpu

import (
	"runtime"
	"testing"
)

// TestChosenHonoursRequires registers a family whose top kernel needs a
// feature this machine lacks: Chosen must settle on the level below it.
func TestChosenHonoursRequires(t *testing.T) {
	if _, ok := Chosen("test-nothing"); ok {
		t.Fatal("Chosen reports a family nothing registered")
	}
	Register(Kernel{Family: "test-req", Level: Generic})
	Register(Kernel{Family: "test-req", Level: SSE2, Requires: func() bool { return false }})
	l, ok := Chosen("test-req")
	if !ok || l != Generic {
		t.Fatalf("Chosen = %v, %v; want generic, true", l, ok)
	}
	for _, k := range Kernels("test-req") {
		if k.Level == SSE2 && k.Available() {
			t.Fatal("a kernel whose Requires is false reports itself available")
		}
	}
}

// TestSelectIgnoresOtherArchRequests: GOBLOSC_KERNEL naming another
// architecture's level must not pull selection down to generic.
func TestSelectIgnoresOtherArchRequests(t *testing.T) {
	saved, savedOK := Requested, RequestedOK
	defer func() { Requested, RequestedOK = saved, savedOK }()
	all := func(Level) bool { return true }
	best := Select(all)
	foreign := NEON
	if runtime.GOARCH == "arm64" {
		foreign = AVX512
	}
	Requested, RequestedOK = foreign, true
	if got := Select(all); got != best {
		t.Errorf("request %v on %s selects %v, want the best available %v", foreign, runtime.GOARCH, got, best)
	}
	Requested, RequestedOK = Generic, true
	if got := Select(all); got != Generic {
		t.Errorf("request generic selects %v", got)
	}
}
