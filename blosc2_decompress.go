package blosc

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"

	"github.com/klauspost/cpuid/v2"
)

// chunk2 is a validated Blosc2 chunk: every offset and size the block
// decoder reads has been checked against the buffer, so decoding a block
// cannot index outside src and the output size is justified by the input.
type chunk2 struct {
	h       header2
	src     []byte // src[:cbytes]
	codec   Codec
	pipe    pipeline2
	dict    []byte
	nblocks int
	last    int // size of the last block (regular chunks)
	maxBlk  int // largest block
	bstarts []byte
	// bigOut says the chunk is one piece of an output too large for the
	// caches (engine.bypass), whatever its own size (see copyOut).
	bigOut bool
}

// openChunk2 validates a Blosc2 chunk. For a regular chunk it walks the
// stream headers of every block: a size claim the streams cannot back is
// refused before the caller allocates the output.
func openChunk2(src []byte) (chunk2, error) { return openChunk2Of(src, false) }

// openChunk2Partial opens a chunk of which only the header, the block
// starts (and dictionary) and some blocks were read, the rest of src being
// unread: it checks the block starts but not the streams, which each block
// decoded then checks. It is how frame files read a few items of a chunk.
func openChunk2Partial(src []byte) (chunk2, error) { return openChunk2Of(src, true) }

func openChunk2Of(src []byte, partial bool) (chunk2, error) {
	h, err := parseHeader2(src)
	if err != nil {
		return chunk2{h: h}, err
	}
	c := chunk2{h: h, src: src[:h.cbytes]}
	c.pipe = pipeline2{filters: h.filters, meta: h.filterMeta, typesize: int(h.typesize)}
	if h.special() != specialNone || h.memcpyed() || h.nbytes == 0 {
		return c, nil
	}
	if c.codec, err = h.codec(); err != nil {
		return c, err
	}
	c.nblocks, c.last = h.nblocks()
	c.maxBlk = h.blocksize
	dataStart := int64(header2Len) + 4*int64(c.nblocks)
	if dataStart > int64(len(c.src)) {
		return c, fmt.Errorf("%w: %d block offsets do not fit in %d bytes", ErrCorrupt, c.nblocks, len(c.src))
	}
	c.bstarts = c.src[header2Len:dataStart]
	start := int(dataStart)
	if h.useDict() {
		if start+4 > len(c.src) {
			return c, fmt.Errorf("%w: dictionary size truncated", ErrCorrupt)
		}
		ds := int(int32(binary.LittleEndian.Uint32(c.src[start:])))
		if ds <= 0 || ds > maxDictSize2 || ds > len(c.src)-start-4 {
			return c, fmt.Errorf("%w: dictionary of %d bytes", ErrCorrupt, ds)
		}
		switch c.codec {
		case Zstd, LZ4, LZ4HC:
			c.dict = c.src[start+4 : start+4+ds]
		}
		start += 4 + ds
	}
	if h.vlBlocks() {
		return c, c.scanVL(start)
	}
	if partial {
		// Only the blocks asked for are present: check that every block
		// starts inside the chunk; each stream read checks its own size.
		for i := 0; i < c.nblocks; i++ {
			if bs := c.bstart(i); bs < start || bs >= len(c.src) {
				return c, fmt.Errorf("%w: block %d starts at %d, outside [%d, %d)", ErrCorrupt, i, bs, start, len(c.src))
			}
		}
		return c, nil
	}
	// The blocks' streams tile the rest of the chunk exactly (in any order:
	// a multi-threaded compressor writes blocks as they finish), so a size
	// that disagrees with the bytes is caught even when each stream alone
	// looks plausible.
	used := start
	for i := 0; i < c.nblocks; i++ {
		bs := c.bstart(i)
		if bs < start || bs >= len(c.src) {
			return c, fmt.Errorf("%w: block %d starts at %d, outside [%d, %d)", ErrCorrupt, i, bs, start, len(c.src))
		}
		nstreams, neblock, err := c.streams(i)
		if err != nil {
			return c, err
		}
		p := bs
		for j := 0; j < nstreams; j++ {
			n, err := scanStream(c.src[p:], neblock, c.codec)
			if err != nil {
				return c, fmt.Errorf("block %d stream %d: %w", i, j, err)
			}
			p += n
		}
		used += p - bs
	}
	if used != len(c.src) {
		return c, fmt.Errorf("%w: streams cover %d bytes of a %d-byte chunk", ErrCorrupt, used, len(c.src))
	}
	return c, nil
}

