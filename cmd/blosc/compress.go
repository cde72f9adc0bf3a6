package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bloscpack"
)

// formats Compress can write, by the -format name.
var formats = map[string]blosc.Format{
	"chunk1": blosc.FormatBlosc1,
	"chunk2": blosc.FormatBlosc2,
}

const defaultFormat = "chunk2"

// chunkOptions are the compression settings the compress and bench
// commands share, as given on the command line.
type chunkOptions struct {
	format, codec, shuffle, filters, split string
	level, typesize, blocksize, threads    int
	dict                                   bool
	container                              containerOptions
}

func (c *chunkOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&c.format, "format", defaultFormat, "output format: chunk2 (Blosc2), chunk1 (Blosc1, c-blosc 1.x), frame (Blosc2\n"+
		"contiguous frame, .b2frame), sframe (a sparse frame: OUT is a new directory), bloscpack (a .blp\n"+
		"file of Blosc1 chunks) or b2nd (an N-dimensional array, .b2nd: see -shape); without it the format\n"+
		"follows OUT's extension: .b2frame, .blp, .b2nd")
	fs.StringVar(&c.codec, "codec", "blosclz", "codec: blosclz, lz4, lz4hc, snappy, zlib, zstd")
	fs.IntVar(&c.level, "level", 5, "compression level 0 (store) .. 9 (best)")
	fs.IntVar(&c.typesize, "typesize", 8, "element size in bytes, 1..255")
	fs.StringVar(&c.shuffle, "shuffle", "byte", "shuffle filter in the last pipeline slot: none, byte, bit")
	fs.StringVar(&c.filters, "filters", "", "chunk2 pipeline, slot 0 first, overriding -shuffle: comma-separated\n"+
		"shuffle, bitshuffle, delta, trunc_prec, bytedelta, int_trunc, none, each optionally NAME:META\n"+
		"(e.g. delta,shuffle or trunc_prec:10,bitshuffle or shuffle,bytedelta:8)")
	fs.StringVar(&c.split, "split", "default", "split blocks into typesize streams: default, always, never, auto, forward_compat")
	fs.IntVar(&c.blocksize, "blocksize", 0, "block size in bytes (0: automatic, as c-blosc chooses)")
	fs.IntVar(&c.threads, "threads", 0, "blocks worked on at once (0: all cores)")
	fs.BoolVar(&c.dict, "dict", false, "chunk2 with zstd: store a dictionary built from the chunk")
	c.container.register(fs)
}

func runCompress(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("compress")
	var co chunkOptions
	co.register(fs)
	var bf b2ndFlags
	bf.register(fs)
	useMap := fs.Bool("mmap", true, "-format frame: read an IN that is a regular file (stdin too) through a memory map\n"+
		"(it must not shrink meanwhile: that faults)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want IN OUT, got %d arguments", fs.NArg())
	}
	formatSet := false
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	if !formatSet {
		if f, ok := formatFromOut(fs.Arg(1)); ok {
			co.format = f
		}
	}
	if co.format == "bloscpack" {
		return compressBloscpack(fs, &co, fs.Arg(0), fs.Arg(1), stdin, stdout)
	}
	if co.format == formatB2ND {
		co.format = "chunk2"
		opts, err := co.options()
		if err != nil {
			return err
		}
		return compressB2ND(fs, &bf, opts, fs.Arg(0), fs.Arg(1), stdin, stdout)
	}
	frame, sparse := co.format == formatFrame, co.format == formatSparse
	if frame || sparse {
		co.format = "chunk2"
	}
	chunksize := 0
	if co.container.chunksize != "" {
		n, err := parseByteSize(co.container.chunksize)
		if err != nil {
			return err
		}
		if n <= 0 || n > blosc.MaxBufferSize {
			return usagef("-chunksize %s: want 1 to %d bytes", co.container.chunksize, blosc.MaxBufferSize)
		}
		chunksize = int(n)
	}
	opts, err := co.options()
	if err != nil {
		return err
	}
	if frame {
		return streamFrame(fs.Arg(0), fs.Arg(1), stdin, stdout, opts, chunksize, *useMap)
	}
	if sparse {
		return streamSparse(fs.Arg(0), fs.Arg(1), stdin, opts, chunksize)
	}
	if err := checkChunkInput(fs.Arg(0)); err != nil {
		return err
	}
	src, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	var out []byte
	{
		if len(src) > blosc.MaxBufferSize {
			return fmt.Errorf("%w: %d bytes do not fit in one chunk (at most %d); -format frame stores any size", blosc.ErrTooLarge, len(src), blosc.MaxBufferSize)
		}
		out, err = blosc.Compress(nil, src, opts)
	}
	if err != nil {
		return err
	}
	return writeOutput(fs.Arg(1), stdout, out)
}

