package blosc

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/guard"
	"github.com/goblosc/blosc/internal/testrand"
)

// EnvRequireKernels lists kernels (comma separated level names) that the
// test run must have exercised: under QEMU it proves the emulated target
// really ran its kernels instead of quietly falling back.
const envRequireKernels = "GOBLOSC_TEST_REQUIRE_KERNELS"

var (
	ranMu sync.Mutex
	ran   = map[string]bool{}
)

// runnableKernels is every registered byte-shuffle kernel this CPU can run.
func runnableKernels(tb testing.TB) []cpu.Kernel {
	tb.Helper()
	var ks []cpu.Kernel
	for _, k := range cpu.Kernels("shuffle") {
		if k.Available() {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 || ks[0].Level != cpu.Generic {
		tb.Fatalf("the portable kernel is not registered: %v", ks)
	}
	return ks
}

// diffReport describes the first difference between got and want with a
// hex dump of both around it.
func diffReport(got, want []byte) string {
	i := golden.FirstDiff(got, want)
	lo := max(0, i-16) &^ 15
	hi := min(max(len(got), len(want)), i+32)
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at byte %d of %d (got %d bytes)\n", i, len(want), len(got))
	fmt.Fprintf(&b, "got  [%d:%d]:\n%s", lo, min(hi, len(got)), hex.Dump(got[min(lo, len(got)):min(hi, len(got))]))
	fmt.Fprintf(&b, "want [%d:%d]:\n%s", lo, min(hi, len(want)), hex.Dump(want[min(lo, len(want)):min(hi, len(want))]))
	return b.String()
}

// checkKernel runs k both ways on src, checking against the oracle. dst and
// back are scratch of at least len(src) bytes; poison bytes after len(src)
// in them must survive.
func checkKernel(t *testing.T, k cpu.Kernel, dst, back, src []byte, ts int) {
	t.Helper()
	n := len(src)
	want := make([]byte, n)
	shuffleGeneric(want, src, ts)
	for i := range dst {
		dst[i] = 0xA5
	}
	k.Shuffle(dst, src, ts)
	if !bytes.Equal(dst[:n], want) {
		t.Fatalf("%s shuffle ts=%d len=%d:\n%s", k.Name(), ts, n, diffReport(dst[:n], want))
	}
	for i := n; i < len(dst); i++ {
		if dst[i] != 0xA5 {
			t.Fatalf("%s shuffle ts=%d len=%d wrote dst[%d] past len(src)", k.Name(), ts, n, i)
		}
	}
	for i := range back {
		back[i] = 0x5A
	}
	k.Unshuffle(back, dst[:n], ts)
	if !bytes.Equal(back[:n], src) {
		t.Fatalf("%s unshuffle ts=%d len=%d:\n%s", k.Name(), ts, n, diffReport(back[:n], src))
	}
	for i := n; i < len(back); i++ {
		if back[i] != 0x5A {
			t.Fatalf("%s unshuffle ts=%d len=%d wrote dst[%d] past len(src)", k.Name(), ts, n, i)
		}
	}
	ranMu.Lock()
	ran[k.Name()] = true
	ranMu.Unlock()
}

func testTypesizes() []int {
	ts := make([]int, 0, 40)
	for i := 1; i <= 32; i++ {
		ts = append(ts, i)
	}
	return append(ts, 33, 64, 100, 255, 256)
}

// testLengths are the byte lengths worth trying for ts: every element count
// up to a few of the widest blocks (64 elements) with and without trailing
// bytes, and lengths around the usual block sizes.
func testLengths(ts int, short bool) []int {
	var ls []int
	maxElems := 3*64 + 3
	step := 1
	if short || ts > 32 {
		step = 7
	}
	for e := 0; e <= maxElems; e += step {
		ls = append(ls, e*ts)
		if ts > 1 {
			ls = append(ls, e*ts+ts-1)
		}
	}
	for _, w := range []int{16, 32, 64} {
		for e := w - 1; e <= w+1; e++ {
			ls = append(ls, e*ts, e*ts+1)
		}
	}
	if !short {
		ls = append(ls, 4095, 4096, 4097, 65535, 65536, 65537)
	}
	slices.Sort(ls)
	return slices.Compact(ls)
}

func TestShuffleKernelsMatchOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	src := make([]byte, 65537+300)
	testrand.Fill(rng, src)
	dst := make([]byte, len(src)+64)
	back := make([]byte, len(src)+64)
	for _, k := range runnableKernels(t) {
		t.Run(k.Name(), func(t *testing.T) {
			for _, ts := range testTypesizes() {
				for _, n := range testLengths(ts, testing.Short()) {
					checkKernel(t, k, dst[:n+64], back[:n+64], src[:n], ts)
				}
			}
		})
	}
}

// TestShuffleKernelsStreamSpacing covers stream lengths n that are
// multiples of 1 KiB, which some kernels treat apart (their streams' lines
// share offsets modulo 4 KiB), with and without trailing bytes and with a
// partial last block.
func TestShuffleKernelsStreamSpacing(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	src := make([]byte, 16*9216+64*16+16)
	testrand.Fill(rng, src)
	dst := make([]byte, len(src)+64)
	back := make([]byte, len(src)+64)
	for _, k := range runnableKernels(t) {
		t.Run(k.Name(), func(t *testing.T) {
			for ts := 2; ts <= 16; ts++ {
				for _, n := range []int{1024, 4096, 5120, 9216, 4096 + 63, 9216 + 1} {
					for _, l := range []int{n * ts, n*ts + ts - 1} {
						checkKernel(t, k, dst[:l+64], back[:l+64], src[:l], ts)
					}
				}
			}
		})
	}
}

// TestShuffleKernelsUnaligned moves src and dst to every offset of a
// cache line, since the kernels load and store unaligned.
func TestShuffleKernelsUnaligned(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	buf := make([]byte, 3*4096+128)
	testrand.Fill(rng, buf)
	out := make([]byte, len(buf))
	back := make([]byte, len(buf))
	for _, k := range runnableKernels(t) {
		t.Run(k.Name(), func(t *testing.T) {
			for _, ts := range []int{2, 3, 4, 5, 7, 8, 12, 16, 17} {
				for off := 1; off < 64; off++ {
					for _, n := range []int{64*ts + 5, 200*ts + ts - 1, 4097} {
						src := buf[off : off+n]
						checkKernel(t, k, out[(off*7)%64:][:n+8], back[(off*13)%64:][:n+8], src, ts)
					}
				}
			}
		})
	}
}

// TestShuffleKernelsGuardPages runs every kernel on buffers that end (or
// start) at an inaccessible page: a read or write outside the slices the
// kernel was given faults.
func TestShuffleKernelsGuardPages(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range runnableKernels(t) {
		t.Run(k.Name(), func(t *testing.T) {
			for _, side := range []guard.Side{guard.End, guard.Start} {
				for _, ts := range testTypesizes() {
					ls := testLengths(ts, true)
					size := ls[len(ls)-1]
					src, dst, back := guard.New(size, side), guard.New(size, side), guard.New(size, side)
					testrand.Fill(rng, src.Bytes)
					// Cut every length from the guarded end of the buffers.
					at := func(b []byte, n int) []byte {
						if side == guard.End {
							return b[len(b)-n:]
						}
						return b[:n:n]
					}
					for _, n := range ls {
						checkKernel(t, k, at(dst.Bytes, n), at(back.Bytes, n), at(src.Bytes, n), ts)
					}
					src.Free()
					dst.Free()
					back.Free()
				}
			}
		})
	}
}

// TestShuffleForcedLevel drives the exported functions with each level
// forced, the path real callers take.
func TestShuffleForcedLevel(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	src := make([]byte, 10007)
	testrand.Fill(rng, src)
	for _, k := range runnableKernels(t) {
		restore := forceShuffleLevel(k.Level)
		if got := Kernel(); !strings.HasPrefix(got, k.Name()) {
			t.Errorf("forced %s, Kernel() = %q", k.Name(), got)
		}
		for _, ts := range []int{1, 2, 3, 4, 7, 8, 12, 16, 18} {
			want := make([]byte, len(src))
			shuffleGeneric(want, src, ts)
			got := make([]byte, len(src))
			Shuffle(got, src, ts)
			if !bytes.Equal(got, want) {
				t.Fatalf("Shuffle at %s ts=%d:\n%s", k.Name(), ts, diffReport(got, want))
			}
			back := make([]byte, len(src))
			Unshuffle(back, got, ts)
			if !bytes.Equal(back, src) {
				t.Fatalf("Unshuffle at %s ts=%d:\n%s", k.Name(), ts, diffReport(back, src))
			}
		}
		restore()
	}
}

func TestShuffleDoesNotAllocate(t *testing.T) {
	src := make([]byte, 1<<16+3)
	dst := make([]byte, len(src))
	for _, k := range runnableKernels(t) {
		restore := forceShuffleLevel(k.Level)
		for _, ts := range []int{2, 4, 7, 16, 40} {
			if a := testing.AllocsPerRun(20, func() { Shuffle(dst, src, ts) }); a != 0 {
				t.Errorf("Shuffle at %s ts=%d: %v allocations per call", k.Name(), ts, a)
			}
			if a := testing.AllocsPerRun(20, func() { Unshuffle(dst, src, ts) }); a != 0 {
				t.Errorf("Unshuffle at %s ts=%d: %v allocations per call", k.Name(), ts, a)
			}
		}
		restore()
	}
}

// TestKernelCoverage runs every kernel once more, then logs which ran and
// which kernels this CPU lacks, and fails if a kernel that
// GOBLOSC_TEST_REQUIRE_KERNELS names did not run.
func TestKernelCoverage(t *testing.T) {
	src := make([]byte, 5000)
	testrand.Fill(rand.New(rand.NewPCG(11, 12)), src)
	for _, k := range runnableKernels(t) {
		checkKernel(t, k, make([]byte, len(src)), make([]byte, len(src)), src, 4)
	}
	var lacking []string
	for _, k := range cpu.Kernels("shuffle") {
		if !k.Available() {
			lacking = append(lacking, k.Name())
		}
	}
	ranMu.Lock()
	var names []string
	for n := range ran {
		names = append(names, n)
	}
	ranMu.Unlock()
	slices.Sort(names)
	t.Logf("GOARCH=%s selected=%s; kernels run: %s; compiled in but not runnable here: %s",
		runtime.GOARCH, Kernel(), strings.Join(names, ","), strings.Join(lacking, ","))
	req := os.Getenv(envRequireKernels)
	for _, name := range strings.Split(req, ",") {
		if name = strings.TrimSpace(name); name != "" && !slices.Contains(names, name) {
			t.Errorf("%s=%s: kernel %q did not run (ran: %s)", envRequireKernels, req, name, strings.Join(names, ","))
		}
	}
}

// TestKernelEnvOverride re-runs this test binary with GOBLOSC_KERNEL set to
// every level name (and nonsense): a level the CPU has must be used, one it
// lacks must fall back to the best it has below, never crash.
func TestKernelEnvOverride(t *testing.T) {
	if os.Getenv("GOBLOSC_TEST_CHILD") == "1" {
		src := make([]byte, 3000)
		testrand.Fill(rand.New(rand.NewPCG(1, 1)), src)
		for ts := 2; ts <= 16; ts++ {
			got, want := make([]byte, len(src)), make([]byte, len(src))
			Shuffle(got, src, ts)
			shuffleGeneric(want, src, ts)
			if !bytes.Equal(got, want) {
				t.Fatalf("ts=%d:\n%s", ts, diffReport(got, want))
			}
		}
		fmt.Printf("kernel=%s\n", currentShuffleLevel())
		return
	}
	if testing.Short() {
		t.Skip("SKIPPED in -short: spawns one process per level")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Under user-mode QEMU without binfmt_misc the child must be started
	// through the emulator, which GOBLOSC_TEST_EMULATOR names.
	argv := []string{exe, "-test.run=^TestKernelEnvOverride$", "-test.v"}
	if emu := os.Getenv("GOBLOSC_TEST_EMULATOR"); emu != "" {
		argv = append([]string{emu}, argv...)
	}
	for _, name := range []string{"generic", "sse2", "avx2", "avx512", "neon", "bogus"} {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "GOBLOSC_TEST_CHILD=1", cpu.EnvKernel+"="+name)
		out, err := cmd.CombinedOutput()
		if err != nil && strings.Contains(err.Error(), "exec format error") {
			t.Skipf("SKIPPED: cannot re-execute the test binary (%v); under user-mode emulation set GOBLOSC_TEST_EMULATOR to the emulator", err)
		}
		if err != nil {
			t.Fatalf("%s=%s: child failed: %v\n%s", cpu.EnvKernel, name, err, out)
		}
		want := expectedLevel(name)
		if !strings.Contains(string(out), "kernel="+want.String()+"\n") {
			t.Errorf("%s=%s: want kernel=%s, child said:\n%s", cpu.EnvKernel, name, want, out)
		}
	}
}

// expectedLevel is the level GOBLOSC_KERNEL=name must lead to here.
func expectedLevel(name string) cpu.Level {
	limit, ok := cpu.ParseLevel(name)
	if !ok || !cpu.SameArch(limit) {
		limit = cpu.NEON // unknown or another architecture's: no ceiling
	}
	best := cpu.Generic
	for l := cpu.Generic; l <= limit; l++ {
		if hasShuffleKernel(l) && cpu.Available(l) {
			best = l
		}
	}
	return best
}

func FuzzShuffleKernels(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz"), uint8(4))
	f.Add(bytes.Repeat([]byte{1, 2, 3}, 700), uint8(3))
	f.Add(make([]byte, 1025), uint8(16))
	ks := runnableKernels(f)
	f.Fuzz(func(t *testing.T, src []byte, ts8 uint8) {
		ts := int(ts8%40) + 1
		for _, k := range ks {
			checkKernel(t, k, make([]byte, len(src)+8), make([]byte, len(src)+8), src, ts)
		}
	})
}

// TestShuffleKernelsLargeBuffers covers the paths only large buffers take
// (the non-temporal AVX-512 kernels from 16 MiB), with dst both 64-byte
// aligned and not.
func TestShuffleKernelsLargeBuffers(t *testing.T) {
	if testing.Short() {
		t.Skip("SKIPPED in -short: 16 MiB buffers")
	}
	const size = 16<<20 + 64*16
	rng := rand.New(rand.NewPCG(13, 14))
	src := make([]byte, size)
	testrand.Fill(rng, src)
	raw := make([]byte, size+128)
	backRaw := make([]byte, size+128)
	ks := runnableKernels(t)
	k := ks[len(ks)-1]
	if k.Level != cpu.AVX512 {
		t.Skipf("SKIPPED: only the AVX-512 kernels have a separate large-buffer path; best here is %s", k.Name())
	}
	{
		for ts := 2; ts <= 16; ts++ {
			for _, n := range []int{size, size - 64*ts + 3} {
				// Both outputs, dst of the shuffle and of the unshuffle,
				// start on a line and off it.
				for _, misalign := range []int{0, 8, 21} {
					base := int(-uintptr(unsafe.Pointer(&raw[0])) & 63)
					dst := raw[base+misalign:][:n]
					base = int(-uintptr(unsafe.Pointer(&backRaw[0])) & 63)
					back := backRaw[base+misalign:][:n]
					checkKernel(t, k, dst, back, src[:n], ts)
				}
			}
		}
	}
}

// TestUnshuffleBypass holds unshuffleBypass, which runs the non-temporal
// kernels on blocks of any size where canBypass, to the portable
// unshuffle: every typesize, lengths around the kernels' blocks, outputs
// at every offset within a line and ending at an inaccessible page.
func TestUnshuffleBypass(t *testing.T) {
	if !canBypass(4) {
		t.Logf("the non-temporal kernels do not run here (shuffle level %s): unshuffleBypass is Unshuffle", currentShuffleLevel())
	}
	rng := rand.New(rand.NewPCG(15, 16))
	for _, ts := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 16, 17} {
		ls := append(testLengths(ts, true), 64<<10, 64<<10+ts+1)
		size := ls[len(ls)-1] + 64
		src := make([]byte, size)
		testrand.Fill(rng, src)
		dst := guard.New(size, guard.End)
		want := make([]byte, size)
		for _, n := range ls {
			for _, misalign := range []int{0, 1, 8, 21, 63} {
				if n+misalign > size {
					continue
				}
				d := dst.Bytes[len(dst.Bytes)-n-misalign : len(dst.Bytes)-misalign]
				clear(dst.Bytes)
				unshuffleGeneric(want[:n], src[:n], ts)
				unshuffleBypass(d, src[:n], ts)
				if !bytes.Equal(d, want[:n]) {
					t.Fatalf("typesize %d, %d bytes, %d bytes before the end: differs from the portable unshuffle", ts, n, misalign)
				}
				if misalign > 0 && !bytes.Equal(dst.Bytes[len(dst.Bytes)-misalign:], make([]byte, misalign)) {
					t.Fatalf("typesize %d, %d bytes: wrote past dst", ts, n)
				}
			}
		}
		dst.Free()
	}
}