// scanVL checks the blocks of a variable-length-block chunk: increasing
// offsets, each block led by its positive size, sizes adding up to nbytes.
func (c *chunk2) scanVL(start int) error {
	total, prev := 0, 0
	c.maxBlk = 0
	for i := 0; i < c.nblocks; i++ {
		bs := c.bstart(i)
		end := len(c.src)
		if i+1 < c.nblocks {
			end = c.bstart(i + 1)
		}
		if (i == 0 && bs != start) || bs <= prev || end <= bs+4 || end > len(c.src) {
			return fmt.Errorf("%w: VL block %d spans [%d, %d)", ErrCorrupt, i, bs, end)
		}
		n := int(int32(binary.LittleEndian.Uint32(c.src[bs:])))
		if n <= 0 || n > c.h.nbytes-total {
			return fmt.Errorf("%w: VL block %d of %d bytes", ErrCorrupt, i, n)
		}
		if cs := end - bs - 4; cs != n && int64(cs)*int64(maxExpansion(c.codec)) < int64(n) {
			return fmt.Errorf("%w: VL block %d: %d bytes cannot hold %d", ErrCorrupt, i, cs, n)
		}
		total += n
		c.maxBlk = max(c.maxBlk, n)
		prev = bs
	}
	if total != c.h.nbytes {
		return fmt.Errorf("%w: VL blocks hold %d bytes, header says %d", ErrCorrupt, total, c.h.nbytes)
	}
	return nil
}

func (c *chunk2) bstart(i int) int {
	return int(int32(binary.LittleEndian.Uint32(c.bstarts[4*i:])))
}

// blockSize returns the uncompressed size of regular block i.
func (c *chunk2) blockSize(i int) int {
	if i == c.nblocks-1 {
		return c.last
	}
	return c.h.blocksize
}

// streams returns how many streams block i has and their size.
func (c *chunk2) streams(i int) (nstreams, neblock int, err error) {
	bsize := c.blockSize(i)
	nstreams = 1
	if !c.h.dontSplit() && bsize == c.h.blocksize {
		nstreams = int(c.h.typesize)
	}
	if bsize%nstreams != 0 {
		return 0, 0, fmt.Errorf("%w: block of %d bytes split into %d streams", ErrCorrupt, bsize, nstreams)
	}
	return nstreams, bsize / nstreams, nil
}

// decodeState holds one worker's Blosc2 scratch buffers.
type decodeState struct {
	a, b  []byte
	blk   []byte // a whole block, for GetItem
	ref   []byte // decoded block 0, for GetItem over delta-coded blocks
	stage []byte // a group of decoded blocks on its way to the output
	// streams are the starts of a block's streams for unshuffleStreams.
	streams [16]*byte
	// parts are a block's streams handed to schunkhook.ReadBlockStreams.
	parts [16][]byte
	// zeros is what a zero stream is read from (decodeBlockStreams); it
	// is never written.
	zeros []byte
}

// zeroStream returns n zero bytes that no one writes.
func (s *decodeState) zeroStream(n int) []byte {
	if len(s.zeros) < n {
		s.zeros = make([]byte, n)
	}
	return s.zeros[:n]
}

