package zstdenc

import (
	"crypto/sha256"
	"encoding/binary"
	"testing"

	"github.com/goblosc/blosc/internal/cputime"
	"github.com/goblosc/blosc/internal/golden"
)

func TestTmpParams(t *testing.T) {
	n := 256 << 10
	out := make([]byte, n+8)
	ts := int64(1_700_000_000_000_000_000)
	s := uint64(12345)
	for i := 0; i+8 <= len(out); i += 8 {
		s = s*6364136223846793005 + 1442695040888963407
		binary.LittleEndian.PutUint64(out[i:], uint64(ts+int64(s>>54)))
		ts += 1_000_000
	}
	src := golden.Shuffled(out[:n], 8)
	for _, slog := range []uint8{1, 3, 5, 8} {
		for _, mls := range []uint8{4, 5, 6} {
			var e Encoder
			p := cparams{18, 17, 18, slog, mls, 2, stratGreedy}
			e.override = &p
			o := e.Encode(nil, src, 5)
			t.Logf("slog %d mls %d: %d", slog, mls, len(o))
		}
	}
}

func TestTmpChain(t *testing.T) {
	src := golden.Shuffled(golden.MustPattern(t, "text", 64<<10), 1)
	var e Encoder
	p := cparams{18, 17, 18, 5, 5, 2, stratGreedy}
	e.override = &p
	e.Encode(nil, src, 5)
	e.p = p
	e.reset(len(src))
	found, total := 0, 0
	for ip := 1; ip < len(src)-16; ip++ {
		n, o := e.hcSearch(src, ip, len(src), 5)
		total++
		if n > 0 {
			found++
			if found < 5 {
				t.Logf("ip %d n %d off %d", ip, n, o)
			}
		}
	}
	t.Logf("found %d of %d", found, total)
}

func BenchmarkTmpFinder(b *testing.B) {
	for _, name := range []string{"f32_noise", "linspace_f64", "text"} {
		src := golden.Shuffled(golden.MustPattern(b, name, 256<<10), 8)
		for _, lvl := range []int{1, 3} {
			b.Run(name+"/"+string(rune('0'+lvl)), func(b *testing.B) {
				var e Encoder
				e.Encode(nil, src, lvl)
				b.SetBytes(int64(len(src)))
				done := cputime.Throughput(b, len(src))
				for b.Loop() {
					e.p = paramsFor(lvl, len(src), 0)
					e.reset(len(src))
					for pos := 0; pos < len(src); pos += maxBlockSize {
						e.seqs = e.seqs[:0]
						e.lits = e.lits[:0]
						if lvl == 1 {
							e.fast(src, pos, min(pos+maxBlockSize, len(src)))
						} else {
							e.dfast(src, pos, min(pos+maxBlockSize, len(src)))
						}
					}
				}
				done()
			})
		}
	}
}

func TestTmpCount(t *testing.T) {
	src := golden.Shuffled(golden.MustPattern(t, "text", 256<<10), 8)
	for _, lvl := range []int{1, 3} {
		var e Encoder
		e.p = paramsFor(lvl, len(src), 0)
		e.strategy = int(e.p.strat)
		e.reset(len(src))
		for pos := 0; pos < len(src); pos += maxBlockSize {
			e.seqs = e.seqs[:0]
			e.lits = e.lits[:0]
			if lvl == 1 {
				e.fast(src, pos, min(pos+maxBlockSize, len(src)))
			} else {
				e.dfast(src, pos, min(pos+maxBlockSize, len(src)))
			}
			tot := 0
			for _, s := range e.seqs {
				tot += int(s.ml)
			}
			t.Logf("lvl %d block %d: %d seqs, %d lits, matched %d", lvl, pos, len(e.seqs), len(e.lits), tot)
		}
	}
}

func TestTmpHash(t *testing.T) {
	h := sha256.New()
	var e Encoder
	for _, name := range []string{"text", "linspace_f64", "f32_noise", "rec12"} {
		src := golden.Shuffled(golden.MustPattern(t, name, 200<<10), 4)
		for _, lvl := range []int{1, 3, 5, 9, 19} {
			h.Write(e.Encode(nil, src, lvl))
		}
	}
	t.Logf("frames sha %x", h.Sum(nil))
}

func BenchmarkTmpHuff(b *testing.B) {
	src := golden.Shuffled(golden.MustPattern(b, "f32_noise", 128<<10), 4)[64<<10:]
	var e Encoder
	var c [256]uint32
	countBytes(&c, src)
	var t huffCTable
	e.hb.build(&t, &c, 255, 11)
	dst := make([]byte, len(src)*2)
	b.SetBytes(int64(len(src)))
	done := cputime.Throughput(b, len(src))
	for b.Loop() {
		huffStreams(dst, src, &t, true)
	}
	done()
}

func BenchmarkTmpHuffBuild(b *testing.B) {
	src := golden.Shuffled(golden.MustPattern(b, "f32_noise", 128<<10), 4)[64<<10:]
	var e Encoder
	var c [256]uint32
	countBytes(&c, src)
	var t huffCTable
	done := cputime.Throughput(b, len(src))
	for b.Loop() {
		e.hb.build(&t, &c, 255, 11)
	}
	done()
}
