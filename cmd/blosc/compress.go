package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/goblosc/blosc"
)

// formats Compress can write, by the -format name.
var formats = map[string]blosc.Format{
	"chunk1": blosc.FormatBlosc1,
}

const defaultFormat = "chunk1"

func runCompress(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("compress")
	codec := fs.String("codec", "blosclz", "codec: blosclz, lz4, lz4hc, snappy, zlib, zstd")
	level := fs.Int("level", 5, "compression level 0 (store) .. 9 (best)")
	typesize := fs.Int("typesize", 8, "element size in bytes, 1..255")
	shuffle := fs.String("shuffle", "byte", "shuffle filter: none, byte, bit")
	blocksize := fs.Int("blocksize", 0, "block size in bytes (0: automatic, as c-blosc chooses)")
	threads := fs.Int("threads", 0, "blocks compressed at once (0: all cores)")
	format := fs.String("format", defaultFormat, "output format: "+strings.Join(formatNames(), ", "))
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want IN OUT, got %d arguments", fs.NArg())
	}
	opts, err := buildOptions(*format, *codec, *level, *typesize, *shuffle, *blocksize, *threads)
	if err != nil {
		return err
	}
	src, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	out, err := blosc.Compress(nil, src, opts)
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

func buildOptions(format, codec string, level, typesize int, shuffle string, blocksize, threads int) (blosc.Options, error) {
	var o blosc.Options
	f, ok := formats[format]
	if !ok {
		return o, usagef("-format %q: want one of %s", format, strings.Join(formatNames(), ", "))
	}
	c, err := blosc.ParseCodec(codec)
	if err != nil {
		return o, usagef("-codec %q: want blosclz, lz4, lz4hc, snappy, zlib or zstd", codec)
	}
	if level < 0 || level > 9 {
		return o, usagef("-level %d: want 0..9", level)
	}
	if typesize < 1 || typesize > blosc.MaxTypesize {
		return o, usagef("-typesize %d: want 1..%d", typesize, blosc.MaxTypesize)
	}
	if blocksize < 0 {
		return o, usagef("-blocksize %d: want 0 (automatic) or a positive size", blocksize)
	}
	if threads < 0 {
		return o, usagef("-threads %d: want 0 (all cores) or more", threads)
	}
	sh, err := parseShuffle(shuffle)
	if err != nil {
		return o, err
	}
	o = blosc.Options{Format: f, Codec: c, Level: level, Typesize: typesize, Blocksize: blocksize, Threads: threads}
	o.Filters[blosc.MaxFilters-1] = sh
	return o, nil
}

func runDecompress(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("decompress")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want IN OUT, got %d arguments", fs.NArg())
	}
	src, err := readInput(fs.Arg(0), stdin)
	if err != nil {
		return err
	}
	out, err := decompressAny(src)
	if err != nil {
		return err
	}
	return writeOutput(fs.Arg(1), stdout, out)
}

// decompressAny detects the container from its first bytes.
func decompressAny(src []byte) ([]byte, error) {
	switch detect(src) {
	case kindBloscpack:
		return nil, fmt.Errorf("%w: Bloscpack files are not supported yet", blosc.ErrUnsupported)
	case kindFrame:
		return nil, fmt.Errorf("%w: Blosc2 frames are not supported yet", blosc.ErrUnsupported)
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
