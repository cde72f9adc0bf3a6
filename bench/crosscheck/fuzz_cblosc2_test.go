//go:build cblosc2 && cgo

package crosscheck

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bench/internal/cblosc2"
	"github.com/goblosc/blosc/internal/golden"
)

// FuzzCrossCBlosc2: on any input, c-blosc2 (given the real buffer size)
// and Decompress agree on whether it decodes and on the bytes, and
// blosc2_getitem_ctx agrees with GetItem on the range the fuzzer picks,
// except where c2Differs names a known difference (docs/formats.md and the
// README's format notes).
func FuzzCrossCBlosc2(f *testing.F) {
	golden.SeedChunks(f)
	for i, c := range []blosc.Codec{blosc.BloscLZ, blosc.LZ4, blosc.LZ4HC, blosc.Zlib, blosc.Zstd} {
		in, _ := golden.Pattern("linspace_f64", 3000+100*i)
		ch, err := blosc.Compress(nil, in, blosc.Options{Format: blosc.FormatBlosc2, Codec: c, Level: 5, Typesize: 8, Blocksize: 1024, Threads: 1,
			Filters: [blosc.MaxFilters]blosc.Filter{4: blosc.Delta, 5: blosc.ByteShuffle}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(ch, uint32(i), uint32(7*i))
	}
	// The plugin filters c-blosc2 registers by default (a build with
	// -DBUILD_PLUGINS=ON decodes them; one without refuses them, as we
	// refuse what we lack).
	for i, fs := range [][blosc.MaxFilters]blosc.Filter{{4: blosc.ByteShuffle, 5: blosc.ByteDelta}, {4: blosc.ByteShuffle, 5: blosc.ByteDeltaLegacy}, {4: blosc.IntTrunc, 5: blosc.ByteShuffle}} {
		in, _ := golden.Pattern("linspace_f64", 3000+8*i)
		ch, err := blosc.Compress(nil, in, blosc.Options{Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8, Blocksize: 1024, Threads: 1,
			Filters: fs, FilterMeta: [blosc.MaxFilters]uint8{4: 60, 5: 8}})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(ch, uint32(i), uint32(100*i))
	}
	d := newDecompressor(1)
	f.Fuzz(func(t *testing.T, src []byte, a, b uint32) {
		// A fresh C context for every input: a reused one carries a
		// Blosc2 chunk's filter metas into the next Blosc1 chunk
		// (TestCBlosc2ContextKeepsFilterMeta).
		cd, err := cblosc2.NewDecompressor(1)
		if err != nil {
			t.Fatal(err)
		}
		defer cd.Free()
		nbytes, cbytes, _, serr := cblosc2.Sizes(src)
		if serr != nil || nbytes < 0 || nbytes > 1<<20 {
			return
		}
		h, herr := blosc.ReadHeader(src)
		ours, err := d.Decompress(nil, src)
		want := make([]byte, nbytes)
		n, cerr := cd.Decompress(want, src)
		if cerr == nil {
			want = want[:n]
		} else {
			want = nil
		}
		if (err == nil) != (cerr == nil) || (err == nil && !bytes.Equal(ours, want)) {
			if why := c2Differs(src, &h, herr, err, ours, want); why != "" {
				t.Skip(why)
			}
			if err != nil && cerr == nil && cbytes >= 0 && cbytes < len(src) {
				if _, err := cd.Decompress(make([]byte, nbytes), src[:cbytes]); err != nil {
					t.Skip("c-blosc2 reads past cbytes when the buffer goes on")
				}
			}
			t.Fatalf("Decompress: %d bytes, %v; c-blosc2: %d bytes, %v; first difference at %d", len(ours), err, n, cerr, golden.FirstDiff(ours, want))
		}
		if err != nil || h.VarBlocks || h.Special == blosc.SpecialValue {
			// c-blosc2 has no getitem for VL blocks, and its getitem
			// on a repeated value is pinned by TestGetItemRepeatedValueVersusC2.
			return
		}
		ts := h.Typesize
		items := h.Nbytes / ts
		start := int(uint64(a) % uint64(items+1))
		count := int(uint64(b) % uint64(items-start+1))
		got, err := d.GetItems(nil, src, int64(start), int64(count))
		if err != nil {
			t.Fatalf("GetItem(%d, %d): %v", start, count, err)
		}
		cgot := make([]byte, count*ts)
		m, cerr := cd.GetItem(cgot, src, start, count)
		if cerr != nil || m != count*ts || !bytes.Equal(got, cgot) {
			if c2GetItemBlockBug(&h, start, count) {
				t.Skip("c-blosc2's getitem of one block's bytes from inside a block (TestGetItemBlockSizedRangeVersusC2)")
			}
			if hasFilter(&h, blosc.Delta) && (start+count)*ts > h.Blocksize {
				t.Skip("c-blosc2's getitem past block 0 of a delta chunk (TestGetItemDeltaVersusC2)")
			}
			t.Fatalf("GetItem(%d, %d) of %d-byte items: blosc2_getitem_ctx %d bytes, %v; first difference at %d", start, count, ts, m, cerr, golden.FirstDiff(got, cgot))
		}
	})
}

// c-blosc2 bug: blosc2_initialize_context_from_header copies the filter
// metas of an extended header into the context but leaves them as they
// were for a Blosc1 header, so a context that decoded a Blosc2 chunk whose
// SHUFFLE has a meta (an element size) unshuffles the next Blosc1 chunk
// with that element size. Found by FuzzCrossCBlosc2; Decompressor keeps no
// such state, which this test also checks.
func TestCBlosc2ContextKeepsFilterMeta(t *testing.T) {
	dir, rows := golden.Rows(t, "blosc2-chunk", "blosc1-chunk")
	var meta, b1 []byte
	for _, e := range rows {
		switch e.File {
		case "blosc2/b2_B_blosclz_l5_shufflem4_ts8_n100000.b2chunk":
			meta = readGolden(t, dir, e.File)
		case "blosc1/b1_A_lz4_l5_shuffle_ts8_n65536.blosc1":
			b1 = readGolden(t, dir, e.File)
		}
	}
	if meta == nil || b1 == nil {
		t.Fatal("vectors missing from the manifest")
	}
	want, err := blosc.Decompress(nil, b1)
	if err != nil {
		t.Fatal(err)
	}
	cd, err := cblosc2.NewDecompressor(1)
	if err != nil {
		t.Fatal(err)
	}
	defer cd.Free()
	d := newDecompressor(1)
	got := make([]byte, len(want))
	if _, err := cd.Decompress(got, b1); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("fresh context: %v, first difference at %d", err, golden.FirstDiff(got, want))
	}
	if _, err := cd.Decompress(make([]byte, 100000), meta); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decompress(nil, meta); err != nil {
		t.Fatal(err)
	}
	if ours, err := d.Decompress(nil, b1); err != nil || !bytes.Equal(ours, want) {
		t.Fatalf("Decompressor after a shuffle-meta chunk: %v, first difference at %d", err, golden.FirstDiff(ours, want))
	}
	if _, err := cd.Decompress(got, b1); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		t.Fatal("c-blosc2's reused context decodes the Blosc1 chunk right: has the bug been fixed?")
	}
	t.Logf("c-blosc2 %s, reused context: first difference at byte %d", cblosc2.Version(), golden.FirstDiff(got, want))
}

