package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/fsys"
)

// formatFrame and formatSparse are the -format names of Blosc2 contiguous
// and sparse frames.
const (
	formatFrame  = "frame"
	formatSparse = "sframe"
)

// formatFromOut picks the format from OUT's extension when -format was
// not given.
func formatFromOut(out string) (string, bool) {
	switch strings.ToLower(filepath.Ext(out)) {
	case ".b2frame":
		return formatFrame, true
	case ".blp":
		return "bloscpack", true
	case ".b2nd":
		return formatB2ND, true
	}
	return "", false
}

// frameChunkSize checks -chunksize (0: the library's default, rounded to
// whole elements).
func frameChunkSize(chunksize, typesize int) (int, error) {
	if chunksize == 0 {
		chunksize = max(blosc.DefaultChunkSize/typesize*typesize, typesize)
	}
	if chunksize < 0 || chunksize%typesize != 0 || chunksize > blosc.MaxBufferSize {
		return 0, usagef("-chunksize %d: want a positive multiple of -typesize %d up to %d", chunksize, typesize, blosc.MaxBufferSize)
	}
	return chunksize, nil
}

// streamFrame compresses IN (a file or - for stdin, of any size) into a
// frame at OUT, through a temporary file beside it (or in the temporary
// directory for - ), with memory bounded by a few chunks.
// With useMap, an IN that is a regular file (stdin included) is mapped and
// compressed where the page cache holds it, not read into buffers first.
func streamFrame(in, out string, stdin io.Reader, stdout io.Writer, opts blosc.Options, chunksize int, useMap bool) error {
	so, r, done, err := frameInput(in, stdin, opts, chunksize)
	if err != nil {
		return err
	}
	defer done()
	return writeAtomic(out, stdout, func(f *outFile) error {
		w, err := blosc.NewFrameWriter(f, so)
		if err != nil {
			return err
		}
		copied := false
		if useMap {
			copied, err = writeMapped(w, r)
		}
		if !copied && err == nil {
			_, err = io.Copy(w, r)
		}
		if err != nil {
			w.Close()
			return err
		}
		return w.Close()
	})
}

// mapPiece is how much of a mapped input one Write takes; its pages are
// released after it, which bounds how much of the input is resident.
var mapPiece int64 = 32 << 20

// writeMapped writes the rest of r's file to w through a memory map when
// it is a regular file (leaving the file's offset at its end, as reading
// would); copied is false when it is not, with nothing written.
func writeMapped(w io.Writer, r io.Reader) (copied bool, err error) {
	pr, ok := r.(progressReader)
	if !ok {
		return false, nil
	}
	f, ok := pr.r.(*os.File)
	if !ok {
		return false, nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false, nil
	}
	pos, err := f.Seek(0, io.SeekCurrent)
	if err != nil || pos >= st.Size() {
		return false, nil
	}
	m, ok := mapFile(f, st.Size())
	if !ok {
		return false, nil
	}
	defer m.unmap()
	for off := pos; off < int64(len(m.b)); {
		end := min(off+mapPiece, int64(len(m.b)))
		if _, err := w.Write(m.b[off:end]); err != nil {
			return true, err
		}
		m.release(off, end)
		pr.p.add(int(end - off))
		off = end
	}
	_, err = f.Seek(int64(len(m.b)), io.SeekStart)
	return true, err
}

// frameInput checks a frame's options and opens IN for streaming, with a
// progress line; done closes IN and clears the line.
func frameInput(in string, stdin io.Reader, opts blosc.Options, chunksize int) (blosc.SChunkOptions, io.Reader, func(), error) {
	opts.Format = blosc.FormatBlosc2
	cs, err := frameChunkSize(chunksize, opts.Typesize)
	if err != nil {
		return blosc.SChunkOptions{}, nil, nil, err
	}
	r, closeIn, err := openInput(in, stdin)
	if err != nil {
		return blosc.SChunkOptions{}, nil, nil, err
	}
	prog := newProgress(inputSize(in))
	return blosc.SChunkOptions{Options: opts, ChunkSize: cs}, progressReader{r, prog}, func() {
		prog.finish()
		closeIn()
	}, nil
}