func formatNames() []string {
	names := make([]string, 0, len(formats))
	for n := range formats {
		names = append(names, n)
	}
	return names
}

func parseShuffle(s string) (blosc.Filter, error) {
	switch strings.ToLower(s) {
	case "none", "noshuffle":
		return blosc.NoFilter, nil
	case "byte", "shuffle":
		return blosc.ByteShuffle, nil
	case "bit", "bitshuffle":
		return blosc.BitShuffle, nil
	}
	return 0, usagef("-shuffle %q: want none, byte or bit", s)
}

var filterByName = map[string]blosc.Filter{
	"none": blosc.NoFilter, "shuffle": blosc.ByteShuffle, "byte": blosc.ByteShuffle,
	"bitshuffle": blosc.BitShuffle, "bit": blosc.BitShuffle, "delta": blosc.Delta,
	"trunc_prec": blosc.TruncPrec, "truncprec": blosc.TruncPrec,
}

var splitByName = map[string]blosc.SplitMode{
	"default": blosc.SplitDefault, "always": blosc.SplitAlways, "never": blosc.SplitNever,
	"auto": blosc.SplitAuto, "forward_compat": blosc.SplitForwardCompat,
}

// options checks the command-line settings and turns them into Options.
func (c *chunkOptions) options() (blosc.Options, error) {
	var o blosc.Options
	f, ok := formats[c.format]
	if !ok {
		return o, usagef("-format %q: want one of %s, %s, %s, %s, bloscpack", c.format, strings.Join(formatNames(), ", "), formatFrame, formatSparse, formatB2ND)
	}
	codec, err := blosc.ParseCodec(c.codec)
	if err != nil {
		return o, usagef("-codec %q: want blosclz, lz4, lz4hc, snappy, zlib or zstd", c.codec)
	}
	if c.level < 0 || c.level > 9 {
		return o, usagef("-level %d: want 0..9", c.level)
	}
	if c.typesize < 1 || c.typesize > blosc.MaxTypesize {
		return o, usagef("-typesize %d: want 1..%d", c.typesize, blosc.MaxTypesize)
	}
	if c.blocksize < 0 {
		return o, usagef("-blocksize %d: want 0 (automatic) or a positive size", c.blocksize)
	}
	if c.threads < 0 {
		return o, usagef("-threads %d: want 0 (all cores) or more", c.threads)
	}
	split, ok := splitByName[strings.ToLower(c.split)]
	if !ok {
		return o, usagef("-split %q: want default, always, never, auto or forward_compat", c.split)
	}
	o = blosc.Options{Format: f, Codec: codec, Level: c.level, Typesize: c.typesize,
		Blocksize: c.blocksize, Threads: c.threads, SplitMode: split, Dict: c.dict}
	if c.filters == "" {
		sh, err := parseShuffle(c.shuffle)
		if err != nil {
			return o, err
		}
		o.Filters[blosc.MaxFilters-1] = sh // where c-blosc puts its shuffle
		return o, nil
	}
	names := splitList(c.filters)
	if len(names) > blosc.MaxFilters {
		return o, usagef("-filters: %d filters, the pipeline has %d slots", len(names), blosc.MaxFilters)
	}
	for i, spec := range names {
		name, meta, hasMeta := strings.Cut(spec, ":")
		flt, ok := filterByName[strings.ToLower(name)]
		if !ok {
			// c-blosc2's plugin filters and any a program registered.
			if flt, err = blosc.ParseFilter(name); err != nil {
				return o, usagef("-filters: unknown filter %q", name)
			}
		}
		o.Filters[i] = flt
		if hasMeta {
			m, err := strconv.Atoi(meta)
			if err != nil || m < -128 || m > 255 {
				return o, usagef("-filters: meta %q of %s: want -128..255", meta, name)
			}
			o.FilterMeta[i] = uint8(m)
		}
	}
	return o, nil
}

// buildOptions is options() for callers that hold the settings as values.
func buildOptions(format, codec string, level, typesize int, shuffle string, blocksize, threads int) (blosc.Options, error) {
	c := chunkOptions{format: format, codec: codec, level: level, typesize: typesize, shuffle: shuffle,
		split: "default", blocksize: blocksize, threads: threads}
	return c.options()
}

