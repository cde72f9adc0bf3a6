package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
)

// formatB2ND is the -format name of N-dimensional arrays (.b2nd).
const formatB2ND = "b2nd"

// b2ndFlags are compress's flags for -format b2nd.
type b2ndFlags struct {
	shape, dtype, chunkshape, blockshape string
}

func (b *b2ndFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.shape, "shape", "", "-format b2nd: the array's shape, e.g. 300,200 (IN holds its items in C order);\n"+
		"taken from IN's header when IN is a .npy file")
	fs.StringVar(&b.dtype, "dtype", "", "-format b2nd: the NumPy dtype of the items, e.g. '<f8', '|S5', '>i2'")
	fs.StringVar(&b.chunkshape, "chunkshape", "", "-format b2nd: the chunks' shape (default: as python-blosc2 chooses)")
	fs.StringVar(&b.blockshape, "blockshape", "", "-format b2nd: the blocks' shape (default: as python-blosc2 chooses)")
}

// parseDims parses a comma-separated list of sizes ("" is none given,
// "()" or "-" a 0-dimensional shape).
func parseDims(name, s string, bits int) ([]int64, error) {
	if s == "()" || s == "-" {
		return []int64{}, nil
	}
	var out []int64
	for _, f := range strings.Split(strings.Trim(s, "()[] "), ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, bits)
		if err != nil || n < 0 {
			return nil, usagef("-%s %q: want sizes separated by commas", name, s)
		}
		out = append(out, n)
	}
	if out == nil {
		out = []int64{}
	}
	return out, nil
}

func toInt32s(v []int64) []int32 {
	if v == nil {
		return nil
	}
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

// compressB2ND writes IN (raw C-order items, or a .npy file) as an
// N-dimensional array frame at OUT.
func compressB2ND(fs *flag.FlagSet, bf *b2ndFlags, opts blosc.Options, in, out string, stdin io.Reader, stdout io.Writer) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, n := range []string{"chunksize", "blocksize", "typesize"} {
		if set[n] {
			return usagef("-%s does not apply to -format b2nd: the shapes and -dtype give the sizes", n)
		}
	}
	src, err := readInput(in, stdin)
	if err != nil {
		return err
	}
	p := b2nd.Params{DType: bf.dtype}
	if strings.EqualFold(filepath.Ext(in), ".npy") {
		h, err := parseNPY(src)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		if bf.shape != "" || (bf.dtype != "" && bf.dtype != h.descr) {
			return usagef("%s is a .npy file: its header gives the shape and dtype", in)
		}
		p.Shape, p.DType = h.shape, h.descr
		src = src[h.dataOff:]
		isz, err := b2nd.DTypeItemsize(h.descr)
		if err != nil {
			return err
		}
		if want := npyNbytes(h.shape, isz); want < 0 || int64(len(src)) != want {
			return fmt.Errorf("%w: %s holds %d bytes of data, its header says shape %v of %s", blosc.ErrCorrupt, in, len(src), h.shape, h.descr)
		}
		if h.fortran {
			src = fortranToC(src, h.shape, isz)
		}
	} else {
		if bf.shape == "" || bf.dtype == "" {
			return usagef("-format b2nd needs -shape and -dtype (or a .npy IN)")
		}
		if p.Shape, err = parseDims("shape", bf.shape, 63); err != nil {
			return err
		}
	}
	if bf.chunkshape != "" {
		c, err := parseDims("chunkshape", bf.chunkshape, 31)
		if err != nil {
			return err
		}
		p.ChunkShape = toInt32s(c)
	}
	if bf.blockshape != "" {
		b, err := parseDims("blockshape", bf.blockshape, 31)
		if err != nil {
			return err
		}
		p.BlockShape = toInt32s(b)
	}
	p.Options = opts
	a, err := b2nd.FromBuffer(p, src)
	if err != nil {
		return err
	}
	return writeAtomic(out, stdout, func(f *outFile) error {
		_, err := a.WriteTo(f)
		return err
	})
}

// npyNbytes returns the data size of an array, or -1 when it overflows.
func npyNbytes(shape []int64, itemsize int) int64 {
	n := int64(itemsize)
	for _, s := range shape {
		if s != 0 && n > (1<<62)/s {
			return -1
		}
		n *= s
	}
	return n
}

// asArray returns the N-dimensional array a super-chunk holds, or nil
// when it has no b2nd (or Caterva) metalayer that c-blosc2 would read as
// one (some frames carry a metalayer of that name in another format):
// such a frame is decompressed as a plain super-chunk. A metalayer that
// reads but does not fit the frame's chunks is an error.
func asArray(s *blosc.SChunk) (*b2nd.Array, error) {
	raw, err := s.Metalayer(b2nd.MetaName)
	if err != nil {
		if raw, err = s.Metalayer("caterva"); err != nil {
			return nil, nil
		}
	}
	if _, err := b2nd.ParseMeta(raw); err != nil {
		return nil, nil
	}
	return b2nd.FromSChunk(s)
}

