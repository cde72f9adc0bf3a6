// Package zdict trains raw-content zstd dictionaries with the COVER
// algorithm of Liao, Petri, Moffat and Wirth ("Effective construction of
// relative Lempel-Ziv dictionaries", WWW 2016), the method behind zstd's
// ZDICT_trainFromBuffer_cover.
//
// Every d-mer (d consecutive bytes) of the samples gets a frequency: the
// number of samples it occurs in. The samples, laid end to end, are cut
// into epochs. Round after round, each epoch yields the window of k bytes
// whose not-yet-covered d-mers have the largest total frequency; those
// d-mers are then covered (their frequency drops to zero) and the window
// is placed in the dictionary, which fills from its end towards its start
// so that the segments picked first sit nearest the data that follows.
//
// Unlike klauspost/compress/dict, the result depends only on the samples
// and their order: there is no map iteration, no randomness, no output.
// Ties go to the earliest position.
package zdict

import "encoding/binary"

// The defaults come from Blosc2 zstd dictionary chunks of the golden
// patterns (arange_i64, linspace_f64, f32_noise, text, rec12; 256 KiB to
// 4 MiB; typesizes 4 and 8; byte shuffle; levels 1, 5, 9): among k in
// 64..1024, d in 5..8 and a minimum frequency of 2..5, k=512, d=6 and 3
// gave the smallest chunks overall and lost at most 1% to the raw samples
// as a dictionary on any of them. Shorter d-mers find more of the short
// matches shuffled numeric data has; a minimum of 2 filled dictionaries
// with bytes that did not pay for their room, 4 and more left out useful
// ones. zstd's own trainer differs in ways that matter less: it searches k
// for each input, counts d-mers hashed rather than exactly, and stops
// after a run of empty epochs where this one stops when every epoch is
// empty (or the dictionary full).
const (
	DefaultK       = 512
	DefaultD       = 6
	DefaultMinFreq = 3
)

// Params tune the trainer. Zero fields take the defaults.
type Params struct {
	// K is the segment length in bytes; it is raised to D when smaller.
	K int
	// D is the d-mer length, 4 to 8.
	D int
	// MinFreq is the number of samples a d-mer must occur in to count: a
	// d-mer seen in fewer is unlikely to recur in the data, and a Blosc2
	// chunk stores every dictionary byte, so it would cost more than it
	// saves.
	MinFreq int
	// MaxInput caps the bytes of samples trained on (default 128 times the
	// dictionary size, at least 1 MiB; at most 256 MiB): later samples are
	// ignored, so the training cost stays bounded whatever the input.
	MaxInput int
}

// DefaultParams returns the parameters Train uses.
func DefaultParams() Params { return Params{K: DefaultK, D: DefaultD, MinFreq: DefaultMinFreq} }

func (p Params) norm(size int) Params {
	if p.D == 0 {
		p.D = DefaultD
	}
	p.D = min(max(p.D, 4), 8)
	if p.K == 0 {
		p.K = DefaultK
	}
	p.K = max(p.K, p.D)
	if p.MinFreq <= 0 {
		p.MinFreq = DefaultMinFreq
	}
	if p.MaxInput <= 0 {
		p.MaxInput = max(1<<20, min(size, 1<<21)*128)
	}
	// d-mers are named by int32 positions, and the table's size must stay
	// an int on 32-bit platforms too.
	p.MaxInput = min(p.MaxInput, 1<<28)
	return p
}

// Train appends to dst a dictionary of at most size bytes trained on
// samples and returns the extended slice. The dictionary is shorter than
// size, possibly empty, when the samples hold too few recurring d-mers to
// fill it. Training takes time and memory in proportion to the sample
// bytes read (at most Params.MaxInput): under 64 bytes of memory per byte.
func Train(dst []byte, samples [][]byte, size int) []byte {
	return TrainParams(dst, samples, size, Params{})
}

