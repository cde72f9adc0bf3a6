package cpu

import "testing"

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
