package bitshuffle

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc/internal/cpu"
	"github.com/goblosc/blosc/internal/testrand"
)

// ran records which kernels this package's tests exercised.
var ran = map[kernelID]bool{}

// usableKernels lists the kernels this build and CPU can run; missing lists
// the ones they cannot.
func usableKernels() (usable, missing []kernelID) {
	for k := kGeneric; k < numKernels; k++ {
		if kernelUsable(k) {
			usable = append(usable, k)
		} else {
			missing = append(missing, k)
		}
	}
	return usable, missing
}

// diffReport describes the first byte where got and want differ, with a hex
// dump of both around it.
func diffReport(got, want []byte) string {
	if len(got) != len(want) {
		return fmt.Sprintf("length %d, want %d", len(got), len(want))
	}
	i := 0
	for i < len(got) && got[i] == want[i] {
		i++
	}
	if i == len(got) {
		return "equal"
	}
	lo := i &^ 15
	if lo >= 32 {
		lo -= 32
	}
	hi := min(len(got), lo+96)
	return fmt.Sprintf("first difference at byte %d (got %#02x, want %#02x)\ngot (from %d):\n%swant:\n%s",
		i, got[i], want[i], lo, hex.Dump(got[lo:hi]), hex.Dump(want[lo:hi]))
}

func allBytes(b []byte, v byte) bool {
	for _, c := range b {
		if c != v {
			return false
		}
	}
	return true
}

// checkKernel compares kernel k with the oracle on src, both ways, using the
// caller's buffers (which may be unaligned or sit next to guard pages).
// dst and back must be len(src) long.
func checkKernel(t *testing.T, k kernelID, dst, back, src []byte, ts int) {
	t.Helper()
	ran[k] = true
	want := make([]byte, len(src))
	shuffleGeneric(want, src, ts)
	for i := range dst {
		dst[i] = 0xA5
	}
	shuffleWith(k, dst, src, ts)
	if !bytes.Equal(dst, want) {
		t.Fatalf("%s shuffle ts=%d n=%d: %s", k, ts, len(src), diffReport(dst, want))
	}
	for i := range back {
		back[i] = 0x5A
	}
	unshuffleWith(k, back, want, ts)
	if !bytes.Equal(back, src) {
		t.Fatalf("%s unshuffle ts=%d n=%d: %s", k, ts, len(src), diffReport(back, src))
	}
}

// testTypesizes are every typesize up to 32 and some odd large ones.
func testTypesizes() []int {
	var ts []int
	for i := 1; i <= 32; i++ {
		ts = append(ts, i)
	}
	return append(ts, 33, 63, 64, 65, 100, 255, 256, 1000)
}