func (s *decodeState) scratch(n int) (a, b []byte) {
	if cap(s.a) < n {
		s.a = make([]byte, n)
		s.b = make([]byte, n)
	}
	return s.a[:n], s.b[:n]
}

// decodeBlock decodes regular block i into out (its place in the output).
// ref is nil for block 0 and otherwise the decoded block 0, which the delta
// filter reads.
func (c *chunk2) decodeBlock(out, ref []byte, i int, st *decodeState, cd codecDecoder) error {
	return c.decodeBlockFrom(out, ref, i, c.src[c.bstart(i):], st, cd)
}

// decodeBlockFrom decodes regular block i from src, which starts at the
// block's first stream: the chunk's own bytes, or the block alone as a
// frame file's lazy offsets index reads it.
func (c *chunk2) decodeBlockFrom(out, ref []byte, i int, src []byte, st *decodeState, cd codecDecoder) error {
	nstreams, neblock, err := c.streams(i)
	if err != nil {
		return err
	}
	bsize := nstreams * neblock
	filtered := c.pipe.activeBackward()
	if filtered && !c.pipe.bypass && canUnshuffleStreams(nstreams, neblock) {
		if ts, ok := c.pipe.shuffleOnly(); ok && ts == nstreams {
			return c.decodeBlockStreams(out[:bsize], i, ts, neblock, src, st, cd)
		}
	}
	buf := out[:bsize]
	var tmp []byte
	if filtered {
		buf, tmp = st.scratch(bsize)
	}
	if err := c.readStreams(buf, i, nstreams, neblock, src, cd); err != nil {
		return err
	}
	if filtered {
		if err := c.pipe.backward(out[:bsize], buf, tmp, ref); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
	}
	return nil
}

// readStreams decodes the nstreams streams of neblock bytes of block i,
// which start at src, into buf.
func (c *chunk2) readStreams(buf []byte, i, nstreams, neblock int, src []byte, cd codecDecoder) error {
	p := 0
	for j := 0; j < nstreams; j++ {
		n, err := c.readStream(buf[j*neblock:(j+1)*neblock], src[p:], cd)
		if err != nil {
			return fmt.Errorf("block %d stream %d: %w", i, j, err)
		}
		p += n
	}
	return nil
}

// decodeBlockPart decodes bytes [off, off+len(out)) of regular block i
// into out when the block's only filter to undo is a byte shuffle, and
// reports whether it did. The streams are decoded whole (a codec cannot
// start mid-stream), but only the range's items are unshuffled. A thin
// slice of an N-dimensional array (a plane of a 3-D block, a third of the
// rows of a 2-D one) reads such ranges, and the unshuffle of the whole
// block was a fifth of its time.
//
// Where unshuffleStreams can take the items the range holds whole, they
// are unshuffled from the streams where they lie straight into out
// (decodeBlockPartStreams), which costs less than decoding the whole
// block at any size of range. Elsewhere the range's bytes are gathered
// from each stream, unshuffled, then copied out: three passes, which lost
// to decoding the whole block for ranges over a quarter of it.
func (c *chunk2) decodeBlockPart(out []byte, i, off int, st *decodeState, cd codecDecoder) (bool, error) {
	ts, ok := c.pipe.shuffleOnly()
	if !ok || ts < 2 {
		return false, nil
	}
	nstreams, neblock, err := c.streams(i)
	if err != nil {
		return false, err
	}
	bsize := nstreams * neblock
	lo, hi := off, off+len(out)
	n := bsize / ts // the items; bytes past n*ts stay where they are
	body := n * ts
	if partStreams(ts, n, lo, hi) {
		return true, c.decodeBlockPartStreams(out, i, lo, ts, nstreams, neblock, st, cd)
	}
	e0, e1 := min(lo/ts, n), min((hi+ts-1)/ts, n)
	m := e1 - e0
	if 4*len(out) > bsize || 2*m*ts > bsize {
		return false, nil
	}
	buf, tmp := st.scratch(bsize)
	if err := c.readStreams(buf, i, nstreams, neblock, c.src[c.bstart(i):], cd); err != nil {
		return false, err
	}
	if m > 0 {
		g, u := tmp[:m*ts], tmp[m*ts:2*m*ts]
		for j := range ts {
			copy(g[j*m:(j+1)*m], buf[j*n+e0:j*n+e1])
		}
		Unshuffle(u, g, ts)
		end := min(hi, body)
		copy(out[:end-lo], u[lo-e0*ts:end-e0*ts])
	}
	if hi > body {
		from := max(lo, body)
		copy(out[from-lo:], buf[from:hi])
	}
	return true, nil
}