// openInput opens IN for streaming.
func openInput(path string, stdin io.Reader) (io.Reader, func(), error) {
	if path == "-" {
		if f, ok := stdin.(*os.File); ok {
			growPipe(f)
		}
		return stdin, func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, func() { f.Close() }, nil
}

// checkChunkInput refuses, before reading it, an input file too large for
// one chunk.
func checkChunkInput(path string) error {
	if path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	if err == nil && st.Size() > blosc.MaxBufferSize {
		return fmt.Errorf("%w: %s holds %d bytes, more than one chunk holds (%d); -format frame stores any size", blosc.ErrTooLarge, path, st.Size(), blosc.MaxBufferSize)
	}
	return nil
}

// writeBehind is how many bytes an outFile takes between starts of the
// kernel's write-out.
const writeBehind = 8 << 20

// outFile is the temporary file writeAtomic fills. Every writeBehind bytes
// it starts the write-out of what is written so far, so that the disk
// writes while the command still compresses and the fsync that makes the
// finished file durable waits only for the last few megabytes instead of
// the whole file, while one core idles (strace -f -T -e trace=fsync on
// BenchmarkStreamCLI's command, whose files are on disk by default, shows
// the wait).
// A temporary file that only carries the output to stdout is never
// synced, and is not written out early either: its writeout is nil.
type outFile struct {
	f        fsys.File
	writeout func(fsys.File) // startWriteout, or nil
	mu       sync.Mutex      // WriteAt comes from FrameWriter's writer goroutine and from Close
	pending  int64           // bytes written since write-out was last started
}

// newOutFile returns f as an outFile, written out early when durable.
func newOutFile(f fsys.File, durable bool) *outFile {
	o := &outFile{f: f}
	if durable {
		o.writeout = startWriteout
	}
	return o
}

func (o *outFile) Write(p []byte) (int, error) {
	n, err := o.f.Write(p)
	o.wrote(n)
	return n, err
}

func (o *outFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := o.f.WriteAt(p, off)
	o.wrote(n)
	return n, err
}

func (o *outFile) wrote(n int) {
	if o.writeout == nil {
		return
	}
	o.mu.Lock()
	o.pending += int64(n)
	start := o.pending >= writeBehind
	if start {
		o.pending = 0
	}
	o.mu.Unlock()
	if start {
		o.writeout(o.f)
	}
}

// writeAtomic has fill write a temporary file, then renames it to path
// (or copies it to stdout for -); on failure the temporary file goes and
// an existing path stays as it was.
func writeAtomic(path string, stdout io.Writer, fill func(*outFile) error) error {
	if dev, ok, err := openDeviceOut(path); ok {
		if err != nil {
			return err
		}
		defer dev.Close()
		return writeAtomic("-", dev, fill)
	}
	dir, base := filepath.Split(path)
	if path == "-" {
		dir, base = "", "blosc-stdout"
	} else if dir == "" {
		dir = "."
	}
	fsy := fsys.Default
	f, err := fsy.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			fsy.Remove(tmp)
		}
	}()
	if err := fill(newOutFile(f, path != "-")); err != nil {
		return err
	}
	if path == "-" {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		_, err := io.Copy(stdout, f)
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := fsy.Rename(tmp, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// writeStream has fill write OUT: standard output directly for -,
// otherwise a temporary file renamed over OUT when fill succeeds. fill
// writes in pieces of a chunk or more (a FrameReader's), so no buffer
// sits between: one would copy every byte once more.
func writeStream(path string, stdout io.Writer, fill func(io.Writer) error) error {
	if dev, ok, err := openDeviceOut(path); ok {
		if err != nil {
			return err
		}
		defer dev.Close()
		return fill(dev)
	}
	if path == "-" {
		if f, ok := stdout.(*os.File); ok {
			growPipe(f)
		}
		return fill(stdout)
	}
	return writeAtomic(path, stdout, func(f *outFile) error { return fill(f) })
}

// openDeviceOut opens OUT for writing in place when it exists and is not
// a regular file: a device such as /dev/null, or a named pipe. Such an
// OUT is written as standard output is, never replaced by a temporary
// file renamed over it (which would put a regular file in its place, and
// fill the device's file system with the data first). ok is false for
// any other OUT.
func openDeviceOut(path string) (f *os.File, ok bool, err error) {
	if path == "-" {
		return nil, false, nil
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().IsRegular() || st.IsDir() {
		return nil, false, nil
	}
	f, err = os.OpenFile(path, os.O_WRONLY, 0)
	return f, true, err
}

// appendFrame appends IN's bytes to the frame file at path in place, as
// one crash-safe change (refilling a short last chunk first).
func appendFrame(path, in string, stdin io.Reader) error {
	f, err := fsys.Default.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := blosc.OpenFrameFile(f)
	if err != nil {
		return err
	}
	// The change is synced when appendInput returns: closing the file
	// (deferred) has nothing left to report.
	return appendInput(s, in, stdin)
}

// frameInfo is what info -json prints for a frame, with the key names of
// the golden vectors' sidecars.
type frameInfo struct {
	File         string            `json:"file"`
	Size         int               `json:"size"`
	Format       string            `json:"format"`
	NChunks      int               `json:"nchunks"`
	Nbytes       int64             `json:"nbytes"`
	Cbytes       int64             `json:"cbytes"`
	Typesize     int               `json:"typesize"`
	ChunkSize    int               `json:"chunksize"`
	Blocksize    int               `json:"blocksize"`
	Codec        string            `json:"codec"`
	Clevel       int               `json:"clevel"`
	Splitmode    int               `json:"splitmode"`
	UseDict      int               `json:"use_dict"`
	Filters      [6]uint8          `json:"filters"`
	FiltersMeta  [6]uint8          `json:"filters_meta"`
	Metalayers   []metaInfo        `json:"metalayers"`
	VLMetalayers []metaInfo        `json:"vlmetalayers"`
	Chunks       []blosc.ChunkInfo `json:"chunks"`
	Kernel       string            `json:"kernel"`
	// The shapes and dtype of the N-dimensional array the frame holds,
	// if it does.
	*ArrayInfo
}

type metaInfo struct {
	Name       string `json:"name"`
	ContentHex string `json:"content_hex"`
}

func describeFrame(name string, src []byte) (frameInfo, error) {
	s, err := blosc.ParseFrame(src)
	if err != nil {
		return frameInfo{}, err
	}
	return describeSChunk(name, len(src), formatFrame, s)
}

func describeSChunk(name string, size int, format string, s *blosc.SChunk) (frameInfo, error) {
	o := s.Options()
	fi := frameInfo{File: name, Size: size, Format: format, NChunks: s.Nchunks(), Nbytes: s.Nbytes(),
		Cbytes: s.Cbytes(), Typesize: s.Typesize(), ChunkSize: s.ChunkSize(), Blocksize: o.Blocksize,
		Codec: o.Codec.String(), Clevel: o.Level, Splitmode: int(o.SplitMode), Kernel: blosc.Kernel(),
		Metalayers: []metaInfo{}, VLMetalayers: []metaInfo{}, Chunks: []blosc.ChunkInfo{}}
	if o.Dict {
		fi.UseDict = 1
	}
	for i := range o.Filters {
		fi.Filters[i], fi.FiltersMeta[i] = uint8(o.Filters[i]), o.FilterMeta[i]
	}
	ai, err := describeArray(s)
	if err != nil {
		return fi, err
	}
	fi.ArrayInfo = ai
	for _, m := range s.MetalayerNames() {
		c, err := s.Metalayer(m)
		if err != nil {
			return fi, err
		}
		fi.Metalayers = append(fi.Metalayers, metaInfo{m, hex.EncodeToString(c)})
	}
	for _, m := range s.VLMetalayerNames() {
		c, err := s.VLMetalayer(m)
		if err != nil {
			return fi, err
		}
		fi.VLMetalayers = append(fi.VLMetalayers, metaInfo{m, hex.EncodeToString(c)})
	}
	for i := 0; i < s.Nchunks(); i++ {
		ci, err := s.ChunkInfo(i)
		if err != nil {
			return fi, err
		}
		fi.Chunks = append(fi.Chunks, ci)
	}
	return fi, nil
}

func printFrameInfo(w io.Writer, name string, src []byte, asJSON bool) error {
	fi, err := describeFrame(name, src)
	if err != nil {
		return err
	}
	return printInfo(w, fi, asJSON)
}

func printSChunkInfo(w io.Writer, name string, size int, format string, s *blosc.SChunk, asJSON bool) error {
	fi, err := describeSChunk(name, size, format, s)
	if err != nil {
		return err
	}
	return printInfo(w, fi, asJSON)
}

func printInfo(w io.Writer, fi frameInfo, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false) // dtypes such as "<f8" as written
		return enc.Encode(fi)
	}
	p := func(k string, v any) { fmt.Fprintf(w, "%-14s %v\n", k, v) }
	p("file", fi.File)
	p("size", fi.Size)
	p("format", map[string]string{formatFrame: "Blosc2 contiguous frame", formatSparse: "Blosc2 sparse frame"}[fi.Format])
	p("nchunks", fi.NChunks)
	p("nbytes", fi.Nbytes)
	p("cbytes", fi.Cbytes)
	p("typesize", fi.Typesize)
	p("chunksize", fi.ChunkSize)
	p("blocksize", fi.Blocksize)
	p("codec", fi.Codec)
	p("clevel", fi.Clevel)
	p("splitmode", fi.Splitmode)
	p("use_dict", fi.UseDict)
	p("filters", fi.Filters)
	p("filters_meta", fi.FiltersMeta)
	if a := fi.ArrayInfo; a != nil {
		p("shape", a.Shape)
		p("chunkshape", a.ChunkShape)
		p("blockshape", a.BlockShape)
		p("dtype", a.DType)
	}
	for _, m := range fi.Metalayers {
		p("metalayer", m.Name+" "+m.ContentHex)
	}
	for _, m := range fi.VLMetalayers {
		p("vlmetalayer", m.Name+" "+m.ContentHex)
	}
	fmt.Fprintf(w, "%-14s %8s %12s %12s %s\n", "chunks", "index", "nbytes", "cbytes", "special")
	for _, c := range fi.Chunks {
		fmt.Fprintf(w, "%-14s %8d %12d %12d %v\n", "", c.Index, c.Nbytes, c.Cbytes, c.Special)
	}
	p("kernel", fi.Kernel)
	return nil
}

// decompressFrame returns a frame's data.
func decompressFrame(src []byte) ([]byte, error) {
	s, err := blosc.ParseFrame(src)
	if err != nil {
		return nil, err
	}
	return s.Decompress(nil)
}

// writeFileAtomic writes data to path through a temporary file beside it,
// renamed over path once complete, so that a failure leaves any existing
// file as it was and no partial file behind.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, nil, func(f *outFile) error {
		_, err := f.Write(data)
		return err
	})
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// streamSparse compresses IN into a new sparse frame directory DIR. On
// failure the directory is removed.
func streamSparse(in, dir string, stdin io.Reader, opts blosc.Options, chunksize int) error {
	so, r, done, err := frameInput(in, stdin, opts, chunksize)
	if err != nil {
		return err
	}
	defer done()
	s, err := blosc.CreateSparseFrame(dir, so)
	if err != nil {
		return err
	}
	if _, err := s.AppendFrom(r); err != nil {
		os.RemoveAll(dir)
		return err
	}
	return nil
}

