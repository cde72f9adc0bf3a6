package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/bloscpack"
	"github.com/goblosc/blosc/internal/fsys"
)

// containerOptions are the flags of the file formats (-format bloscpack).
type containerOptions struct {
	chunksize string
	checksum  string
	offsets   bool
	metadata  string
}

func (c *containerOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&c.chunksize, "chunksize", "", "file formats: bytes per chunk, optionally with a K/KiB, M/MiB or G/GiB suffix\n"+
		"(default: 1MiB for bloscpack)")
	fs.StringVar(&c.checksum, "checksum", "adler32", "bloscpack: checksum after each chunk: none, adler32, crc32, md5, sha1, sha224, sha256, sha384, sha512")
	fs.BoolVar(&c.offsets, "offsets", true, "bloscpack: write the offsets table (with ten times the chunk count free for append)")
	fs.StringVar(&c.metadata, "metadata", "", "bloscpack: a file of JSON to store as the metadata")
}

// parseByteSize reads a byte count with an optional K/KiB, M/MiB or G/GiB
// suffix (powers of two, as the reference's -z reads them).
func parseByteSize(s string) (int64, error) {
	num, mult := s, int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			num, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 1 || n > (1<<31-1)/mult {
		return 0, usagef("size %q: want a positive count of bytes (K, M, G or KiB, MiB, GiB suffixes) under 2 GiB", s)
	}
	return n * mult, nil
}

// bloscpackOptions turns the command line into bloscpack.Options; fs says
// which flags were given, so the reference's defaults fill the others.
func bloscpackOptions(fs *flag.FlagSet, co *chunkOptions) (bloscpack.Options, error) {
	o := bloscpack.DefaultOptions()
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	c := *co
	c.format = "chunk1"
	if !set["level"] {
		c.level = 7 // blpk compress's default
	}
	for _, name := range []string{"filters", "split", "dict"} {
		if set[name] {
			return o, usagef("-%s does not apply to -format bloscpack (its chunks are Blosc1 chunks)", name)
		}
	}
	bo, err := c.options()
	if err != nil {
		return o, err
	}
	o.Blosc = bo
	// Chunks go to the threads whole; each is compressed on one.
	o.Threads, o.Blosc.Threads = co.threads, 1
	if co.container.chunksize != "" {
		n, err := parseByteSize(co.container.chunksize)
		if err != nil {
			return o, err
		}
		o.ChunkSize = int(n)
	}
	o.Checksum, err = bloscpack.ParseChecksum(co.container.checksum)
	if err != nil {
		return o, usagef("-checksum %q: want none, adler32, crc32, md5, sha1, sha224, sha256, sha384 or sha512", co.container.checksum)
	}
	o.Offsets = co.container.offsets
	if co.container.metadata != "" {
		b, err := os.ReadFile(co.container.metadata)
		if err != nil {
			return o, err
		}
		if !json.Valid(b) {
			return o, usagef("-metadata %s: not valid JSON", co.container.metadata)
		}
		o.Metadata = &bloscpack.Metadata{JSON: b}
	}
	return o, nil
}

// compressBloscpack packs IN into a Bloscpack file, streaming: the input
// is read a chunk at a time and the output written as chunks complete.
func compressBloscpack(fs *flag.FlagSet, co *chunkOptions, in, out string, stdin io.Reader, stdout io.Writer) error {
	o, err := bloscpackOptions(fs, co)
	if err != nil {
		return err
	}
	// The size goes in the header (a stream of unknown size would get
	// nchunks -1, which the reference's reader reads as empty).
	src, size, cleanup, err := openSized(in, stdin, true)
	if err != nil {
		return err
	}
	defer cleanup()
	return writeAtomically(out, stdout, o.Offsets, func(w io.Writer) error {
		bw, err := bloscpack.NewWriter(w, size, o)
		if err != nil {
			return err
		}
		if _, err := io.Copy(bw, src); err != nil {
			bw.Close()
			return err
		}
		return bw.Close()
	})
}