// partStreams reports whether decodeBlockPart unshuffles bytes [lo, hi)
// of a block of n items of ts bytes with unshuffleStreams: the items
// [a0, a1) that lie whole inside the range are enough for its kernels.
func partStreams(ts, n, lo, hi int) bool {
	a0, a1 := (lo+ts-1)/ts, min(hi, n*ts)/ts
	return a1 > a0 && canUnshuffleStreams(ts, a1-a0)
}

// readsPart reports whether reading the n bytes at off, inside one
// regular block, takes decodeBlockPartStreams (schunkhook.ReadsPart).
func (c *chunk2) readsPart(off int64, n int) bool {
	h := &c.h
	if h.special() != specialNone || h.memcpyed() || h.vlBlocks() || h.blocksize <= 0 ||
		off < 0 || n <= 0 || off >= int64(h.nbytes) || int64(n) > int64(h.nbytes)-off {
		return false
	}
	i := int(off / int64(h.blocksize))
	lo := int(off) - i*h.blocksize
	if i >= c.nblocks || lo+n > c.blockSize(i) {
		return false
	}
	ts, ok := c.pipe.shuffleOnly()
	if !ok || ts < 2 {
		return false
	}
	nstreams, neblock, err := c.streams(i)
	return err == nil && partStreams(ts, nstreams*neblock/ts, lo, lo+n)
}

// shuffledStreams decodes the streams of block i (nstreams streams of
// neblock bytes) whose only filter to undo is a byte shuffle of ts-byte
// items, and sets ss[0:ts] to the ts streams of that shuffle: byte j of
// item e is ss[j][e]. When the block is split into its ts streams, a
// raw stream is read where the chunk holds it and a zero stream from the
// buffer of zeros, as decodeBlockStreams does; otherwise the block's one
// stream is decoded and the ts streams of the shuffle lie side by side
// in it. It returns the scratch buffer the streams were decoded into,
// whose bytes past the last item hold the block's last bytes when ts
// does not divide its size (one stream only).
func (c *chunk2) shuffledStreams(ss *[16][]byte, i, ts, nstreams, neblock int, st *decodeState, cd codecDecoder) ([]byte, error) {
	src := c.src[c.bstart(i):]
	bsize := nstreams * neblock
	n := bsize / ts
	buf, _ := st.scratch(bsize)
	if nstreams != ts {
		if err := c.readStreams(buf, i, nstreams, neblock, src, cd); err != nil {
			return nil, err
		}
		for j := range ts {
			ss[j] = buf[j*n : (j+1)*n]
		}
		return buf, nil
	}
	p := 0
	for j := range ts {
		s := buf[j*n : (j+1)*n]
		k, err := scanStream(src[p:], n, c.codec)
		if err == nil {
			switch cs := int(int32(binary.LittleEndian.Uint32(src[p:]))); cs {
			case n:
				s = src[p+4 : p+k]
			case 0:
				s = st.zeroStream(n)
			default:
				_, err = c.readStream(s, src[p:], cd)
			}
		}
		if err != nil {
			clear(ss[:j])
			return nil, fmt.Errorf("block %d stream %d: %w", i, j, err)
		}
		ss[j] = s
		p += k
	}
	return buf, nil
}

