// Package codec adapts the compressors Blosc chunks use (BloscLZ, LZ4,
// LZ4HC, Snappy, Zlib, Zstd) to one calling convention: compress into a
// fixed-size destination, returning 0 when the result does not fit, and
// decompress to exactly the size the chunk declares.
//
// The streams are those c-blosc reads and writes: LZ4 raw blocks, the Snappy
// raw block format, zlib-wrapped deflate (RFC 1950, what compress2 writes)
// and zstd frames. Compression levels are Blosc's 0..9, mapped to each codec
// as c-blosc 1.21 maps them.
//
// A State holds the encoders, decoders and scratch buffers of one worker.
// It is not safe for concurrent use; give each goroutine its own. After the
// first call for a codec and level has created what it needs, calls do not
// allocate.
package codec

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/goblosc/blosc/blosclz"
	"github.com/goblosc/blosc/internal/deflate"
	"github.com/goblosc/blosc/internal/inflate"
	lz4block "github.com/goblosc/blosc/internal/lz4"
	"github.com/goblosc/blosc/internal/zstddec"
	"github.com/goblosc/blosc/internal/zstdenc"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zlib"
	"github.com/klauspost/compress/zstd"
)

// ID names a codec with c-blosc's compressor code (BLOSC_BLOSCLZ ...).
type ID uint8

const (
	BloscLZ ID = 0
	LZ4     ID = 1
	LZ4HC   ID = 2
	Snappy  ID = 3
	Zlib    ID = 4
	Zstd    ID = 5
)

// NumCodecs is one more than the largest ID.
const NumCodecs = 6

var (
	// ErrCorrupt: a stream does not decode to the size it must have.
	ErrCorrupt = errors.New("codec: corrupt stream")
	// ErrUnsupported: the codec ID is unknown.
	ErrUnsupported = errors.New("codec: unsupported codec")
)

// MaxExpansion is an upper bound on how many bytes one stream byte of the
// codec can decode to. Decoders use it to reject a size claim the
// compressed bytes cannot possibly back before allocating for it:
//   - LZ4: a match token and offset (3 bytes) plus one length byte per 255
//     extra bytes of match, so under 256 bytes per input byte.
//   - BloscLZ: the same shape of length extension as LZ4.
//   - Snappy: a 3-byte copy yields at most 64 bytes.
//   - Deflate: 258 bytes from two 1-bit codes is 1032 per byte.
//   - Zstd: a 4-byte RLE block yields 128 KiB.
func MaxExpansion(id ID) int {
	switch id {
	case LZ4, LZ4HC, BloscLZ:
		return 256
	case Snappy:
		return 32
	case Zlib:
		return 1040
	default:
		return 32768
	}
}

// MaxOut returns the output budget c-blosc 1.x gives one stream of n bytes:
// n for every codec but Snappy, whose C wrapper needs room for its worst
// case and so may return a stream larger than its input.
func MaxOut(id ID, n int) int {
	if id == Snappy {
		return snappyMaxCompressedLength(n)
	}
	return n
}

// snappyMaxCompressedLength is the C++ snappy bound, which snappy_compress
// insists the output buffer reaches.
func snappyMaxCompressedLength(n int) int { return 32 + n + n/6 }

// zstdLevel maps Blosc's level as the zstd wrappers of c-blosc 1.x and
// c-blosc2 do: 2l-1 below 9 and the maximum level (22) at 9. Their
// "clevel == 8" adjustment tests the level after mapping, which is odd by
// then, so it never applies: clevel 8 is libzstd's level 15, not 20.
func zstdLevel(clevel int) int {
	if clevel >= 9 {
		return 22
	}
	return 2*clevel - 1
}

// lz4Accel is c-blosc's get_accel: 10 - clevel for LZ4.
func lz4Accel(clevel int) int { return 10 - clevel }

// State is one worker's codec state. The zero value is ready to use.
type State struct {
	lz4c  *lz4block.Compressor
	blz   *blosclz.Encoder
	lz4hc *lz4block.HCCompressor

	zlibW   [10]*zlib.Writer
	zlibOwn *deflate.Encoder
	zlibDec *inflate.Decoder
	zlibR   io.ReadCloser
	zlibIn  bytes.Reader
	zlibOut fixedWriter
	one     [1]byte

	zenc [4]*zstd.Encoder // indexed by zstd.EncoderLevel-1
	zown zstdenc.Encoder  // the clevels ownZstd marks
	zdec *zstd.Decoder
	// zfast decodes the frames Blosc writes; zdec the rest.
	zfast zstddec.Decoder

	// The decoder for the last zstd dictionary seen, and its bytes.
	zdictDec *zstd.Decoder
	zdict    []byte

	scratch []byte
}

