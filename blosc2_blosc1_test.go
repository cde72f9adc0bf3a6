package blosc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/goblosc/blosc/internal/golden"
)

// errClass names the sentinel an error wraps, so that decoders that must
// fail alike are compared by kind rather than by message.
func errClass(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrCorrupt):
		return "corrupt"
	case errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrRange):
		return "range"
	}
	return "unwrapped"
}

// fuzzMaxCheck is the largest output the consistency checks decode more
// than once: a hostile header may legitimately claim 64 MiB of zeros, and
// four copies of it per execution leave the fuzzer no time for the rest.
const fuzzMaxCheck = 4 << 20

// decodeWays holds the decoders that must agree on every chunk: serial,
// parallel, staged and staged-parallel, the last three forced at any size
// (parallel blocks start at 128 KiB, staged output at 16 MiB).
type decodeWays struct {
	serial Decompressor
	others [3]struct {
		name string
		d    Decompressor
		buf  []byte
	}
	ref []byte // the serial output of the current input, for range checks
}

func newDecodeWays() *decodeWays {
	w := &decodeWays{serial: Decompressor{threads: 1}}
	w.others[0].name, w.others[0].d.threads = "parallel", 2
	w.others[0].d.e.parallelMin = 1
	w.others[1].name, w.others[1].d.threads = "staged", 1
	w.others[1].d.e.stageMin = 1
	w.others[2].name, w.others[2].d.threads = "staged parallel", 2
	w.others[2].d.e.stageMin, w.others[2].d.e.parallelMin = 1, 1
	return w
}

// check decodes src every way and fails t where they disagree on the bytes
// or on the class of error, where an error wraps no sentinel, where
// Decompress accepts what ReadHeader refuses, or where the output is not the
// header's nbytes. It then reads GetItem ranges against the output: the
// range the fuzzer chose (items [a mod (n+1), ...) and b), and a range
// across each of the first block boundaries. It returns the serial result.
func (w *decodeWays) check(t *testing.T, src []byte, a, b uint32) ([]byte, error) {
	h, herr := ReadHeader(src)
	out, err := w.serial.Decompress(nil, src)
	if c := errClass(err); c == "unwrapped" || c == "range" {
		t.Fatalf("Decompress: error wraps no input sentinel: %v", err)
	}
	if err == nil && herr != nil {
		t.Fatalf("Decompress succeeded where ReadHeader failed: %v", herr)
	}
	if err == nil && len(out) != h.Nbytes {
		t.Fatalf("decoded %d bytes, header says %d", len(out), h.Nbytes)
	}
	if herr == nil && h.Nbytes > fuzzMaxCheck {
		return out, err
	}
	for i := range w.others {
		o := &w.others[i]
		// Poisoned, so that a byte one decoder forgets to write shows
		// (the serial decode writes into fresh zeroed memory).
		var dst []byte
		if herr == nil {
			if cap(o.buf) < h.Nbytes {
				o.buf = make([]byte, h.Nbytes)
			}
			dst = o.buf[:h.Nbytes:h.Nbytes]
			for j := range dst {
				dst[j] = 0xa5
			}
		}
		got, gerr := o.d.Decompress(dst, src)
		if errClass(gerr) != errClass(err) {
			t.Fatalf("%s decode: %v; serial: %v", o.name, gerr, err)
		}
		if err == nil {
			if !bytes.Equal(got, out) {
				t.Fatalf("%s decode differs from serial at byte %d of %d", o.name, golden.FirstDiff(got, out), len(out))
			}
		}
	}
	if err != nil {
		return out, err
	}
	w.checkRanges(t, src, out, h, a, b)
	return out, nil
}

