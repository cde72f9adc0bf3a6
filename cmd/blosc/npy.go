package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/goblosc/blosc"
)

// npyMagic starts every NumPy .npy file.
const npyMagic = "\x93NUMPY"

// npyHeader is what a .npy file's header says of its array.
type npyHeader struct {
	descr   string
	fortran bool
	shape   []int64
	dataOff int // where the data starts
}

// parseNPY reads the header of a .npy file (format 1.0, 2.0 or 3.0).
func parseNPY(b []byte) (npyHeader, error) {
	var h npyHeader
	if len(b) < 10 || string(b[:6]) != npyMagic {
		return h, fmt.Errorf("%w: not a .npy file", blosc.ErrCorrupt)
	}
	var hlen, off int
	switch b[6] {
	case 1:
		hlen, off = int(binary.LittleEndian.Uint16(b[8:])), 10
	case 2, 3:
		if len(b) < 12 {
			return h, fmt.Errorf("%w: truncated .npy header", blosc.ErrCorrupt)
		}
		n := binary.LittleEndian.Uint32(b[8:])
		if n > uint32(len(b)) {
			return h, fmt.Errorf("%w: .npy header of %d bytes in %d", blosc.ErrCorrupt, n, len(b))
		}
		hlen, off = int(n), 12
	default:
		return h, fmt.Errorf("%w: .npy format version %d.%d", blosc.ErrUnsupported, b[6], b[7])
	}
	if hlen > len(b)-off {
		return h, fmt.Errorf("%w: .npy header of %d bytes in %d", blosc.ErrCorrupt, hlen, len(b)-off)
	}
	dict := strings.TrimSpace(string(b[off : off+hlen]))
	h.dataOff = off + hlen
	descr, ok := npyValue(dict, "descr")
	if !ok {
		return h, fmt.Errorf("%w: .npy header without descr: %s", blosc.ErrCorrupt, dict)
	}
	if s, err := strconv.Unquote(strings.Replace(descr, "'", "\"", -1)); err == nil && !strings.HasPrefix(descr, "[") {
		h.descr = s
	} else {
		return h, fmt.Errorf("%w: .npy structured dtype %s (give raw data with -dtype instead)", blosc.ErrUnsupported, descr)
	}
	fo, ok := npyValue(dict, "fortran_order")
	if !ok || (fo != "True" && fo != "False") {
		return h, fmt.Errorf("%w: .npy header without fortran_order: %s", blosc.ErrCorrupt, dict)
	}
	h.fortran = fo == "True"
	sh, ok := npyValue(dict, "shape")
	if !ok || !strings.HasPrefix(sh, "(") || !strings.HasSuffix(sh, ")") {
		return h, fmt.Errorf("%w: .npy header without shape: %s", blosc.ErrCorrupt, dict)
	}
	for _, f := range strings.Split(sh[1:len(sh)-1], ",") {
		f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
		if f == "" {
			continue
		}
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil || n < 0 {
			return h, fmt.Errorf("%w: .npy shape %s", blosc.ErrCorrupt, sh)
		}
		h.shape = append(h.shape, n)
	}
	if h.shape == nil {
		h.shape = []int64{}
	}
	return h, nil
}

// npyValue returns the literal for key in a header dict: a quoted string,
// a tuple or a bare word.
func npyValue(dict, key string) (string, bool) {
	i := strings.Index(dict, "'"+key+"'")
	if i < 0 {
		return "", false
	}
	rest := strings.TrimSpace(dict[i+len(key)+2:])
	rest, ok := strings.CutPrefix(rest, ":")
	if !ok {
		return "", false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return "", false
	}
	var end int
	switch rest[0] {
	case '\'', '"':
		end = strings.IndexByte(rest[1:], rest[0]) + 2
	case '(':
		end = strings.IndexByte(rest, ')') + 1
	case '[':
		end = strings.LastIndexByte(rest, ']') + 1
	default:
		end = strings.IndexAny(rest, ",}")
		if end < 0 {
			end = len(rest)
		}
	}
	if end <= 0 {
		return "", false
	}
	return strings.TrimSpace(rest[:end]), true
}

// npyHeaderBytes writes a .npy header: format 1.0, or
// 2.0 when the header needs more than 65535 bytes, padded with spaces to
// a multiple of 64 bytes as NumPy pads it.
func npyHeaderBytes(descr string, shape []int64, fortran bool) []byte {
	var sh strings.Builder
	sh.WriteByte('(')
	for i, s := range shape {
		if i > 0 {
			sh.WriteString(", ")
		}
		sh.WriteString(strconv.FormatInt(s, 10))
	}
	if len(shape) == 1 {
		sh.WriteByte(',')
	}
	sh.WriteByte(')')
	d := descr
	if !strings.HasPrefix(d, "[") {
		d = "'" + d + "'"
	}
	order := "False"
	if fortran {
		order = "True"
	}
	dict := fmt.Sprintf("{'descr': %s, 'fortran_order': %s, 'shape': %s, }", d, order, sh.String())
	pre := 10
	if len(dict)+1+pre > 65535 {
		pre = 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	var b bytes.Buffer
	b.WriteString(npyMagic)
	if pre == 10 {
		b.Write([]byte{1, 0})
		binary.Write(&b, binary.LittleEndian, uint16(total-pre))
	} else {
		b.Write([]byte{2, 0})
		binary.Write(&b, binary.LittleEndian, uint32(total-pre))
	}
	b.WriteString(dict)
	b.WriteString(strings.Repeat(" ", total-pre-len(dict)-1))
	b.WriteByte('\n')
	return b.Bytes()
}

// fortranToC reorders a Fortran-order array of shape into C order.
func fortranToC(data []byte, shape []int64, itemsize int) []byte {
	nd := len(shape)
	out := make([]byte, len(data))
	if nd <= 1 {
		copy(out, data)
		return out
	}
	// fstride[i]: the step in items of dimension i in Fortran order.
	fstride := make([]int64, nd)
	s := int64(1)
	for i := range nd {
		fstride[i] = s
		s *= shape[i]
	}
	idx := make([]int64, nd)
	n := int64(len(data) / itemsize)
	var f int64
	for c := int64(0); c < n; c++ {
		copy(out[c*int64(itemsize):], data[f*int64(itemsize):(f+1)*int64(itemsize)])
		for i := nd - 1; i >= 0; i-- {
			idx[i]++
			f += fstride[i]
			if idx[i] < shape[i] {
				break
			}
			f -= shape[i] * fstride[i]
			idx[i] = 0
		}
	}
	return out
}