// decodeBlockPartStreams is decodeBlockPart for a range [lo,
// lo+len(out)) of block i (nstreams streams of neblock bytes, shuffled
// with typesize ts) whose whole items unshuffleStreams can take, from the
// streams shuffledStreams sets. The whole items go straight into out, the
// pieces of items at the range's ends byte by byte, and bytes past the
// last item (a block of one stream whose size ts does not divide) are
// copied as decoded.
func (c *chunk2) decodeBlockPartStreams(out []byte, i, lo, ts, nstreams, neblock int, st *decodeState, cd codecDecoder) error {
	var ss [16][]byte
	buf, err := c.shuffledStreams(&ss, i, ts, nstreams, neblock, st, cd)
	if err != nil {
		return err
	}
	n := nstreams * neblock / ts
	hi := lo + len(out)
	end := min(hi, n*ts)
	a0, a1 := (lo+ts-1)/ts, end/ts
	if hi > end {
		copy(out[end-lo:], buf[end:hi])
	}
	for j := range ts {
		st.streams[j] = &ss[j][a0]
	}
	unshuffleStreams(out[a0*ts-lo:a1*ts-lo], &st.streams, ts, a1-a0)
	// The chunk may be the caller's to drop: hold no pointer into it.
	clear(st.streams[:ts])
	for b := lo; b < a0*ts; b++ {
		out[b-lo] = ss[b%ts][b/ts]
	}
	for b := a1 * ts; b < end; b++ {
		out[b-lo] = ss[b%ts][b/ts]
	}
	return nil
}

// decodeVLBlock decodes VL block i, whose stream spans [bs, end).
func (c *chunk2) decodeVLBlock(out, ref []byte, i int, st *decodeState, cd codecDecoder) error {
	bs := c.bstart(i)
	end := len(c.src)
	if i+1 < c.nblocks {
		end = c.bstart(i + 1)
	}
	stream := c.src[bs+4 : end]
	filtered := c.pipe.activeBackward()
	buf := out
	var tmp []byte
	if filtered {
		buf, tmp = st.scratch(len(out))
	}
	if len(stream) == len(out) {
		copyOut(buf, stream, false)
	} else if err := c.decodeStream(buf, stream, cd); err != nil {
		return fmt.Errorf("VL block %d: %w", i, err)
	}
	if filtered {
		if err := c.pipe.backward(out, buf, tmp, ref); err != nil {
			return fmt.Errorf("VL block %d: %w", i, err)
		}
	}
	return nil
}

// Output staging. A large chunk's output does not stay in cache, and the
// unshuffle kernels write it with ordinary stores, each of which first reads
// its cache line from memory, and for a large arange_i64 chunk that final
// unshuffle can be most of the decoding time. Go's memmove on amd64
// stores copies of 1 MiB or more non-temporally instead, so a worker
// decodes blocks in groups of at least stageCopyMin bytes into a
// cache-resident buffer and moves each group out with one copy. Elsewhere
// memmove has no such path and staging would only add a copy.
//
// BenchmarkBlosc2Stage (blosc2_bench_test.go) times staged against direct
// decoding by size: staging has paid on AMD CPUs from 16 MiB and lost on
// Intel ones with a large L3 at every size, so chunks are staged by
// default only on AMD; the engine's stageMin makes tests and benchmarks
// stage them on any amd64.
const (
	stageOutput   = runtime.GOARCH == "amd64"
	stageCopyMin  = 1 << 20
	stageMinBytes = 16 << 20 // where BenchmarkBlosc2Stage first shows staging ahead
)

// bypassMinBytes is the output size from which the last unshuffle of a
// chunk's blocks writes around the caches (unshuffleBypass) where it can:
// a chunk this large, or a chunk decoded as one piece of a super-chunk's
// data this large. Where it can, no output is staged: writing around the
// caches is what staging's copy was for.
const bypassMinBytes = 16 << 20

