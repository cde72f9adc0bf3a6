package zstddec

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/huff0"
)

// huffInputs are literal sections of assorted sizes and skews: a few
// symbols of very different frequencies (long codes), many symbols
// almost flat (short codes, FSE-coded weights), text-like.
func huffInputs() [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	var ins [][]byte
	for _, n := range []int{1, 2, 3, 5, 9, 17, 100, 255, 256, 799, 800, 1000, 4096, 65535, 128 << 10} {
		for _, alpha := range []int{2, 3, 12, 60, 256} {
			for _, skew := range []float64{0, 1, 3} {
				b := make([]byte, n)
				for i := range b {
					x := r.Float64()
					for range int(skew) {
						x *= r.Float64()
					}
					b[i] = byte(int(x * float64(alpha)))
				}
				ins = append(ins, b)
			}
		}
	}
	return ins
}

// TestHuffAgainstHuff0: sections klauspost's huff0 encodes, 1 and 4
// streams, decode to the input with our table reader and loops.
func TestHuffAgainstHuff0(t *testing.T) {
	var d Decoder
	var s huff0.Scratch
	checked := map[string]int{}
	for _, in := range huffInputs() {
		for _, four := range []bool{false, true} {
			s.Reuse = huff0.ReusePolicyNone
			var out []byte
			var err error
			if four {
				out, _, err = huff0.Compress4X(in, &s)
			} else {
				out, _, err = huff0.Compress1X(in, &s)
			}
			if err != nil {
				continue // RLE or incompressible: stored raw in zstd
			}
			// The table description, then the streams.
			rest, err := d.readHuffTable(out)
			if err != nil {
				t.Fatalf("%d bytes, four=%v: table: %v", len(in), four, err)
			}
			got := make([]byte, len(in))
			if four {
				err = d.ht.decode4(got, rest)
			} else {
				err = d.ht.decode1(got, rest)
			}
			if err != nil || !bytes.Equal(got, in) {
				t.Fatalf("%d bytes, four=%v, %d-bit codes: %v, equal %v", len(in), four, d.ht.maxBits, err, bytes.Equal(got, in))
			}
			kind := "fse"
			if out[0] >= 128 {
				kind = "direct"
			}
			checked[fmt.Sprintf("%s/four=%v", kind, four)]++
			// One symbol too many or too few is an error, not a
			// silent answer.
			if len(in) > 1 {
				if four {
					err = d.ht.decode4(got[:len(in)-1], rest)
				} else {
					err = d.ht.decode1(got[:len(in)-1], rest)
				}
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("%d bytes, four=%v: one symbol short: %v", len(in), four, err)
				}
			}
		}
	}
	for _, k := range []string{"fse/four=false", "fse/four=true", "direct/four=false", "direct/four=true"} {
		if checked[k] == 0 {
			t.Errorf("no section of kind %s", k)
		}
	}
	t.Log(checked)
}

// TestHuffTableRFC: the example of RFC 8878 4.2.1.3, weights 4 3 2 0 1
// and the last (literal 5) implied, given as direct 4-bit weights.
func TestHuffTableRFC(t *testing.T) {
	var d Decoder
	rest, err := d.readHuffTable([]byte{127 + 5, 0x43, 0x20, 0x10, 0xAA})
	if err != nil || len(rest) != 1 || rest[0] != 0xAA {
		t.Fatalf("rest %x, %v", rest, err)
	}
	if d.ht.maxBits != 4 {
		t.Fatalf("maxBits %d, want 4", d.ht.maxBits)
	}
	// Prefix codes: 0 "1", 1 "01", 2 "001", 4 "0000", 5 "0001".
	want := map[int][2]int{0: {0b1000, 1}, 1: {0b0100, 2}, 2: {0b0010, 3}, 4: {0b0000, 4}, 5: {0b0001, 4}}
	for sym, c := range want {
		e := d.ht.dt[c[0]]
		if int(e>>8) != sym || int(e&0xff) != c[1] {
			t.Errorf("code %04b: symbol %d, %d bits; want %d, %d", c[0], e>>8, e&0xff, sym, c[1])
		}
	}
	// 0 1 2 4 5 0 as the codes 1 01 001 0000 0001 1, 15 bits read from
	// the top down, under the end mark at bit 15.
	v := uint16(1)<<15 | 0b1_01_001_0000_0001_1
	stream := []byte{byte(v), byte(v >> 8)}
	got := make([]byte, 6)
	if err := d.ht.decode1(got, stream); err != nil || !bytes.Equal(got, []byte{0, 1, 2, 4, 5, 0}) {
		t.Fatalf("decode: %v %v", got, err)
	}
}

// TestHuffTableBad: tree descriptions no encoder writes are refused with
// ErrCorrupt.
func TestHuffTableBad(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"truncated direct", []byte{127 + 5, 0x43}},
		{"truncated fse", []byte{20, 1, 2}},
		{"all zero weights", []byte{127 + 4, 0, 0}},
		{"weight 12", []byte{127 + 2, 0xC1}},
		{"codes over 11 bits", []byte{127 + 2, 0xBB}},
		{"no tree", []byte{127 + 2, 0x13}}, // 1+4 leaves 3 of 8, no power of two
	} {
		var d Decoder
		if _, err := d.readHuffTable(c.in); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", c.name, err)
		}
	}
}