// openSized opens IN and returns its size. Standard input's size is not
// known in advance: when it is needed it is spooled to a temporary file.
func openSized(path string, stdin io.Reader, needSize bool) (io.Reader, int64, func(), error) {
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, nil, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		return bufio.NewReaderSize(f, 1<<20), st.Size(), func() { f.Close() }, nil
	}
	if !needSize {
		return stdin, -1, func() {}, nil
	}
	tmp, err := os.CreateTemp("", "blosc-stdin-*")
	if err != nil {
		return nil, 0, nil, err
	}
	cleanup := func() { tmp.Close(); os.Remove(tmp.Name()) }
	n, err := io.Copy(tmp, stdin)
	if err == nil {
		_, err = tmp.Seek(0, io.SeekStart)
	}
	if err != nil {
		cleanup()
		return nil, 0, nil, err
	}
	return bufio.NewReaderSize(tmp, 1<<20), n, cleanup, nil
}

// writeAtomically runs write on a temporary file beside OUT and renames it
// into place, so a failure leaves no partial OUT. For "-" it writes to
// standard output, through a temporary file when write must seek.
func writeAtomically(out string, stdout io.Writer, seek bool, write func(io.Writer) error) error {
	if dev, ok, err := openDeviceOut(out); ok {
		if err != nil {
			return err
		}
		defer dev.Close()
		return writeAtomically("-", dev, seek, write)
	}
	if out == "-" && !seek {
		bw := bufio.NewWriterSize(stdout, 1<<20)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	dir := os.TempDir()
	if out != "-" {
		dir = filepath.Dir(out)
	}
	fsy := fsys.Default
	tmp, err := fsy.CreateTemp(dir, ".blosc-*.tmp")
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		if !keep {
			tmp.Close()
			fsy.Remove(tmp.Name())
		}
	}()
	if err := write(newOutFile(tmp, out != "-")); err != nil {
		return err
	}
	if out == "-" {
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(stdout, tmp)
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := fsy.Rename(tmp.Name(), out); err != nil {
		return err
	}
	keep = true
	return nil
}

// sniff returns the first bytes of IN and a reader that still yields them.
func sniff(path string, stdin io.Reader) ([]byte, io.Reader, func(), error) {
	r, closer := stdin, func() {}
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, nil, err
		}
		r, closer = f, func() { f.Close() }
	}
	br := bufio.NewReaderSize(r, 1<<20)
	head, err := br.Peek(len(bloscpack.Magic))
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		closer()
		return nil, nil, nil, err
	}
	return head, br, closer, nil
}

func isBloscpack(head []byte) bool { return string(head) == bloscpack.Magic }

// unpackBloscpack streams a Bloscpack file's decompressed bytes to OUT.
func unpackBloscpack(in io.Reader, out string, stdout io.Writer) error {
	r, err := bloscpack.NewReader(in)
	if err != nil {
		return err
	}
	return writeAtomically(out, stdout, false, func(w io.Writer) error {
		_, err := r.WriteTo(w)
		return err
	})
}

// bloscpackInfo is what info -json prints for a Bloscpack file.
type bloscpackInfo struct {
	File       string                `json:"file"`
	Size       int64                 `json:"size"`
	Format     string                `json:"format"`
	Header     bloscpack.Header      `json:"header"`
	MetaHeader *bloscpack.MetaHeader `json:"metadata_header,omitempty"`
	Metadata   json.RawMessage       `json:"metadata,omitempty"`
	Chunks     []bloscpack.ChunkInfo `json:"chunks"`
	Kernel     string                `json:"kernel"`
}