// openFrameFileLazily opens path as a frame file read lazily, when it is
// a file (not -) starting with the frame magic; ok says whether it was.
func openFrameFileLazily(path string) (s *blosc.SChunk, f *os.File, ok bool, err error) {
	if path == "-" {
		return nil, nil, false, nil
	}
	f, err = os.Open(path)
	if err != nil {
		return nil, nil, false, nil // reported by the ordinary path
	}
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	st, serr := f.Stat()
	if detect(head[:n]) != kindFrame || serr != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, false, nil
	}
	s, err = blosc.OpenFrame(f, st.Size())
	if err != nil {
		f.Close()
		return nil, nil, true, err
	}
	return s, f, true, nil
}

// writeSChunkData writes a super-chunk's data to OUT through a
// FrameReader: a few chunks decoded at once, so memory stays at a few
// chunks whatever its size. release, when not nil, is called after every
// releaseEvery bytes written (to unmap a mapped frame's pages).
func writeSChunkData(s *blosc.SChunk, out string, stdout io.Writer, release func()) error {
	prog := newProgress(s.Nbytes())
	defer prog.finish()
	return writeStream(out, stdout, func(f io.Writer) error {
		r := blosc.NewFrameReader(s)
		w := io.Writer(progressWriter{f, prog})
		if release != nil {
			w = &releasingWriter{w: w, release: release}
		}
		if _, err := r.WriteTo(w); err != nil {
			return err
		}
		return r.Close()
	})
}

// releaseEvery is how much data a stream from a mapped frame writes
// between releases of the mapping's pages: it bounds how much of the
// frame the process holds resident.
var releaseEvery int64 = 32 << 20

// releasingWriter calls release after every releaseEvery bytes.
type releasingWriter struct {
	w       io.Writer
	n       int64
	release func()
}

func (w *releasingWriter) Write(p []byte) (int, error) {
	n, err := w.w.Write(p)
	if w.n += int64(n); w.n >= releaseEvery {
		w.n = 0
		w.release()
	}
	return n, err
}

// mapFrame maps the frame file f and opens it in place (OpenFrameBytes:
// chunks decoded where they lie, and none touched before), so they are
// not read into buffers first; ok is false (and nothing stays mapped)
// when the file cannot be mapped or the frame does not open, and the
// caller reads it as before.
func mapFrame(f *os.File) (*blosc.SChunk, mappedFile, bool) {
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, mappedFile{}, false
	}
	m, ok := mapFile(f, st.Size())
	if !ok {
		return nil, m, false
	}
	s, err := blosc.OpenFrameBytes(m.b)
	if err != nil {
		m.unmap()
		return nil, mappedFile{}, false
	}
	return s, m, true
}