// checkRanges compares GetItem with the decoded chunk.
func (w *decodeWays) checkRanges(t *testing.T, src, out []byte, h Header, a, b uint32) {
	ts := h.Typesize
	items := h.Nbytes / ts
	get := func(start, n int) {
		got, err := w.serial.GetItems(w.ref[:0], src, int64(start), int64(n))
		if err != nil {
			t.Fatalf("GetItems(%d, %d) of %d items: %v", start, n, items, err)
		}
		if want := out[start*ts : (start+n)*ts]; !bytes.Equal(got, want) {
			t.Fatalf("GetItems(%d, %d) of %d %d-byte items differs from Decompress at byte %d", start, n, items, ts, golden.FirstDiff(got, want))
		}
		if cap(got) > cap(w.ref) {
			w.ref = got
		}
	}
	start := int(uint64(a) % uint64(items+1))
	get(start, int(uint64(b)%uint64(items-start+1)))
	// Across the first block boundaries, from one item before to one
	// after (two blocks decoded at most).
	bs := h.Blocksize
	if h.VarBlocks || h.Special != SpecialNone || h.Memcpyed || bs <= 0 {
		return
	}
	for k, edge := 1, bs; k <= 3 && edge < h.Nbytes; k, edge = k+1, edge+bs {
		lo := max(edge/ts-1, 0)
		get(lo, min(items, (edge+ts-1)/ts+1)-lo)
	}
	if _, err := w.serial.GetItems(nil, src, int64(items), 1); !errors.Is(err, ErrRange) {
		t.Fatalf("GetItem past the end (item %d of %d): %v, want ErrRange", items, items, err)
	}
}

// asBlosc2 rewrites a Blosc1 chunk (header h, parsed) as the Blosc2 chunk
// that means the same: the 32-byte header with the shuffle in the last
// filter slot and the split rule made explicit, then the same block offsets
// moved by 16 and the same streams. ok is false where the two formats
// define the chunk's content differently: a bit-shuffled block whose
// element count is not a multiple of 8 is copied in Blosc1 and transposed
// up to the last multiple of 8 in Blosc2.
func asBlosc2(src []byte, h *Header) (chunk []byte, ok bool) {
	if h.Format != FormatBlosc1 || h.Cbytes > len(src) || h.Cbytes < blosc1HeaderLen || h.Cbytes > MaxBufferSize-16 {
		return nil, false
	}
	if h.BitShuffle && !h.Memcpyed && h.Blocksize > 0 {
		ts := h.Typesize
		if (h.Blocksize/ts)%8 != 0 || (h.leftover()/ts)%8 != 0 {
			return nil, false
		}
	}
	chunk = make([]byte, h.Cbytes+16)
	flags := h.Flags&^(flagShuffle|flagBitShuffle|flagDontSplit) | flagsExtended
	if !h.Split {
		flags |= flagDontSplit
	}
	x := header2{version: version2Stable, versionLZ: h.VersionLZ, flags: flags, typesize: uint8(h.Typesize),
		nbytes: h.Nbytes, blocksize: h.Blocksize, cbytes: h.Cbytes + 16, codecID: uint8(h.Codec)}
	switch {
	case h.Shuffle:
		x.filters[MaxFilters-1] = uint8(ByteShuffle)
	case h.BitShuffle:
		x.filters[MaxFilters-1] = uint8(BitShuffle)
	}
	x.put(chunk)
	copy(chunk[header2Len:], src[blosc1HeaderLen:h.Cbytes])
	if !h.Memcpyed && h.Nbytes > 0 {
		for j := 0; j < h.Nblocks && header2Len+4*j+4 <= len(chunk); j++ {
			p := chunk[header2Len+4*j:]
			binary.LittleEndian.PutUint32(p, binary.LittleEndian.Uint32(p)+16)
		}
	}
	return chunk, true
}

// Every Blosc1 vector c-blosc made, rewritten by asBlosc2, decodes through
// the Blosc2 reader to the same bytes: the two readers agree on the chunks
// both formats can express, and FuzzDecompress's comparison of them is not
// vacuous.
func TestBlosc1AsBlosc2(t *testing.T) {
	dir, rows := golden.Rows(t, "blosc1-chunk")
	compared, skipped := 0, 0
	for _, e := range rows {
		src := golden.Read(t, dir, e)
		h, err := ReadHeader(src)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		want, err := Decompress(nil, src)
		if err != nil {
			t.Fatalf("%s: %v", e.File, err)
		}
		c2, ok := asBlosc2(src, &h)
		if !ok {
			skipped++
			continue
		}
		got, err := Decompress(nil, c2)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s as Blosc2: %v, first difference at %d", e.File, err, golden.FirstDiff(got, want))
		}
		compared++
	}
	t.Logf("%d chunks compared, %d bit-shuffled ones the formats define differently", compared, skipped)
	if compared < len(rows)/2 {
		t.Errorf("only %d of %d chunks compared", compared, len(rows))
	}
}