// parseSlice parses -slice: START:STOP per dimension, separated by
// commas; an empty START or STOP is the dimension's start or end, a lone
// index I is I:I+1, and dimensions not given are taken whole.
func parseSlice(s string, shape []int64) (start, stop []int64, err error) {
	start, stop = make([]int64, len(shape)), append([]int64(nil), shape...)
	if s == "" {
		return start, stop, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > len(shape) {
		return nil, nil, usagef("-slice %q: %d dimensions for an array of %d", s, len(parts), len(shape))
	}
	for i, part := range parts {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), ":")
		num := func(v string, def int64) (int64, error) {
			if v = strings.TrimSpace(v); v == "" {
				return def, nil
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return 0, usagef("-slice %q: %q is not a number", s, v)
			}
			if n < 0 {
				n += shape[i] // from the end, as in Python
			}
			return n, nil
		}
		if start[i], err = num(lo, 0); err != nil {
			return nil, nil, err
		}
		if !isRange {
			stop[i] = start[i] + 1
		} else if stop[i], err = num(hi, shape[i]); err != nil {
			return nil, nil, err
		}
		if start[i] < 0 || start[i] > stop[i] || stop[i] > shape[i] {
			return nil, nil, usagef("-slice %q: [%d, %d) is outside dimension %d of %d items", s, start[i], stop[i], i, shape[i])
		}
	}
	return start, stop, nil
}

// writeArray writes the slice [start, stop) of a (C order) to OUT, as a
// .npy file when OUT's name ends in .npy. It reads the slice in slabs
// along the first dimension, a chunk's height at a time, so memory stays
// at a few chunks' worth whatever the array's size.
func writeArray(a *b2nd.Array, start, stop []int64, out string, stdout io.Writer) error {
	shape := make([]int64, len(start))
	for i := range shape {
		shape[i] = stop[i] - start[i]
	}
	return writeStream(out, stdout, func(w io.Writer) error {
		if strings.EqualFold(filepath.Ext(out), ".npy") {
			dt := a.DType()
			if dt == "" {
				dt = fmt.Sprintf("|V%d", a.Itemsize())
			}
			if _, err := w.Write(npyHeaderBytes(dt, shape, false)); err != nil {
				return err
			}
		}
		if len(shape) == 0 {
			b, err := a.GetSlice(nil, start, stop)
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		}
		step := int64(max(a.ChunkShape()[0], 1))
		lo, hi := append([]int64(nil), start...), append([]int64(nil), stop...)
		var buf []byte
		for r := start[0]; r < stop[0]; {
			// Slabs aligned with the chunks, so none decodes a chunk twice.
			next := min((r/step+1)*step, stop[0])
			lo[0], hi[0] = r, next
			var err error
			if buf, err = a.GetSlice(buf, lo, hi); err != nil {
				return err
			}
			if _, err := w.Write(buf); err != nil {
				return err
			}
			r = next
		}
		return nil
	})
}

// decompressArray writes the array s holds, or its -slice, to OUT; ok is
// false when s holds no array (nor was a slice asked for).
func decompressArray(s *blosc.SChunk, slice, out string, stdout io.Writer) (ok bool, err error) {
	a, err := asArray(s)
	if err != nil {
		return true, err
	}
	if a == nil {
		if slice != "" {
			return true, usagef("-slice: the input is not an N-dimensional array (no b2nd metalayer)")
		}
		return false, nil
	}
	start, stop, err := parseSlice(slice, a.Shape())
	if err != nil {
		return true, err
	}
	return true, writeArray(a, start, stop, out, stdout)
}

// ArrayInfo is what info adds for a frame that holds an N-dimensional
// array.
type ArrayInfo struct {
	Shape      []int64 `json:"shape"`
	ChunkShape []int32 `json:"chunkshape"`
	BlockShape []int32 `json:"blockshape"`
	DType      string  `json:"dtype"`
}

// describeArray returns the array information of s, nil when it holds no
// array (or one whose metalayer does not fit its chunks: info describes
// the frame whatever its metalayers say, and prints them).
func describeArray(s *blosc.SChunk) (*ArrayInfo, error) {
	a, err := asArray(s)
	if a == nil || err != nil {
		return nil, nil
	}
	return &ArrayInfo{Shape: a.Shape(), ChunkShape: a.ChunkShape(), BlockShape: a.BlockShape(), DType: a.DType()}, nil
}
