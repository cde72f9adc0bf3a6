package blosc

import (
	"fmt"
	"strings"
)

// Codec selects the compressor applied to every block. The values are
// c-blosc's compressor codes (BLOSC_BLOSCLZ ...).
type Codec uint8

const (
	BloscLZ Codec = 0
	LZ4     Codec = 1
	LZ4HC   Codec = 2
	Snappy  Codec = 3
	Zlib    Codec = 4
	Zstd    Codec = 5
)

var codecNames = [...]string{"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"}

// String returns c-blosc's name of the codec, a registered codec's name,
// or codec(N).
func (c Codec) String() string {
	if int(c) < len(codecNames) {
		return codecNames[c]
	}
	if name := pluginCodecName(c); name != "" {
		return name
	}
	return fmt.Sprintf("codec(%d)", uint8(c))
}

// ParseCodec maps a name (as c-blosc spells it, or as a codec was
// registered) to a Codec.
func ParseCodec(s string) (Codec, error) {
	for i, n := range codecNames {
		if strings.EqualFold(s, n) {
			return Codec(i), nil
		}
	}
	if c, ok := pluginCodecByName(s); ok {
		return c, nil
	}
	return 0, fmt.Errorf("%w: unknown codec %q", ErrInvalidOptions, s)
}

// Filter is one stage of the filter pipeline. The values are c-blosc2's
// filter codes (BLOSC_NOFILTER, BLOSC_SHUFFLE, ...).
type Filter uint8

const (
	NoFilter    Filter = 0
	ByteShuffle Filter = 1
	BitShuffle  Filter = 2
	Delta       Filter = 3
	TruncPrec   Filter = 4

	// ByteDeltaLegacy is the first bytedelta (BLOSC_FILTER_BYTEDELTA_BUGGY),
	// kept for the chunks written with it: each channel's delta restarts
	// at its last whole 16 bytes, as c-blosc2's SIMD loop left it.
	ByteDeltaLegacy Filter = 34
	// ByteDelta is c-blosc2's bytedelta plugin filter: within each of
	// FilterMeta (0: the typesize) equal byte channels, each byte minus
	// the one before it. It follows a ByteShuffle, which makes the
	// channels; python-blosc2 recommends the pair for floats.
	ByteDelta Filter = 35
	// IntTrunc is c-blosc2's int_trunc plugin filter: it zeroes low bits
	// of integers of typesize 1, 2, 4 or 8. FilterMeta, a signed byte, is
	// the number of bits kept (positive) or zeroed (negative). It is lossy
	// and decoding leaves it as it is.
	IntTrunc Filter = 36
)

var filterNames = [...]string{"none", "shuffle", "bitshuffle", "delta", "trunc_prec"}

// String returns c-blosc2's name of the filter, a registered filter's
// name, or filter(N).
func (f Filter) String() string {
	if int(f) < len(filterNames) {
		return filterNames[f]
	}
	if name := pluginFilterName(f); name != "" {
		return name
	}
	return fmt.Sprintf("filter(%d)", uint8(f))
}

// ParseFilter maps a name (as c-blosc2 spells it, or as a filter was
// registered) to a Filter.
func ParseFilter(s string) (Filter, error) {
	for i, n := range filterNames {
		if strings.EqualFold(s, n) {
			return Filter(i), nil
		}
	}
	for _, f := range []Filter{ByteDeltaLegacy, ByteDelta, IntTrunc} {
		if strings.EqualFold(s, f.String()) {
			return f, nil
		}
	}
	if f, ok := pluginFilterByName(s); ok {
		return f, nil
	}
	return 0, fmt.Errorf("%w: unknown filter %q", ErrInvalidOptions, s)
}

// MaxFilters is the number of slots in the Blosc2 filter pipeline.
const MaxFilters = 6

// Format selects the chunk format Compress writes.
type Format uint8

const (
	// FormatBlosc1 is the c-blosc 1.x chunk (16-byte header), read by every
	// Blosc library, zarr/numcodecs and the HDF5 filter. It is the zero value.
	FormatBlosc1 Format = 0
	// FormatBlosc2 is the c-blosc2 chunk (32-byte extended header).
	FormatBlosc2 Format = 1
)

// SplitMode says when a block is stored as typesize separate streams
// (c-blosc2's BLOSC_*_SPLIT values, shifted so the zero value is the
// library default).
type SplitMode uint8

const (
	// SplitDefault: c-blosc 1.x's rule for Blosc1 chunks, c-blosc2's
	// forward-compatible rule for Blosc2 chunks.
	SplitDefault SplitMode = iota
	SplitAlways
	SplitNever
	SplitAuto
	SplitForwardCompat
)

// MaxTypesize is the largest element size a chunk header can record.
const MaxTypesize = 255

// MaxBufferSize is the largest input a single chunk can hold (c-blosc's
// BLOSC_MAX_BUFFERSIZE).
const MaxBufferSize = 1<<31 - 1 - MaxOverhead

// MaxOverhead is the largest number of bytes a chunk adds to its input
// (the Blosc2 header; a Blosc1 chunk adds at most 16).
const MaxOverhead = 32

// Options configure compression. The zero value is valid but stores data
// uncompressed (Level 0); DefaultOptions gives c-blosc's defaults.
type Options struct {
	Format Format
	Codec  Codec
	// Level is the compression level, 0 (store) to 9 (best), mapped to each
	// codec as c-blosc does.
	Level int
	// Typesize is the element size in bytes, 1..255; 0 means 1.
	Typesize int
	// Filters is the pipeline applied slot 0 to 5 before the codec. A
	// Blosc1 chunk accepts at most one ByteShuffle or BitShuffle and no
	// other filter.
	Filters [MaxFilters]Filter
	// FilterMeta holds each slot's parameter (Blosc2 only).
	FilterMeta [MaxFilters]uint8
	// CodecMeta is the codec's parameter byte (Blosc2 only), recorded in
	// every chunk header as c-blosc2's compcode_meta: a registered codec
	// (RegisterCodec) receives it; the built-in codecs ignore it.
	CodecMeta uint8
	// Blocksize forces the block size in bytes; 0 chooses it as c-blosc
	// does for the codec and level.
	Blocksize int
	SplitMode SplitMode
	// Threads is the number of blocks worked on at once; 0 means
	// runtime.GOMAXPROCS(0), 1 works on the caller's goroutine only.
	Threads int
	// Dict (Blosc2, Zstd only) trains a dictionary on the chunk's first
	// filtered bytes, as c-blosc2's use_dict does, and stores it in the
	// chunk.
	Dict bool
}

// DefaultOptions returns c-blosc's defaults: BloscLZ at level 5, typesize 8,
// byte shuffle in the last pipeline slot, automatic block size.
func DefaultOptions() Options {
	o := Options{Codec: BloscLZ, Level: 5, Typesize: 8}
	o.Filters[MaxFilters-1] = ByteShuffle
	return o
}

// MarshalText writes the codec's name, so headers encode readably as JSON.
func (c Codec) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// MarshalText writes the filter's name.
func (f Filter) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

func (f Format) String() string {
	switch f {
	case FormatBlosc1:
		return "blosc1"
	case FormatBlosc2:
		return "blosc2"
	}
	return fmt.Sprintf("format(%d)", uint8(f))
}

// MarshalText writes the format's name.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

var splitModeNames = [...]string{"default", "always", "never", "auto", "forward_compat"}

func (m SplitMode) String() string {
	if int(m) < len(splitModeNames) {
		return splitModeNames[m]
	}
	return fmt.Sprintf("splitmode(%d)", uint8(m))
}