// bloscLZ returns the state's BloscLZ encoder, made on first use.
func (s *State) bloscLZ() *blosclz.Encoder {
	if s.blz == nil {
		s.blz = new(blosclz.Encoder)
	}
	return s.blz
}

// CompressBloscLZ2 is BloscLZ as c-blosc2 writes it (blosclz's
// CompressBlosc2) through the state's encoder.
func (s *State) CompressBloscLZ2(dst, src []byte, clevel int) int {
	return s.bloscLZ().CompressBlosc2(dst, src, clevel)
}

// Compress compresses src into dst with the codec at Blosc level clevel
// (1..9) and returns the stream length, or 0 when the stream does not fit
// in len(dst) or the codec gives up on the data, as c-blosc's wrappers do.
// split tells BloscLZ whether the chunk stores blocks as split streams,
// which c-blosc passes to it. It returns an error only for an unknown
// codec or a failure of the underlying library.
func (s *State) Compress(id ID, clevel int, dst, src []byte, split bool) (int, error) {
	if clevel < 1 || clevel > 9 {
		return 0, fmt.Errorf("codec: level %d out of 1..9", clevel)
	}
	switch id {
	case BloscLZ:
		return s.bloscLZ().CompressBlock(dst, src, clevel, split), nil
	case LZ4:
		if s.lz4c == nil {
			s.lz4c = new(lz4block.Compressor)
		}
		// 0 when it does not fit, as LZ4_compress_fast.
		return s.lz4c.CompressBlock(dst, src, lz4Accel(clevel)), nil
	case LZ4HC:
		if s.lz4hc == nil {
			s.lz4hc = new(lz4block.HCCompressor)
		}
		// c-blosc passes its clevel to LZ4_compress_HC unchanged; 0 when
		// it does not fit, as C.
		return s.lz4hc.CompressBlockHC(dst, src, clevel), nil
	case Snappy:
		if len(dst) < snappyMaxCompressedLength(len(src)) {
			// snappy_compress refuses a buffer below its bound; c-blosc then
			// stores the stream raw, and so do we to write the same chunk.
			return 0, nil
		}
		out := dst
		if need := s2.MaxEncodedLen(len(src)); need < 0 {
			return 0, nil
		} else if len(out) < need {
			out = s.scratchFor(need)
		}
		enc := s2.EncodeSnappy(out, src)
		if len(enc) > len(dst) {
			return 0, nil
		}
		if &enc[0] != &dst[0] {
			copy(dst, enc)
		}
		return len(enc), nil
	case Zlib:
		return s.zlibCompress(clevel, dst, src)
	case Zstd:
		return s.zstdCompress(clevel, dst, src)
	}
	return 0, fmt.Errorf("%w: id %d", ErrUnsupported, id)
}

func (s *State) scratchFor(n int) []byte {
	if cap(s.scratch) < n {
		s.scratch = make([]byte, n)
	}
	return s.scratch[:n]
}

// fixedWriter writes into a fixed slice and fails once it is full, so a
// deflate stream that would overflow the budget stops early.
type fixedWriter struct {
	buf []byte
	n   int
}

var errFull = errors.New("codec: output full")

func (w *fixedWriter) Write(p []byte) (int, error) {
	if len(p) > len(w.buf)-w.n {
		w.n += copy(w.buf[w.n:], p)
		return 0, errFull
	}
	w.n += copy(w.buf[w.n:], p)
	return len(p), nil
}

// ownZlib marks the clevels whose zlib streams internal/deflate writes;
// klauspost's zlib writes the others. internal/deflate writes the bytes
// zlib 1.2.13's compress2 writes, so its ratio is C's; on 1 MiB chunks of
// the benchmark harness's datasets and the real-world-like ones, cut into
// the blocks c-blosc2 hands zlib and byte-shuffled, it is at least as
// fast as C zlib at every clevel, while klauspost's is faster at most
// clevels but 0.72-0.96 of C's ratio on some dataset at every clevel
// (docs/codecs.md, "zlib", gives the table and the command).
var ownZlib = [10]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}