// TrainParams is Train with explicit parameters.
func TrainParams(dst []byte, samples [][]byte, size int, p Params) []byte {
	if size <= 0 {
		return dst
	}
	p = p.norm(size)
	var t trainer
	if !t.load(samples, p) {
		return dst
	}
	t.count(p)
	// A dictionary longer than its samples could only repeat them.
	return t.build(dst, min(size, len(t.ids)), p)
}

type trainer struct {
	// data is the samples end to end, followed by 7 bytes of padding so
	// that an 8-byte load works at every position.
	data []byte
	// ends[s] is the end of sample s in data.
	ends []int
	// ids[i] names the d-mer at position i, or is -1 where no whole d-mer
	// of one sample starts or the d-mer no longer counts. While counting,
	// names number all distinct d-mers, then only those that count.
	ids []int32
	// dmers is indexed by name; both fields of one d-mer share a cache
	// line.
	dmers []dmer
}

type dmer struct {
	freq int32
	mark int32 // occurrences in the window being scored
}

// load gathers the samples, at most p.MaxInput bytes of them, and reports
// whether any d-mer exists.
func (t *trainer) load(samples [][]byte, p Params) bool {
	n := 0
	used := 0
	for _, s := range samples {
		if n+len(s) > p.MaxInput {
			if n < p.MaxInput {
				n = p.MaxInput
				used++
			}
			break
		}
		n += len(s)
		used++
	}
	if n < p.D {
		return false
	}
	t.data = make([]byte, 0, n+7)
	t.ends = make([]int, 0, used)
	for _, s := range samples[:used] {
		s = s[:min(len(s), n-len(t.data))]
		t.data = append(t.data, s...)
		t.ends = append(t.ends, len(t.data))
	}
	t.data = append(t.data, make([]byte, 7)...)
	return true
}

// count names every d-mer and counts the samples it occurs in. Names are
// handed out in order of first occurrence through an open-addressing
// table, so they depend on nothing but the data.
func (t *trainer) count(p Params) {
	n := len(t.data) - 7
	mask := ^uint64(0) >> (64 - 8*p.D)
	bits := 4
	for 1<<bits < n+n/2 {
		bits++
	}
	table := make([]int32, 1<<bits) // name + 1; 0 is empty
	t.ids = make([]int32, n)
	// Repetitive samples have few distinct d-mers: the per-d-mer array
	// grows with them rather than with the input, and stays in cache.
	seen := make([]counted, 0, min(n, 1<<12))
	start := 0
	for s, end := range t.ends {
		i := start
		prev, prevID := uint64(0), int32(-1)
		for ; i+p.D <= end; i++ {
			k := binary.LittleEndian.Uint64(t.data[i:]) & mask
			if k == prev && prevID >= 0 {
				// A run (zeros, a constant byte plane): the d-mer is
				// named and counted in this sample already.
				t.ids[i] = prevID
				continue
			}
			h := (k * 0x9E3779B97F4A7C15) >> (64 - bits)
			var id int32
			for {
				e := table[h]
				if e == 0 {
					id = int32(len(seen))
					if len(seen) == cap(seen) {
						// Doubling, not append's gentler growth, keeps
						// the copies left behind under the final size.
						seen = append(make([]counted, 0, min(2*cap(seen), n)), seen...)
					}
					seen = append(seen, counted{key: k})
					table[h] = id + 1
					break
				}
				if seen[e-1].key == k {
					id = e - 1
					break
				}
				h = (h + 1) & (1<<bits - 1)
			}
			t.ids[i] = id
			// Counted once per sample, without a branch that repetitive
			// data would mispredict.
			c := &seen[id]
			c.freq += b2i(c.last != int32(s+1))
			c.last = int32(s + 1)
			prev, prevID = k, id
		}
		for ; i < end; i++ {
			t.ids[i] = -1
		}
		start = end
	}
	// Only the d-mers that count take part in the selection: renamed
	// densely, in order of first occurrence, they fit in cache, and the
	// positions of the others never need a look-up.
	live := int32(0)
	for i := range seen {
		c := &seen[i]
		c.last = -1
		if c.freq >= int32(p.MinFreq) {
			c.last = live
			live++
		}
	}
	for i, id := range t.ids {
		if id >= 0 {
			t.ids[i] = seen[id].last
		}
	}
	t.dmers = make([]dmer, 0, live)
	for _, c := range seen {
		if c.last >= 0 {
			t.dmers = append(t.dmers, dmer{freq: c.freq})
		}
	}
}

