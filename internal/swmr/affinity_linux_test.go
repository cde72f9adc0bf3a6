package swmr

import (
	"testing"

	"golang.org/x/sys/unix"
)

func TestRoleCPUs(t *testing.T) {
	var all unix.CPUSet
	for _, c := range []int{1, 3, 4, 70} {
		all.Set(c)
	}
	w, r := roleCPUs(all, "writer"), roleCPUs(all, "reader")
	if w.Count() != 1 || !w.IsSet(1) {
		t.Errorf("writer: %v", w)
	}
	if r.Count() != 3 || !r.IsSet(3) || !r.IsSet(4) || !r.IsSet(70) {
		t.Errorf("readers: %v", r)
	}
	var one unix.CPUSet
	one.Set(5)
	if got := roleCPUs(one, "reader"); got.Count() != 0 {
		t.Errorf("readers of a single CPU: %v, want none (the run is refused)", got)
	}
}