// SetOwnZlib chooses which encoder writes zlib streams at clevel (1-9):
// internal/deflate (own) or klauspost's. It is the benchmark harness's
// switch for comparing the two through whole chunks; it must not be
// called while anything compresses.
func SetOwnZlib(clevel int, own bool) {
	if clevel >= 1 && clevel <= 9 {
		ownZlib[clevel] = own
	}
}

// OwnZlib reports whether internal/deflate writes zlib streams at clevel.
func OwnZlib(clevel int) bool { return clevel >= 1 && clevel <= 9 && ownZlib[clevel] }

func (s *State) zlibCompress(clevel int, dst, src []byte) (int, error) {
	if ownZlib[clevel] {
		if s.zlibOwn == nil {
			s.zlibOwn = new(deflate.Encoder)
		}
		// c-blosc passes its level to compress2 unchanged; 0 when the
		// stream does not fit, as compress2 fails then.
		return s.zlibOwn.Compress(dst, src, clevel), nil
	}
	s.zlibOut = fixedWriter{buf: dst}
	w := s.zlibW[clevel]
	if w == nil {
		var err error
		w, err = zlib.NewWriterLevel(&s.zlibOut, clevel)
		if err != nil {
			return 0, err
		}
		s.zlibW[clevel] = w
	} else {
		w.Reset(&s.zlibOut)
	}
	if _, err := w.Write(src); err != nil {
		return 0, nil
	}
	if err := w.Close(); err != nil {
		return 0, nil
	}
	n := s.zlibOut.n
	s.zlibOut = fixedWriter{}
	return n, nil
}

// ownZstd marks the clevels whose zstd streams internal/zstdenc writes;
// klauspost's encoder writes the others. zstdenc follows libzstd at the
// level c-blosc2 passes, so its chunks are the size of c-blosc2's (within
// 1% on every dataset of the benchmark harness and the real-world-like
// ones, at every clevel), where klauspost's are up to 1.7x larger at
// clevels 5-8 and 2.4x at 9; it is slower than klauspost's at most
// clevels, and than libzstd on most datasets. A clevel names a ratio
// c-blosc2 users know, so every clevel is ours (docs/zstd-encoder.md,
// "Wiring", gives the table and the command).
var ownZstd = [10]bool{1: true, 2: true, 3: true, 4: true, 5: true, 6: true, 7: true, 8: true, 9: true}

// SetOwnZstd chooses which encoder writes zstd streams at clevel (1-9):
// internal/zstdenc (own) or klauspost's. It is the benchmark harness's
// switch for comparing the two through whole chunks; it must not be
// called while anything compresses.
func SetOwnZstd(clevel int, own bool) {
	if clevel >= 1 && clevel <= 9 {
		ownZstd[clevel] = own
	}
}

// OwnZstd reports whether internal/zstdenc writes zstd streams at clevel.
func OwnZstd(clevel int) bool { return clevel >= 1 && clevel <= 9 && ownZstd[clevel] }

func (s *State) zstdCompress(clevel int, dst, src []byte) (int, error) {
	if ownZstd[clevel] {
		// The frame goes straight into dst, as libzstd writes it into
		// the room c-blosc2 gives: no copy of it, and none of a block
		// that would not fit (an incompressible stream's raw block).
		out, ok := s.zown.EncodeFit(dst[:0:len(dst)], src, zstdLevel(clevel))
		if !ok || len(out) == 0 {
			return 0, nil
		}
		return len(out), nil
	}
	lvl := zstd.EncoderLevelFromZstd(zstdLevel(clevel))
	e := s.zenc[lvl-1]
	if e == nil {
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(lvl),
			// C's level 1 Huffman-codes the literals of a block that
			// found no match; klauspost's fastest level stores such a
			// block raw unless told, which left shuffled text and noise
			// uncompressed at levels 1-3.
			zstd.WithAllLitEntropyCompression(true),
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderCRC(false), // ZSTD_compress writes no checksum
			zstd.WithSingleSegment(true),
		)
		if err != nil {
			return 0, err
		}
		s.zenc[lvl-1] = e
	}
	// Encode into scratch sized for the worst case so EncodeAll never
	// grows its buffer, then keep the stream only if it fits.
	buf := s.scratchFor(zstdBound(len(src)))
	out := e.EncodeAll(src, buf[:0])
	if len(out) > len(dst) || len(out) == 0 {
		return 0, nil
	}
	return copy(dst, out), nil
}

