package bitshuffle

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
)

// TestKernelEnvHelper is the child process of TestKernelEnv: it only
// reports the kernel its init chose.
func TestKernelEnvHelper(t *testing.T) {
	if os.Getenv("BITSHUFFLE_ENV_CHILD") != "1" {
		return
	}
	fmt.Printf("KERNEL=%s\n", Kernel())
}

// GOBLOSC_KERNEL is read at init, so each value needs a fresh process.
func TestKernelEnv(t *testing.T) {
	if os.Getenv("BITSHUFFLE_ENV_CHILD") == "1" {
		return
	}
	for l := cpu.Generic; l <= cpu.NEON; l++ {
		// expected: the best kernel at the highest level <= l this build has
		want := kGeneric
		for m := cpu.Generic; m <= l; m++ {
			if k := bestAt(m); k.level() == m && cpu.Available(m) {
				want = k
			}
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestKernelEnvHelper$")
		cmd.Env = append(os.Environ(), "BITSHUFFLE_ENV_CHILD=1", cpu.EnvKernel+"="+l.String())
		out, err := cmd.Output()
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("cannot re-execute the test binary here (emulated run?): %v", err)
		}
		if err != nil {
			t.Fatalf("%s=%s: %v\n%s", cpu.EnvKernel, l, err, out)
		}
		got := ""
		for _, line := range strings.Split(string(out), "\n") {
			if s, ok := strings.CutPrefix(line, "KERNEL="); ok {
				got = s
			}
		}
		if got != want.String() {
			t.Errorf("%s=%s: kernel %q, want %q", cpu.EnvKernel, l, got, want)
		}
	}
}
