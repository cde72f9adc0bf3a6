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
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for l := cpu.Generic; l <= cpu.NEON; l++ {
		// expected: the best kernel at the highest level <= l this build
		// has; a level of another architecture sets no ceiling
		limit := l
		if !cpu.SameArch(l) {
			limit = cpu.NEON
		}
		want := kGeneric
		for m := cpu.Generic; m <= limit; m++ {
			if k := bestAt(m); k.level() == m && cpu.Available(m) {
				want = k
			}
		}
		// Under user-mode QEMU without binfmt_misc the child must be
		// started through the emulator, which GOBLOSC_TEST_EMULATOR names.
		argv := []string{exe, "-test.run=^TestKernelEnvHelper$"}
		if emu := os.Getenv("GOBLOSC_TEST_EMULATOR"); emu != "" {
			argv = append([]string{emu}, argv...)
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "BITSHUFFLE_ENV_CHILD=1", cpu.EnvKernel+"="+l.String())
		out, err := cmd.Output()
		if errors.Is(err, syscall.ENOEXEC) {
			t.Skipf("SKIPPED: cannot re-execute the test binary (%v); under user-mode emulation set GOBLOSC_TEST_EMULATOR to the emulator", err)
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