// zstdBound is ZSTD_COMPRESSBOUND plus room for the frame header.
func zstdBound(n int) int {
	b := n + n>>8 + 64
	if n < 128<<10 {
		b += (128<<10 - n) >> 11
	}
	return b
}

// Decompress decodes the stream src into exactly len(dst) bytes. A stream
// that is malformed, shorter or longer than len(dst) returns an error
// wrapping ErrCorrupt; nothing is written beyond len(dst).
func (s *State) Decompress(id ID, dst, src []byte) error {
	n := len(dst)
	switch id {
	case BloscLZ:
		got, err := blosclz.Decompress(dst, src)
		if err != nil {
			return fmt.Errorf("%w: blosclz: %v", ErrCorrupt, err)
		}
		if got != n {
			return fmt.Errorf("%w: blosclz stream gave %d bytes, want %d", ErrCorrupt, got, n)
		}
		return nil
	case LZ4, LZ4HC:
		got, err := lz4block.DecompressBlock(dst, src)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if got != n {
			return fmt.Errorf("%w: lz4 stream gave %d bytes, want %d", ErrCorrupt, got, n)
		}
		return nil
	case Snappy:
		dl, err := snappy.DecodedLen(src)
		if err != nil {
			return fmt.Errorf("%w: snappy: %v", ErrCorrupt, err)
		}
		if dl != n {
			return fmt.Errorf("%w: snappy stream holds %d bytes, want %d", ErrCorrupt, dl, n)
		}
		out, err := snappy.DecodeStrict(dst, src)
		if err != nil {
			return fmt.Errorf("%w: snappy: %v", ErrCorrupt, err)
		}
		if len(out) != n || (n > 0 && &out[0] != &dst[0]) {
			return fmt.Errorf("%w: snappy stream gave %d bytes, want %d", ErrCorrupt, len(out), n)
		}
		return nil
	case Zlib:
		return s.zlibDecompress(dst, src)
	case Zstd:
		return s.zstdDecompress(dst, src)
	}
	return fmt.Errorf("%w: id %d", ErrUnsupported, id)
}

// ownInflate chooses internal/inflate over klauspost's zlib reader for
// zlib streams. internal/inflate accepts what C zlib's uncompress accepts
// and decodes into dst directly; docs/codecs.md ("zlib") gives its speed
// beside klauspost's and C zlib's.
var ownInflate = true

// SetOwnInflate chooses which decoder inflates zlib streams: internal/inflate
// (true, the default) or klauspost's zlib reader. For benchmarks that
// compare the two; not safe to call while a State decodes.
func SetOwnInflate(own bool) { ownInflate = own }

func (s *State) zlibDecompress(dst, src []byte) error {
	if ownInflate {
		if s.zlibDec == nil {
			s.zlibDec = new(inflate.Decoder)
		}
		if err := s.zlibDec.Decode(dst, src); err != nil {
			return fmt.Errorf("%w: zlib: %w", ErrCorrupt, err)
		}
		return nil
	}
	s.zlibIn.Reset(src)
	if s.zlibR == nil {
		r, err := zlib.NewReader(&s.zlibIn)
		if err != nil {
			return fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
		}
		s.zlibR = r
	} else if err := s.zlibR.(zlib.Resetter).Reset(&s.zlibIn, nil); err != nil {
		return fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	if _, err := io.ReadFull(s.zlibR, dst); err != nil {
		return fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	// The stream must end here, and its checksum is only checked at the
	// end: read once more and expect EOF.
	if k, err := s.zlibR.Read(s.one[:]); k != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			return fmt.Errorf("%w: zlib stream longer than %d bytes", ErrCorrupt, len(dst))
		}
		return fmt.Errorf("%w: zlib: %v", ErrCorrupt, err)
	}
	return nil
}

