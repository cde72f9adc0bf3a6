package zdict

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/testrand"
)

// shuffled returns pattern name's first n bytes byte-shuffled for
// typesize ts, the kind of data Blosc2 trains on.
func shuffled(t testing.TB, name string, n, ts int) []byte {
	src, err := golden.Pattern(name, n)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, n)
	m := n / ts
	for i := 0; i < m; i++ {
		for j := 0; j < ts; j++ {
			out[j*m+i] = src[i*ts+j]
		}
	}
	copy(out[m*ts:], src[m*ts:])
	return out
}

// cut splits b into n samples of equal length, as Blosc2 does.
func cut(b []byte, n int) [][]byte {
	s := make([][]byte, n)
	l := len(b) / n
	for i := range s {
		s[i] = b[i*l : (i+1)*l]
	}
	return s
}

// clone copies every sample so that no two runs share memory.
func clone(samples [][]byte) [][]byte {
	c := make([][]byte, len(samples))
	for i, s := range samples {
		c[i] = bytes.Clone(s)
	}
	return c
}

func TestTrainDeterministic(t *testing.T) {
	for _, name := range []string{"linspace_f64", "f32_noise", "text", "rec12", "arange_i64"} {
		for _, n := range []int{4096, 16 << 10, 256 << 10} {
			samples := cut(shuffled(t, name, n, 8), 64)
			a := Train(nil, samples, 32<<10)
			b := Train(nil, clone(samples), 32<<10)
			if !bytes.Equal(a, b) {
				t.Fatalf("%s/%d: two runs differ (%d and %d bytes)", name, n, len(a), len(b))
			}
			if len(a) > 32<<10 || len(a) > n {
				t.Fatalf("%s/%d: %d-byte dictionary", name, n, len(a))
			}
		}
	}
	// Text repeats enough to fill a dictionary: the runs must have had
	// something to agree on.
	if d := Train(nil, cut(shuffled(t, "text", 256<<10, 1), 64), 8<<10); len(d) != 8<<10 {
		t.Fatalf("text: %d-byte dictionary, want it full", len(d))
	}
}

// The segment covering the most samples comes last, nearest the data; a
// d-mer found in fewer than MinFreq samples never enters, so a segment is
// cut exactly where its recurring bytes end.
func TestTrainSegmentsAndOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	common := testrand.Bytes(r, 100) // in every sample
	some := testrand.Bytes(r, 100)   // in three samples
	var samples [][]byte
	for i := 0; i < 10; i++ {
		s := append(testrand.Bytes(r, 50), common...)
		// Farther apart than a segment (K=128) reaches.
		s = append(s, testrand.Bytes(r, 200)...)
		if i%3 == 0 && i < 9 {
			s = append(s, some...)
			s = append(s, testrand.Bytes(r, 20)...)
		}
		samples = append(samples, s)
	}
	p := Params{K: 128}
	got := TrainParams(nil, samples, 1000, p)
	want := append(bytes.Clone(some), common...)
	if !bytes.Equal(got, want) {
		t.Fatalf("dictionary of %d bytes, want the 100 bytes in 3 samples then the 100 in all:\n got %x\nwant %x", len(got), got, want)
	}
	// Only room for part of the best segment: its start is kept.
	if got := TrainParams(nil, samples, 40, p); !bytes.Equal(got, common[:40]) {
		t.Fatalf("40-byte budget: got %x, want %x", got, common[:40])
	}
	// Samples in another order: the same d-mers recur, so the same two
	// segments win; the tie-break by position is not exercised here.
	rev := make([][]byte, len(samples))
	for i, s := range samples {
		rev[len(samples)-1-i] = s
	}
	if got := TrainParams(nil, rev, 1000, p); !bytes.Equal(got, want) {
		t.Fatalf("reversed samples: got %x", got)
	}
}

func TestTrainBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	same := testrand.Bytes(r, 3000)
	identical := [][]byte{same, same, same, same, same, same}
	cases := []struct {
		name    string
		samples [][]byte
		size    int
		max     int // longest acceptable result
		min     int // shortest acceptable result
	}{
		{"nil", nil, 1000, 0, 0},
		{"empty samples", [][]byte{{}, {}, nil}, 1000, 0, 0},
		{"tiny samples", [][]byte{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3, 4, 5}}, 1000, 0, 0},
		{"zero size", identical, 0, 0, 0},
		{"negative size", identical, -5, 0, 0},
		// Random data: no d-mer recurs, nothing is worth storing.
		{"random", cut(testrand.Bytes(r, 64<<10), 16), 8 << 10, 0, 0},
		// Identical samples: every d-mer of one sample, once or nearly.
		{"identical", identical, 32 << 10, 3000 + 3000/(DefaultK-DefaultD+1)*DefaultD + 64, 3000},
		{"identical, small size", identical, 700, 700, 700 - DefaultD + 1},
		{"size above input", [][]byte{[]byte("abcdefgh"), []byte("abcdefgh"), []byte("abcdefgh")}, 1 << 20, 24, 8},
		{"zeros", cut(make([]byte, 1<<16), 8), 4096, 4096, DefaultD},
	}
	for _, c := range cases {
		prefix := []byte("keep")
		got := Train(bytes.Clone(prefix), c.samples, c.size)
		if !bytes.HasPrefix(got, prefix) {
			t.Fatalf("%s: dst's bytes not kept", c.name)
		}
		n := len(got) - len(prefix)
		if n < c.min || n > c.max {
			t.Fatalf("%s: %d-byte dictionary, want %d..%d", c.name, n, c.min, c.max)
		}
	}
	// Every d-mer of the identical samples is in their dictionary.
	d := Train(nil, identical, 32<<10)
	for i := 0; i+DefaultD <= len(same); i++ {
		if !bytes.Contains(d, same[i:i+DefaultD]) {
			t.Fatalf("identical samples: d-mer at %d missing from the %d-byte dictionary", i, len(d))
		}
	}
}