func readGolden(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// c2Differs names the known reason why c-blosc2 and we disagree on src,
// or returns "". err is our Decompress error, ours and theirs the outputs
// when both decoded.
//
// Where we refuse what c-blosc2 decodes, the refusal must be one of the
// checks c-blosc2 does not make (it ignores version bytes, does not check
// that the streams tile the chunk, reads a zero-special chunk's trailing
// bytes as nothing, ...) or a feature we do not support: refusing is the
// safe side, but a new kind of refusal is looked at. Where c-blosc2
// refuses what we decode, or both decode and differ, only its known gaps
// and bugs are accepted.
func c2Differs(src []byte, h *blosc.Header, herr, err error, ours, theirs []byte) string {
	if err != nil {
		if why := codecGap(src, err); why != "" {
			return why
		}
		if m := blosc1Stream.FindStringSubmatch(err.Error()); h.Format == blosc.FormatBlosc1 && m != nil {
			if m[1] == "0" || m[1][0] == '-' {
				return "c-blosc2 reads zero and byte runs in Blosc1 chunks too; c-blosc 1.x does not"
			}
			if len(src) > h.Cbytes {
				return "c-blosc2 reads a Blosc1 stream past cbytes when the buffer goes on"
			}
		}
		if h.Format == blosc.FormatBlosc2 && len(src) > h.Cbytes && blosc2PastCbytes.MatchString(err.Error()) {
			return "c-blosc2 reads a stream past cbytes when the buffer goes on"
		}
		if errors.Is(err, blosc.ErrUnsupported) {
			return "we do not support it: " + err.Error()
		}
		for _, s := range c2Laxer {
			if strings.Contains(err.Error(), s) {
				return "c-blosc2 does not check it: " + err.Error()
			}
		}
		return ""
	}
	switch {
	case h.Format == blosc.FormatBlosc1 && h.Codec == blosc.Snappy:
		return "c-blosc2 has no Snappy"
	case h.Format == blosc.FormatBlosc2 && theirs == nil && !cPlugins() &&
		(hasFilter(h, blosc.ByteDelta) || hasFilter(h, blosc.ByteDeltaLegacy) || hasFilter(h, blosc.IntTrunc)):
		return "this c-blosc2 was built without its plugin filters"
	case (h.Special == blosc.SpecialValue || h.Special == blosc.SpecialNaN) && theirs == nil && valueSplitByBlocks(h):
		return "c-blosc2 fills a repeated-value or NaN chunk block by block and fails where a block is not a whole number of values; we fill it whole"
	case h.Nbytes == 0 && theirs == nil:
		return "an empty chunk: we return nothing whatever follows its header; c-blosc2 checks block offsets it will not use"
	case h.Format == blosc.FormatBlosc1 && !h.DontSplit && !h.Split && !h.Memcpyed:
		return "c-blosc2 splits a Blosc1 block whenever the not-split flag is clear; c-blosc 1.x (and we) only at typesize <= 16 and blocksize/typesize >= 128, and 1.x writes the flag otherwise"
	case h.Format == blosc.FormatBlosc2 && (h.Special != blosc.SpecialNone || h.Memcpyed) && h.Dict:
		return "c-blosc2 refuses a special or stored chunk with the dictionary flag; we ignore it, there are no streams to use one"
	case h.Format == blosc.FormatBlosc1 && h.BitShuffle && theirs != nil && len(theirs) == len(ours) && !h.Memcpyed &&
		(blosc1BitCopied(h.Blocksize, h.Typesize) || blosc1BitCopied(leftover(h), h.Typesize)):
		return "c-blosc2 bit-unshuffles a Blosc1 block whose element count is not a multiple of 8 (docs/formats.md)"
	case h.Format == blosc.FormatBlosc2 && (hasFilter(h, blosc.Delta) || hasFilter(h, blosc.TruncPrec) ||
		hasFilter(h, blosc.IntTrunc) || hasFilter(h, blosc.ByteDeltaLegacy)) && theirs != nil && len(theirs) == len(ours) &&
		(h.Blocksize%h.Typesize != 0 || leftover(h)%h.Typesize != 0):
		return "c-blosc2 leaves a delta, trunc_prec, int_trunc or legacy bytedelta block's partial element unwritten (docs/formats.md)"
	}
	return ""
}

// c2Laxer are our refusals of chunks c-blosc2 decodes anyway, by the words
// of their errors.
var c2Laxer = []string{
	"version",               // c-blosc2 ignores the version bytes
	"larger than nbytes",    // a Blosc1 blocksize above nbytes; c-blosc2 clamps it
	"special chunk of",      // bytes after a zeros, NaN or uninitialised header
	"streams cover",         // streams that do not tile the chunk
	"outside",               // a block offset into the header, offsets or dictionary, or past cbytes
	"cannot fit in",         // Blosc1 offsets beyond cbytes, for blocks C never reads
	"codec format",          // an unknown codec, where every stream is stored or a run
	"cannot come from",      // more bytes than the codec's ratio allows (c-blosc2 reads runs in Blosc1 chunks too)
	"cannot hold",           // the same for one stream
	"NaN chunk of typesize", // NaN without a float size (c-blosc2 accepts it when empty)
	"split into",            // a block not a whole number of split streams (c-blosc2 drops the remainder)
}

// blosc1Stream matches our Blosc1 reader's refusal of a stream size: a
// run in a Blosc2 chunk, or a stream past cbytes.
var blosc1Stream = regexp.MustCompile(`stream \d+: size (-?\d+) with \d+ bytes left`)

// blosc2PastCbytes matches our Blosc2 reader's refusal of a stream longer
// than what is left of the chunk.
var blosc2PastCbytes = regexp.MustCompile(`stream of \d+ bytes, \d+ left|block offsets do not fit in|stream size truncated|run token truncated|dictionary size truncated`)

// valueSplitByBlocks reports whether the blocks of a repeated-value or NaN
// chunk (by its header's blocksize) are not all whole numbers of its value.
func valueSplitByBlocks(h *blosc.Header) bool {
	v := h.Cbytes - header2Len
	if h.Special == blosc.SpecialNaN {
		v = h.Typesize
	}
	return v > 0 && h.Blocksize > 0 && (h.Blocksize%v != 0 || (h.Nbytes%h.Blocksize)%v != 0)
}

// blosc1BitCopied reports whether c-blosc 1.x copies a bit-shuffled block
// of n bytes instead of transposing it (n == 0: no such block).
func blosc1BitCopied(n, ts int) bool {
	return n > 0 && (n < ts || (n/ts)%8 != 0)
}