// zstdDecompress decodes with zstddec, which decodes every frame Blosc
// writes, and hands what it does not support (a dictionary ID, a
// checksum, several frames: nothing c-blosc2 writes, but valid zstd) to
// klauspost's decoder. Every frame Blosc writes goes to zstddec, even
// where klauspost's assembly would be faster: klauspost's decoders draw
// scratch from sync.Pools, which are per P, so a worker that had moved to
// another P allocated (as zstddec did while it used klauspost's huff0 for
// literals: TestBlosc2ZeroAlloc failed so under qemu-s390x, and zstddec
// now decodes its own Huffman streams). zstddec's portable loop decodes
// Blosc's frames at least as fast as klauspost's portable one (-tags
// purego,noasm, which is what arm64 and s390x run), as
//
//	go test -tags cblosc,purego,noasm -run '^$' -bench BloscStreams -benchtime 20x ./bench/crosscheck/zstddec/
//
// shows, so only amd64 without BMI2 gives up speed here (on text,
// f32_noise and linspace_f64 against klauspost's assembly, -tags
// cblosc,purego), for a decoder that never allocates.
func (s *State) zstdDecompress(dst, src []byte) error {
	n := len(dst)
	err := s.zfast.Decode(dst, src)
	if err == nil {
		return nil
	}
	if !errors.Is(err, zstddec.ErrUnsupported) {
		return fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
	}
	if s.zdec == nil {
		d, err := zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecodeAllCapLimit(true),
		)
		if err != nil {
			return err
		}
		s.zdec = d
	}
	// klauspost's sequence loop takes a slower bounds-exact path for a
	// block that ends less than 16 bytes before the output's capacity,
	// so decode into scratch with that much room (faster on text and
	// floats in the same BloscStreams benchmark) and copy.
	buf := s.scratchFor(n + zstdSlack)
	out, err := s.zdec.DecodeAll(src, buf[:0:n+zstdSlack])
	if err != nil {
		return fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
	}
	if len(out) != n || (n > 0 && &out[0] != &buf[0]) {
		return fmt.Errorf("%w: zstd stream gave %d bytes, want %d", ErrCorrupt, len(out), n)
	}
	copy(dst, out)
	return nil
}

const zstdSlack = 16

// DecompressDict is Decompress for streams compressed against a
// dictionary, as Blosc2 dictionary chunks store them (LZ4, LZ4HC and Zstd
// only). A zstd decoder is built for each new dictionary, so this path
// allocates when the dictionary changes.
func (s *State) DecompressDict(id ID, dst, src, dict []byte) error {
	n := len(dst)
	switch id {
	case LZ4, LZ4HC:
		got, err := lz4block.DecompressBlockDict(dst, src, dict)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if got != n {
			return fmt.Errorf("%w: lz4 stream gave %d bytes, want %d", ErrCorrupt, got, n)
		}
		return nil
	case Zstd:
		if s.zdictDec == nil || !bytes.Equal(s.zdict, dict) {
			if s.zdictDec != nil {
				s.zdictDec.Close()
				s.zdictDec = nil
			}
			opts := []zstd.DOption{
				zstd.WithDecoderConcurrency(1),
				zstd.WithDecodeAllCapLimit(true),
				zstd.WithDecoderLowmem(true),
			}
			if len(dict) >= 8 && binary.LittleEndian.Uint32(dict) == 0xEC30A437 {
				opts = append(opts, zstd.WithDecoderDicts(dict))
			} else {
				opts = append(opts, zstd.WithDecoderDictRaw(0, dict))
			}
			d, err := zstd.NewReader(nil, opts...)
			if err != nil {
				return fmt.Errorf("%w: zstd dictionary: %v", ErrCorrupt, err)
			}
			s.zdictDec = d
			s.zdict = append(s.zdict[:0], dict...)
		}
		// With slack past the output, as in zstdDecompress.
		buf := s.scratchFor(n + zstdSlack)
		out, err := s.zdictDec.DecodeAll(src, buf[:0:n+zstdSlack])
		if err != nil {
			return fmt.Errorf("%w: zstd: %v", ErrCorrupt, err)
		}
		if len(out) != n || (n > 0 && &out[0] != &buf[0]) {
			return fmt.Errorf("%w: zstd stream gave %d bytes, want %d", ErrCorrupt, len(out), n)
		}
		copy(dst, out)
		return nil
	}
	return fmt.Errorf("%w: dictionaries with codec %d", ErrUnsupported, id)
}

// Close releases the zstd encoders and decoder. The State stays usable.
func (s *State) Close() {
	for i, e := range s.zenc {
		if e != nil {
			e.Close()
			s.zenc[i] = nil
		}
	}
	if s.zdec != nil {
		s.zdec.Close()
		s.zdec = nil
	}
	if s.zdictDec != nil {
		s.zdictDec.Close()
		s.zdictDec = nil
	}
}