func TestTrainParams(t *testing.T) {
	samples := cut(shuffled(t, "text", 64<<10, 4), 32)
	for _, p := range []Params{{K: 1, D: 1}, {K: 3, D: 20}, {K: 1 << 30, D: 8}, {MinFreq: 1}, {MinFreq: 1000}, {MaxInput: 1}, {MaxInput: 7000}} {
		a := TrainParams(nil, samples, 4096, p)
		if len(a) > 4096 || !bytes.Equal(a, TrainParams(nil, clone(samples), 4096, p)) {
			t.Fatalf("%+v: %d bytes or not deterministic", p, len(a))
		}
	}
	// Input past MaxInput is not read: the whole samples that fit and the
	// start of the next decide alone.
	p := Params{MaxInput: 5000}
	short := append(clone(samples[:2]), samples[2][:5000-2*len(samples[0])])
	if !bytes.Equal(TrainParams(nil, samples, 4096, p), TrainParams(nil, short, 4096, p)) {
		t.Fatal("samples past MaxInput changed the dictionary")
	}
	if d := TrainParams(nil, samples, 4096, Params{MinFreq: 1000}); len(d) != 0 {
		t.Fatalf("no d-mer is in 1000 of 32 samples, yet %d bytes", len(d))
	}
}

// Training allocates in proportion to the samples it reads, whatever
// dictionary size is asked for: at most 64 bytes per byte (text after a
// 4-byte shuffle has nearly as many distinct d-mers as positions).
func TestTrainAllocBounded(t *testing.T) {
	samples := cut(shuffled(t, "text", 1<<20, 4), 256)
	for _, size := range []int{1 << 10, 32 << 10, math.MaxInt} {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		d := Train(nil, samples, size)
		runtime.ReadMemStats(&m1)
		got := m1.TotalAlloc - m0.TotalAlloc
		if limit := uint64(64<<20 + 64<<10); got > limit {
			t.Fatalf("size %d: %d bytes allocated for 1 MiB of samples, limit %d", size, got, limit)
		}
		if len(d) > 1<<20 {
			t.Fatalf("size %d: %d-byte dictionary from 1 MiB", size, len(d))
		}
	}
}

func FuzzTrain(f *testing.F) {
	f.Add([]byte("abcdefghabcdefghabcdefgh0123abcdefgh"), uint8(4), uint16(64), uint16(8), uint8(6))
	f.Add(bytes.Repeat([]byte{0}, 300), uint8(1), uint16(1000), uint16(0), uint8(0))
	f.Add([]byte{}, uint8(0), uint16(0), uint16(0), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, nsamples uint8, size, k uint16, d uint8) {
		// The samples overlap: one buffer cut in strides and lengths taken
		// from the data itself.
		var samples [][]byte
		for i := 0; i < int(nsamples) && len(data) > 0; i++ {
			a := int(data[i%len(data)]) % len(data)
			b := min(len(data), a+int(data[(i+1)%len(data)]))
			samples = append(samples, data[a:b])
		}
		if nsamples == 0 {
			samples = [][]byte{data, data, data}
		}
		p := Params{K: int(k), D: int(d), MinFreq: 2}
		got := TrainParams(nil, samples, int(size), p)
		if len(got) > int(size) {
			t.Fatalf("%d bytes for a size of %d", len(got), size)
		}
		if again := TrainParams(nil, samples, int(size), p); !bytes.Equal(got, again) {
			t.Fatal("not deterministic")
		}
	})
}

// BenchmarkTrain trains on what a Blosc2 chunk of n bytes offers: its
// first n/16 bytes after an 8-byte shuffle, cut into 64 samples, for a
// dictionary of 5% of n (at most 32 KiB).
func BenchmarkTrain(b *testing.B) {
	for _, name := range []string{"arange_i64", "linspace_f64", "f32_noise", "text", "rec12"} {
		for _, n := range []int{256 << 10, 1 << 20, 4 << 20, 64 << 20} {
			samples := cut(shuffled(b, name, n/16, 8), 64)
			size := min(32<<10, n/20)
			b.Run(fmt.Sprintf("%s/chunk=%dKiB", name, n>>10), func(b *testing.B) {
				b.SetBytes(int64(n / 16))
				b.ReportAllocs()
				var d []byte
				for b.Loop() {
					d = Train(d[:0], samples, size)
				}
				b.ReportMetric(float64(len(d)), "dict-bytes")
			})
		}
	}
}

// The dictionary is the same bytes on every platform (little- and
// big-endian, 32- and 64-bit): its digests are pinned here. A change to
// the algorithm or its defaults changes them; update them then, knowing
// that chunks written before will differ from those written after.
func TestTrainPinned(t *testing.T) {
	for _, c := range []struct {
		name string
		ts   int
		want string
	}{
		{"text", 1, "8192:c9c2c2108409d03c93f"},
		{"rec12", 4, "8192:44430a369548780cbe2"},
		{"f32_noise", 4, "8192:a2ca2fb8e63e1e635cf"},
		{"linspace_f64", 8, "8192:d2155ea01d3bb8e7b44"},
	} {
		d := Train(nil, cut(shuffled(t, c.name, 64<<10, c.ts), 32), 8<<10)
		if got := fmt.Sprintf("%d:%x", len(d), sha256.Sum256(d)); got[:min(len(got), 24)] != c.want {
			t.Errorf("%s: dictionary %s, want %s", c.name, got[:min(len(got), 24)], c.want)
		}
	}
}