// counted is a distinct d-mer while counting: last is the last sample
// that counted it, plus one.
type counted struct {
	key        uint64
	freq, last int32
}

// weight is the frequency the d-mer at position i still contributes.
func (t *trainer) weight(i int) int32 {
	if id := t.ids[i]; id >= 0 {
		return t.dmers[id].freq
	}
	return 0
}

// best returns the first window of at most w d-mer positions within
// [lo, hi) with the largest sum of the frequencies of its distinct
// d-mers, trimmed to start and end on d-mers that still count.
func (t *trainer) best(lo, hi, w int) (b, e int, score int64) {
	var cur int64
	ids, dmers := t.ids[:hi], t.dmers
	b, e = -1, -1
	first := lo
	for last := lo; last < hi; last++ {
		if id := ids[last]; id >= 0 {
			if m := &dmers[id]; m.freq > 0 {
				if m.mark == 0 {
					cur += int64(m.freq)
				}
				m.mark++
			} else {
				// A frequency never rises again: later scans skip the
				// position without looking the d-mer up.
				ids[last] = -1
			}
		}
		if last-first >= w {
			// Every d-mer still named in the window was counted in.
			if id := ids[first]; id >= 0 {
				m := &dmers[id]
				m.mark--
				if m.mark == 0 {
					cur -= int64(m.freq)
				}
			}
			first++
		}
		if cur > score {
			score, b, e = cur, first, last
		}
	}
	for ; first < hi; first++ {
		if id := ids[first]; id >= 0 {
			dmers[id].mark--
		}
	}
	if score == 0 {
		return -1, -1, 0
	}
	for t.weight(b) == 0 {
		b++
	}
	for t.weight(e) == 0 {
		e--
	}
	return b, e, score
}

// build picks segments epoch by epoch and lays them out from the end of
// the dictionary backwards.
func (t *trainer) build(dst []byte, size int, p Params) []byte {
	n := len(t.ids)
	w := p.K - p.D + 1
	// Four passes over the epochs would fill the dictionary if every
	// segment kept its k bytes; an epoch shorter than 10 segments has too
	// little choice.
	epochs := max(1, size/p.K/4)
	epochLen := n / epochs
	if epochLen < 10*p.K {
		epochLen = min(10*p.K, n)
		epochs = n / epochLen
	}
	bounds := func(e int) (int, int) {
		if e == epochs-1 {
			return e * epochLen, n
		}
		return e * epochLen, (e + 1) * epochLen
	}
	// An epoch with nothing left to score stays so (frequencies only
	// fall); a work budget bounds the rounds that trimmed, short segments
	// could otherwise multiply.
	exhausted := make([]bool, epochs)
	live := epochs
	budget := 64*int64(n) + 1<<16

	base := len(dst)
	dst = append(dst, make([]byte, size)...)
	out := dst[base:]
	tail := size
	for e := 0; tail > 0 && live > 0 && budget > 0; e = (e + 1) % epochs {
		if exhausted[e] {
			continue
		}
		lo, hi := bounds(e)
		budget -= int64(hi - lo)
		b, end, score := t.best(lo, hi, w)
		if score == 0 {
			exhausted[e] = true
			live--
			continue
		}
		for i := b; i <= end; i++ {
			if id := t.ids[i]; id >= 0 {
				t.dmers[id].freq = 0
			}
		}
		seg := min(end-b+p.D, tail)
		if seg < p.D {
			break
		}
		tail -= seg
		copy(out[tail:], t.data[b:b+seg])
	}
	copy(out, out[tail:])
	return dst[:base+size-tail]
}

func b2i(b bool) int32 {
	if b {
		return 1
	}
	return 0
}
