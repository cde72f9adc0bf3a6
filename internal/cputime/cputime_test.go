package cputime

import (
	"runtime"
	"testing"
	"time"
)

func TestThreadAdvances(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("SKIPPED: no thread clock on %s", runtime.GOOS)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, ok := Thread()
	if !ok {
		t.Fatal("CLOCK_THREAD_CPUTIME_ID unavailable on linux")
	}
	x := uint64(1)
	for wall := time.Now(); time.Since(wall) < 2*time.Second; {
		for i := 0; i < 100000; i++ {
			x = x*6364136223846793005 + 1
		}
		if end, _ := Thread(); end-start >= time.Millisecond {
			return
		}
	}
	t.Fatalf("the thread clock moved less than 1ms over 2s of spinning (x=%d)", x)
}