// stageMinDefault is the chunk size from which output is staged unless an
// engine says otherwise: stageMinBytes on AMD, never elsewhere.
var stageMinDefault = func() int {
	if stageOutput && cpuid.CPU.VendorID == cpuid.AMD {
		return stageMinBytes
	}
	return math.MaxInt
}()

// blockGroups returns how many consecutive blocks form one unit of work
// and whether a unit is staged (see stageOutput). stageMin is the chunk
// size from which to stage.
func (c *chunk2) blockGroups(stageMin int) (int, bool) {
	if !stageOutput || c.h.nbytes < stageMin || !c.pipe.activeBackward() || c.pipe.bypass {
		return 1, false
	}
	return max(1, (stageCopyMin+c.h.blocksize-1)/c.h.blocksize), true
}

// decodeGroup decodes regular blocks lo..hi-1 into their places in dst,
// through st.stage when staged. Block 0 must already be in dst if a later
// block in the group refers to it (delta) and the group is staged.
func (c *chunk2) decodeGroup(dst []byte, lo, hi int, staged bool, st *decodeState, cd codecDecoder) error {
	bs := c.h.blocksize
	start, end := lo*bs, (hi-1)*bs+c.blockSize(hi-1)
	out := dst[start:end]
	if staged {
		st.stage = grow(st.stage, end-start)
		out = st.stage[:end-start]
	}
	for i := lo; i < hi; i++ {
		var ref []byte
		if i > 0 {
			ref = dst[:c.blockSize(i)]
		}
		off := (i - lo) * bs
		if err := c.decodeBlock(out[off:off+c.blockSize(i)], ref, i, st, cd); err != nil {
			return err
		}
	}
	if staged {
		copy(dst[start:end], out)
	}
	return nil
}

// decodeAll decodes the whole chunk into dst (len(dst) == nbytes), block 0
// first because the delta filter of every other block refers to it.
func (c *chunk2) decodeAll(dst []byte, stageMin int, st *decodeState, cd codecDecoder) error {
	h := &c.h
	switch {
	case h.special() != specialNone:
		return expandSpecial(dst, h, c.src)
	case h.memcpyed():
		copyOut(dst, c.src[header2Len:], c.bigOut)
		return nil
	case h.nbytes == 0:
		return nil
	}
	if h.vlBlocks() {
		// c-blosc2 compresses every VL block as its own block 0 (offset 0),
		// so a delta filter refers to the block itself.
		off := 0
		for i := 0; i < c.nblocks; i++ {
			n := int(int32(binary.LittleEndian.Uint32(c.src[c.bstart(i):])))
			if err := c.decodeVLBlock(dst[off:off+n], nil, i, st, cd); err != nil {
				return err
			}
			off += n
		}
		return nil
	}
	g, staged := c.blockGroups(stageMin)
	first := 0
	if staged && c.pipe.has(Delta) {
		// Later blocks read block 0 from dst: it cannot wait in a stage.
		if err := c.decodeGroup(dst, 0, 1, false, st, cd); err != nil {
			return err
		}
		first = 1
	}
	for lo := first; lo < c.nblocks; lo += g {
		if err := c.decodeGroup(dst, lo, min(lo+g, c.nblocks), staged, st, cd); err != nil {
			return err
		}
	}
	return nil
}

// decompress2 decodes a Blosc2 chunk into dst, reusing it when it has room.
func decompress2(dst, src []byte, st *decodeState, cd codecDecoder) ([]byte, error) {
	c, err := openChunk2(src)
	if err != nil {
		return dst[:0], err
	}
	n := c.h.nbytes
	if cap(dst) < n {
		dst = make([]byte, n)
	}
	dst = dst[:n]
	c.pipe.bypass = n >= bypassMinBytes && c.pipe.bypassable()
	if err := c.decodeAll(dst, stageMinDefault, st, cd); err != nil {
		return dst[:0], err
	}
	return dst, nil
}