// FuzzHuffman compares our tree reader and stream loops with huff0's on
// any bytes: a table description, then 1 or 4 streams of n symbols.
// Where both decode, the symbols must agree. Which sections to accept is
// libzstd's call, not huff0's, which is stricter in places (12-bit codes,
// 255 weights, a weights stream ending on an overread) and more lenient
// in others (all-zero weights): FuzzHuffmanVersusC in
// bench/crosscheck/zstddec judges that against libzstd.
func FuzzHuffman(f *testing.F) {
	var s huff0.Scratch
	for i, in := range huffInputs() {
		if i%7 != 0 {
			continue
		}
		if out, _, err := huff0.Compress4X(in, &s); err == nil {
			f.Add(out, uint32(len(in)), true)
		}
		if out, _, err := huff0.Compress1X(in, &s); err == nil {
			f.Add(out, uint32(len(in)), false)
		}
	}
	var d Decoder
	f.Fuzz(func(t *testing.T, in []byte, n uint32, four bool) {
		n %= 128<<10 + 1
		got := make([]byte, n)
		rest, err := d.readHuffTable(in)
		if err == nil {
			if four {
				err = d.ht.decode4(got, rest)
			} else {
				err = d.ht.decode1(got, rest)
			}
		}
		if err != nil && !errors.Is(err, ErrCorrupt) {
			t.Fatalf("error wraps no sentinel: %v", err)
		}
		ref, rerr := huff0Decode(in, int(n), four)
		if err == nil && rerr == nil && !bytes.Equal(got, ref) {
			t.Fatalf("symbols differ from %d", firstDiff(got, ref))
		}
	})
}

func huff0Decode(in []byte, n int, four bool) (out []byte, err error) {
	s, rest, err := huff0.ReadTable(in, nil)
	if err != nil {
		return nil, err
	}
	s.MaxDecodedSize = n
	if four {
		out, err = s.Decoder().Decompress4X(make([]byte, 0, n), rest)
	} else {
		out, err = s.Decoder().Decompress1X(make([]byte, 0, n), rest)
	}
	if err == nil && len(out) != n {
		err = fmt.Errorf("huff0 gave %d symbols, want %d", len(out), n)
	}
	return out, err
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestHuffTableSlots reads sections of three different trees in an order
// that hits and misses the two kept tables, with corrupt descriptions in
// between, and checks every section decodes to its input through one
// Decoder: a kept table is reused only for its own description, and a
// failed read leaves the kept tables as they were.
func TestHuffTableSlots(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var secs, ins [][]byte
	var s huff0.Scratch
	for _, alpha := range []int{16, 40, 200} {
		in := make([]byte, 20000)
		for i := range in {
			x := r.Float64()
			in[i] = byte(x * x * float64(alpha))
		}
		s.Reuse = huff0.ReusePolicyNone
		out, _, err := huff0.Compress4X(in, &s)
		if err != nil {
			t.Fatal(err)
		}
		secs, ins = append(secs, bytes.Clone(out)), append(ins, in)
	}
	var d Decoder
	var prev *huffTable
	order := []int{0, 1, 0, 0, 2, 1, -1, 1, 2, 0, 2, -2, 2, 0}
	for step, k := range order {
		if k < 0 {
			// A description that fails: weights that complete no tree,
			// or one cut short.
			bad := []byte{127 + 5, 0x11, 0x11, 0x10}
			if k == -2 {
				bad = secs[1][:2]
			}
			if _, err := d.readHuffTable(bad); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("step %d: bad description read with %v", step, err)
			}
			continue
		}
		rest, err := d.readHuffTable(secs[k])
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if d.ht != &d.hts[0].t && d.ht != &d.hts[1].t {
			t.Fatalf("step %d: the table is in no slot", step)
		}
		if step > 0 && k == order[step-1] && d.ht != prev {
			t.Fatalf("step %d: the same description built a new table", step)
		}
		prev = d.ht
		got := make([]byte, len(ins[k]))
		if err := d.ht.decode4(got, rest); err != nil || !bytes.Equal(got, ins[k]) {
			t.Fatalf("step %d (tree %d): %v, equal %v", step, k, err, bytes.Equal(got, ins[k]))
		}
	}
}

// TestHuffTableKeep: a tree that comes again between trees that change
// (c-blosc2's noisy byte planes between its others) keeps its slot, so
// it is never built again, until huffKeep other trees have passed; every
// section decodes to its input throughout.
func TestHuffTableKeep(t *testing.T) {
	var s huff0.Scratch
	sec := func(alpha int, seed uint64) ([]byte, []byte) {
		r := rand.New(rand.NewPCG(seed, 9))
		in := make([]byte, 9000)
		for i := range in {
			x := r.Float64()
			in[i] = byte(x * x * float64(alpha))
		}
		s.Reuse = huff0.ReusePolicyNone
		out, _, err := huff0.Compress4X(in, &s)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(out), in
	}
	var d Decoder
	read := func(sec, in []byte) {
		t.Helper()
		rest, err := d.readHuffTable(sec)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(in))
		if err := d.ht.decode4(got, rest); err != nil || !bytes.Equal(got, in) {
			t.Fatalf("%v, equal %v", err, bytes.Equal(got, in))
		}
	}
	a, ain := sec(16, 1)
	read(a, ain)
	read(a, ain)
	kept := d.ht
	for k := range huffKeep/2 + huffKeep + 2 {
		b, bin := sec(40+k, uint64(100+k))
		read(b, bin)
		if k < huffKeep && d.ht == kept {
			t.Fatalf("other tree %d took the kept slot", k)
		}
		if k < huffKeep/2 {
			read(a, ain)
			if d.ht != kept {
				t.Fatalf("after other tree %d the kept tree was built again", k)
			}
		}
	}
	for _, sl := range d.hts {
		if bytes.Equal(sl.desc, a[:len(sl.desc)]) && len(sl.desc) > 0 {
			t.Fatalf("the kept tree outlived %d other trees", huffKeep)
		}
	}
}
