package blosclz

import (
	"math"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
	"github.com/goblosc/blosc/internal/le"
)

// estimateRatioModel is the entropy probe as C's get_cratio writes it, one
// position and one literal at a time: estimateRatio, which scans and counts
// in bulk, must return exactly its ratio, since a ratio on either side of a
// level's threshold decides whether the block is stored raw.
func estimateRatioModel(b []byte, htab []uint32, log uint, minLen, ipShift int) float64 {
	limit := min(len(b), 1<<log)
	b = b[:limit]
	htab = htab[:1<<log]
	mask := uint32(len(htab) - 1)
	shift := 32 - log
	ipBound := limit - 1
	ipLimit := limit - tailReserve
	oc := 5 // the first control byte and four literals
	lit := 4
	ip := 0
	for ip < ipLimit {
		anchor := ip
		seq := le.Load32(b, ip)
		h := hash(seq, shift) & mask
		ref := int(htab[h])
		distance := anchor - ref
		htab[h] = uint32(anchor)
		if distance != 0 && distance < maxFarDistance && le.Load32(b, ref) == seq {
			distance--
			ip = matchEnd(b, anchor+4, ipBound, ref+4) - ipShift
			if n := ip - anchor; n >= minLen {
				if lit == 0 {
					oc--
				}
				lit = 0
				if n >= longLen {
					oc += (n-longLen)/255 + 1
				}
				if distance < maxDistance {
					oc += 2
				} else {
					oc += 4
				}
				htab[hash(le.Load32(b, ip), shift)&mask] = uint32(ip)
				ip += 2
				oc++
				continue
			}
		}
		oc++
		ip = anchor + 1
		lit++
		if lit == maxCopy {
			lit = 0
			oc++
		}
	}
	return float64(ip) / float64(oc)
}

func TestEstimateRatioMatchesModel(t *testing.T) {
	var inputs [][]byte
	for _, name := range []string{"zeros", "rep_5a", "arange_i8", "arange_i16", "arange_i32", "arange_i64",
		"linspace_f64", "rand_s1", "rand_s3", "rand_s5", "rand_s8", "f32_noise", "text", "runs", "rec3", "rec7", "rec12"} {
		for _, n := range []int{13, 64, 1000, 4096, 9000, 20000} {
			b, err := golden.Pattern(name, n)
			if err != nil {
				t.Fatal(name, err)
			}
			inputs = append(inputs, b)
			// The byte planes a shuffle would make, for 4 and 8 bytes.
			for _, ts := range []int{4, 8} {
				s := make([]byte, 0, n)
				for j := range ts {
					for i := j; i < n-n%ts; i += ts {
						s = append(s, b[i])
					}
				}
				inputs = append(inputs, append(s, b[n-n%ts:]...))
			}
		}
	}
	var h1 [1 << hashLog]uint16
	var h2 [1 << hashLog]uint32
	var pr table
	pr.base = math.MaxUint32 - 500000 // numbering starts over on the way
	checked := 0
	for _, b := range inputs {
		for _, p := range []struct {
			log             uint
			minLen, ipShift int
		}{{probeHashLog, probeMinLen, probeIPShift}, {hashLog - 2, 4, 4}, {hashLog, 4, 4}, {hashLog, 3, 3}} {
			for _, off := range []int{0, len(b) / 4, len(b) / 2} {
				in := b[off:]
				if len(in) < tailReserve {
					continue
				}
				clear(h1[:])
				clear(h2[:])
				got := estimateRatio(in, h1[:], 0, p.log, p.minLen, p.ipShift)
				want := estimateRatioModel(in, h2[:], p.log, p.minLen, p.ipShift)
				if got != want {
					t.Fatalf("len %d log %d minLen %d ipShift %d: ratio %v, model %v", len(in), p.log, p.minLen, p.ipShift, got, want)
				}
				// An Encoder's probe table, reused over every input.
				if reused := pr.ratio(in, p.log, p.minLen, p.ipShift); reused != want {
					t.Fatalf("len %d log %d minLen %d ipShift %d: ratio %v with a reused table, model %v", len(in), p.log, p.minLen, p.ipShift, reused, want)
				}
				checked++
			}
		}
	}
	if pr.base >= math.MaxUint32-500000 {
		t.Fatal("the reused table's numbering never started over")
	}
	t.Logf("%d probes compared", checked)
}