// infoBloscpack prints the header, metadata and every chunk's place and
// sizes, reading only those parts of the file.
func infoBloscpack(path string, in io.Reader, stdout io.Writer, asJSON bool) error {
	var ra io.ReaderAt
	var size int64
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		ra, size = f, st.Size()
	} else {
		b, err := io.ReadAll(in)
		if err != nil {
			return err
		}
		ra, size = strings.NewReader(string(b)), int64(len(b))
	}
	bf, err := bloscpack.Open(ra, size)
	if err != nil {
		return err
	}
	chunks, err := bf.Chunks()
	if err != nil {
		return err
	}
	info := bloscpackInfo{File: path, Size: size, Format: "bloscpack", Header: bf.Header(),
		MetaHeader: bf.MetaHeader(), Chunks: chunks, Kernel: blosc.Kernel()}
	if m := bf.Metadata(); m != nil {
		info.Metadata = m.JSON
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(info)
	}
	fmt.Fprintf(stdout, "%-14s %s\n", "file", path)
	fmt.Fprintf(stdout, "%-14s %d\n", "size", size)
	fmt.Fprintf(stdout, "%-14s %s\n", "format", "bloscpack")
	printFields(stdout, reflect.ValueOf(info.Header))
	if info.MetaHeader != nil {
		printFields(stdout, reflect.ValueOf(*info.MetaHeader))
		fmt.Fprintf(stdout, "%-14s %s\n", "metadata", info.Metadata)
	}
	fmt.Fprintf(stdout, "%-14s %s\n", "kernel", info.Kernel)
	fmt.Fprintf(stdout, "%6s %12s %10s %10s  %s\n", "chunk", "offset", "cbytes", "nbytes", "digest")
	for _, c := range chunks {
		fmt.Fprintf(stdout, "%6d %12d %10d %10d  %s\n", c.Index, c.Offset, c.Cbytes, c.Nbytes, c.Digest)
	}
	return nil
}

// runAppend adds IN to FILE in place; the target's format decides how: a
// Blosc2 frame or sparse frame takes IN with its own settings (the flags
// are for Bloscpack files), crash-safe.
func runAppend(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := newFlagSet("append")
	codec := fs.String("codec", "blosclz", "codec of the new chunks: blosclz, lz4, lz4hc, snappy, zlib, zstd")
	level := fs.Int("level", 7, "compression level of the new chunks, 0..9 (7: the reference's append)")
	shuffle := fs.String("shuffle", "byte", "shuffle of the new chunks: none, byte, bit")
	typesize := fs.Int("typesize", 0, "element size of the new chunks (0: the file's)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 2 {
		return usagef("want FILE IN, got %d arguments", fs.NArg())
	}
	target := fs.Arg(0)
	if target == "-" {
		return usagef("FILE must be a file: append changes it in place")
	}
	if isDir(target) {
		return appendSparse(target, fs.Arg(1), stdin)
	}
	f, err := fsys.Default.OpenFile(target, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	switch detect(head[:n]) {
	case kindFrame:
		f.Close()
		return appendFrame(target, fs.Arg(1), stdin)
	case kindBloscpack:
	default:
		return fmt.Errorf("%w: %s is neither a Blosc2 frame nor a Bloscpack file", blosc.ErrUnsupported, target)
	}
	var opts *blosc.Options
	if *typesize < 0 || *typesize > blosc.MaxTypesize {
		return usagef("-typesize %d: want 0 (the file's) or 1..%d", *typesize, blosc.MaxTypesize)
	}
	ts := *typesize
	if ts == 0 {
		ts = 1 // replaced by the file's below
	}
	o, err := buildOptions("chunk1", *codec, *level, ts, *shuffle, 0, 0)
	if err != nil {
		return err
	}
	if *typesize == 0 {
		o.Typesize = 0
	}
	opts = &o
	src, size, cleanup, err := openSized(fs.Arg(1), stdin, true)
	if err != nil {
		return err
	}
	defer cleanup()
	// Append syncs what it changed: closing the file (deferred) has
	// nothing left to report.
	_, err = bloscpack.Append(f, src, size, opts)
	return err
}