// testLengths are lengths in bytes for typesize ts: every length up to a few
// AVX-512 blocks for small typesizes, then lengths around each block
// boundary (multiples of 16, 32 and 64 elements), some with ragged tails.
func testLengths(ts int) []int {
	var ns []int
	if ts <= 4 {
		for n := 0; n <= 3*64*ts+17; n++ {
			ns = append(ns, n)
		}
	} else {
		for n := 0; n <= 24*ts; n++ {
			ns = append(ns, n)
			if n > 2*ts+8 {
				n += ts - 1
			}
		}
	}
	for _, m := range []int{1, 2, 3, 5, 9} {
		for _, e := range []int{16*m - 8, 16*m - 1, 16 * m, 16*m + 1, 16*m + 8, 32 * m, 32*m + 8, 64*m - 8, 64 * m, 64*m + 8, 64*m + 24} {
			for _, extra := range []int{0, 1, ts - 1, ts + 3} {
				ns = append(ns, e*ts+extra)
			}
		}
	}
	// superblocks of 256 (AVX2) and 512 elements (AVX-512); 1 to 6 of them
	// cover the split kernels' first and last passes, which skip rows of
	// superblocks that do not exist, with and without passes in between
	for _, e := range []int{248, 256, 264, 504, 512, 520, 576, 1024, 1536 + 64, 2048 + 8, 2560, 3072 + 8} {
		ns = append(ns, e*ts, e*ts+ts/2)
	}
	if ts <= 16 {
		// enough superblocks that the staggered kernels reuse their ring
		// of staged superblocks several times, rows 4 KiB apart or not
		ns = append(ns, (9*512+8)*ts, 16384*ts, 16384*ts+ts+1)
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

func TestKernelsMatchOracle(t *testing.T) {
	usable, _ := usableKernels()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ts := range testTypesizes() {
		ns := testLengths(ts)
		src := testrand.Bytes(rng, ns[len(ns)-1])
		dst := make([]byte, len(src))
		back := make([]byte, len(src))
		for _, k := range usable {
			for _, n := range ns {
				checkKernel(t, k, dst[:n], back[:n], src[:n], ts)
			}
		}
	}
}

// Kernels must neither rely on alignment nor write outside dst[:len(src)].
func TestKernelsUnaligned(t *testing.T) {
	usable, _ := usableKernels()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, ts := range []int{1, 2, 3, 4, 7, 8, 12, 16, 17, 255} {
		for _, elems := range []int{64, 200, 513} {
			n := elems*ts + ts/2
			for off := 1; off < 64; off++ {
				srcBuf := testrand.Bytes(rng, n+off)
				src := srcBuf[off:]
				dstBuf := make([]byte, n+2*off)
				backBuf := make([]byte, n+2*off)
				for _, k := range usable {
					for i := range dstBuf {
						dstBuf[i] = 0xEE
						backBuf[i] = 0xEE
					}
					checkKernel(t, k, dstBuf[off:off+n], backBuf[off:off+n], src, ts)
					for _, b := range [][]byte{dstBuf, backBuf} {
						if !allBytes(b[:off], 0xEE) || !allBytes(b[off+n:], 0xEE) {
							t.Fatalf("%s ts=%d n=%d off=%d wrote outside dst", k, ts, n, off)
						}
					}
				}
			}
		}
	}
}

// Buffers whose first byte follows, or whose last byte precedes, an
// inaccessible page: an over-read or over-write faults.
func TestKernelsGuardPages(t *testing.T) {
	usable, _ := usableKernels()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, ts := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 31, 255} {
		for _, n := range []int{8 * ts, 64 * ts, 64*ts + 1, 100 * ts, 256 * ts, 512 * ts, 1024*ts + 3, 1000*ts + ts - 1, 4096} {
			data := testrand.Bytes(rng, n)
			for _, atEnd := range []bool{true, false} {
				src := guarded(t, n, atEnd)
				dst := guarded(t, n, atEnd)
				back := guarded(t, n, atEnd)
				copy(src, data)
				for _, k := range usable {
					checkKernel(t, k, dst, back, src, ts)
				}
			}
		}
	}
}

func TestShuffleAllocs(t *testing.T) {
	usable, _ := usableKernels()
	src := testrand.Bytes(rand.New(rand.NewPCG(9, 9)), 64<<10+5)
	dst := make([]byte, len(src))
	for _, k := range usable {
		restore := forceKernel(k)
		for _, ts := range []int{1, 4, 7, 16} {
			if a := testing.AllocsPerRun(20, func() { Shuffle(dst, src, ts) }); a != 0 {
				t.Errorf("%s Shuffle ts=%d: %v allocations per call", k, ts, a)
			}
			if a := testing.AllocsPerRun(20, func() { Unshuffle(src, dst, ts) }); a != 0 {
				t.Errorf("%s Unshuffle ts=%d: %v allocations per call", k, ts, a)
			}
		}
		restore()
	}
}

func TestKernelName(t *testing.T) {
	if Kernel() != active.String() || !kernelUsable(active) {
		t.Fatalf("Kernel() = %q, active %v usable %v", Kernel(), active, kernelUsable(active))
	}
	if cpu.RequestedOK && active.level() > cpu.Requested && cpu.Requested != cpu.NEON {
		t.Fatalf("GOBLOSC_KERNEL=%v but %s is active", cpu.Requested, Kernel())
	}
	restore := forceKernel(kGeneric)
	if Kernel() != "generic" {
		t.Fatalf("forced generic, Kernel() = %q", Kernel())
	}
	restore()
	t.Logf("active bit-shuffle kernel: %s", Kernel())
}

// The registry runs the same kernels as the package's own dispatch.
func TestRegisteredKernels(t *testing.T) {
	src := testrand.Bytes(rand.New(rand.NewPCG(3, 3)), 777*6)
	want := make([]byte, len(src))
	shuffleGeneric(want, src, 6)
	seen := 0
	for _, k := range cpu.Kernels("bitshuffle") {
		seen++
		if !k.Available() {
			continue
		}
		got := make([]byte, len(src))
		k.Shuffle(got, src, 6)
		if !bytes.Equal(got, want) {
			t.Fatalf("registered %s: %s", k.Name(), diffReport(got, want))
		}
		back := make([]byte, len(src))
		k.Unshuffle(back, got, 6)
		if !bytes.Equal(back, src) {
			t.Fatalf("registered %s unshuffle: %s", k.Name(), diffReport(back, src))
		}
	}
	if seen == 0 {
		t.Fatal("no bit-shuffle kernel registered")
	}
}

// TestRequiredKernels logs which kernels ran and which this machine lacks,
// and fails when GOBLOSC_TEST_REQUIRE_KERNELS names one that did not run, so
// a CI job (a QEMU one especially) proves it exercised its target.
func TestRequiredKernels(t *testing.T) {
	usable, missing := usableKernels()
	src := testrand.Bytes(rand.New(rand.NewPCG(4, 4)), 4099)
	dst, back := make([]byte, len(src)), make([]byte, len(src))
	for _, k := range usable {
		checkKernel(t, k, dst, back, src, 3)
	}
	var names, lacking []string
	for _, k := range usable {
		if ran[k] {
			names = append(names, k.String())
		}
	}
	for _, k := range missing {
		lacking = append(lacking, k.String())
	}
	t.Logf("kernels run: %s; not available here: %s", strings.Join(names, ","), strings.Join(lacking, ","))
	req := os.Getenv("GOBLOSC_TEST_REQUIRE_KERNELS")
	for _, name := range strings.Split(req, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(names, name) {
			t.Errorf("GOBLOSC_TEST_REQUIRE_KERNELS names %q, which did not run", name)
		}
	}
}

func FuzzKernels(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz"), uint8(3))
	f.Add(make([]byte, 1000), uint8(1))
	f.Add(bytes.Repeat([]byte{0xFF, 0, 1}, 700), uint8(8))
	usable, _ := usableKernels()
	f.Fuzz(func(t *testing.T, src []byte, ts8 uint8) {
		ts := int(ts8)%64 + 1
		dst, back := make([]byte, len(src)), make([]byte, len(src))
		for _, k := range usable {
			checkKernel(t, k, dst, back, src, ts)
		}
	})
}

// Shuffle and Unshuffle run the kernel the per-typesize table picks for
// the active level: it must be one this CPU runs, of that level or below,
// and agree with the oracle, for every level this build has.
func TestPickedKernelsMatchOracle(t *testing.T) {
	usable, _ := usableKernels()
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range usable {
		if bestAt(k.level()) != k {
			continue // not a level's kernel: reached only through the table
		}
		restore := forceKernel(k)
		for _, ts := range testTypesizes() {
			for _, inverse := range []bool{false, true} {
				p := pickKernel(k, ts, inverse)
				if !kernelUsable(p) || p.level() > k.level() {
					t.Fatalf("level %s ts=%d inverse=%v picks %s (usable %v)", k, ts, inverse, p, kernelUsable(p))
				}
			}
			for _, elems := range []int{7, 64, 600, 4099} {
				n := elems*ts + ts/2
				src := testrand.Bytes(rng, n)
				want := make([]byte, n)
				shuffleGeneric(want, src, ts)
				got := make([]byte, n)
				Shuffle(got, src, ts)
				if !bytes.Equal(got, want) {
					t.Fatalf("level %s Shuffle ts=%d n=%d: %s", k, ts, n, diffReport(got, want))
				}
				back := make([]byte, n)
				Unshuffle(back, want, ts)
				if !bytes.Equal(back, src) {
					t.Fatalf("level %s Unshuffle ts=%d n=%d: %s", k, ts, n, diffReport(back, src))
				}
			}
		}
		restore()
	}
}