func runDecompress(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("decompress")
	useMap := fs.Bool("mmap", true, "read a frame file through a memory map (it must not shrink meanwhile: that faults)")
	slice := fs.String("slice", "", "an N-dimensional array (.b2nd): write only START:STOP,START:STOP,... (one per\n"+
		"dimension from the first; an empty bound is the dimension's end, a lone I is I:I+1); arrays are\n"+
		"written in C order, as a NumPy file when OUT ends in .npy")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want IN OUT, got %d arguments", fs.NArg())
	}
	if isDir(fs.Arg(0)) {
		s, err := blosc.OpenSparseFrame(fs.Arg(0))
		if err != nil {
			return err
		}
		defer s.Close()
		// With BLOSC_LOCKING, the whole output is one state of the frame.
		if err := s.RLock(); err != nil {
			return err
		}
		defer s.RUnlock()
		if ok, err := decompressArray(s, *slice, fs.Arg(1), stdout); ok {
			return err
		}
		return writeSChunkData(s, fs.Arg(1), stdout, nil)
	}
	if s, f, ok, err := openFrameFileLazily(fs.Arg(0)); ok {
		if err != nil {
			return err
		}
		defer f.Close()
		defer s.Close()
		if err := s.RLock(); err != nil {
			return err
		}
		defer s.RUnlock()
		if ok, err := decompressArray(s, *slice, fs.Arg(1), stdout); ok {
			return err
		}
		// A mapping is read without the lock's reads: a locked frame is
		// read through its file.
		if *useMap && !s.Locking() {
			if ms, m, ok := mapFrame(f); ok {
				defer m.unmap()
				return writeSChunkData(ms, fs.Arg(1), stdout, func() { m.release(0, int64(len(m.b))) })
			}
		}
		return writeSChunkData(s, fs.Arg(1), stdout, nil)
	}
	head, in, closeIn, err := sniff(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	defer closeIn()
	if isBloscpack(head) {
		return unpackBloscpack(in, fs.Arg(1), stdout)
	}
	src, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	if detect(src) == kindFrame {
		// Streamed, as a frame file is: memory follows the frame's
		// bytes, not the data its chunks claim. An N-dimensional array
		// is written as its array (or the slice asked), in C order.
		s, err := blosc.ParseFrame(src)
		if err != nil {
			return err
		}
		if ok, err := decompressArray(s, *slice, fs.Arg(1), stdout); ok {
			return err
		}
		if *slice != "" {
			return usagef("-slice: the input is not an N-dimensional array (a frame with a b2nd metalayer)")
		}
		return writeSChunkData(s, fs.Arg(1), stdout, nil)
	}
	if *slice != "" {
		return usagef("-slice: the input is not an N-dimensional array (a frame with a b2nd metalayer)")
	}
	if h, err := blosc.ReadHeader(src); err == nil && detect(src) == kindChunk && h.Special != blosc.SpecialNone && h.Nbytes > specialPiece {
		return writeStream(fs.Arg(1), stdout, func(w io.Writer) error { return writeSpecialChunk(w, src, h) })
	}
	out, err := decompressAny(src)
	if err != nil {
		return err
	}
	return writeOutput(fs.Arg(1), stdout, out)
}

// specialPiece is how much of a special chunk (zeros, NaN, a repeated
// value: a header that claims up to 2 GiB of data) decompress makes at
// once: memory follows the chunk's few bytes, not what it claims.
const specialPiece = 1 << 20

// writeSpecialChunk writes a special chunk's data to w in pieces.
func writeSpecialChunk(w io.Writer, src []byte, h blosc.Header) error {
	ts := h.Typesize
	per := max(specialPiece/ts, 1)
	items := h.Nbytes / ts
	var buf []byte
	for start := 0; start < items; start += per {
		var err error
		if buf, err = blosc.GetItems(buf[:0], src, int64(start), int64(min(per, items-start))); err != nil {
			return err
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	if tail := h.Nbytes % ts; tail > 0 {
		// The bytes after the last whole item, which GetItem cannot
		// address: a special chunk this large is made of items, so the
		// whole chunk is decoded only for such an odd one.
		all, err := blosc.Decompress(nil, src)
		if err != nil {
			return err
		}
		_, err = w.Write(all[len(all)-tail:])
		return err
	}
	return nil
}

// decompressAny detects the container from its first bytes.
func decompressAny(src []byte) ([]byte, error) {
	switch detect(src) {
	case kindBloscpack:
		out, _, err := bloscpack.Unpack(src)
		return out, err
	case kindFrame:
		return decompressFrame(src)
	}
	return blosc.Decompress(nil, src)
}

type kind int

const (
	kindChunk kind = iota
	kindBloscpack
	kindFrame
)

func detect(src []byte) kind {
	switch {
	case len(src) >= 4 && string(src[:4]) == "blpk":
		return kindBloscpack
	case len(src) >= 11 && src[0] == 0x9e && src[1] == 0xa8 && string(src[2:9]) == "b2frame":
		return kindFrame
	}
	return kindChunk
}
