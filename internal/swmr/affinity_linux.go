package swmr

import (
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// pin keeps the calling process on the CPUs of its role when a run is
// split: the writer on the first CPU the process may use, readers on the
// others. The mask is set on every thread the process has; threads made
// later inherit it from the thread that makes them.
func pin(role string) error {
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		return err
	}
	set := roleCPUs(all, role)
	if set.Count() == 0 {
		return errSplit
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return err
		}
	}
	runtime.GOMAXPROCS(set.Count())
	return nil
}

// roleCPUs is the part of all that role runs on in a split run: the first
// CPU for the writer, the others for readers.
func roleCPUs(all unix.CPUSet, role string) unix.CPUSet {
	var set unix.CPUSet
	first := true
	for cpu := 0; cpu < len(all)*64; cpu++ {
		if !all.IsSet(cpu) {
			continue
		}
		if first == (role == "writer") {
			set.Set(cpu)
		}
		first = false
	}
	return set
}
