package blosc

import (
	"encoding/binary"
	"fmt"

	"github.com/goblosc/blosc/bitshuffle"
)

// pipeline2 is the filter pipeline of a Blosc2 chunk: up to six filters
// applied slot 0 to 5 when compressing and 5 to 0 when decompressing.
type pipeline2 struct {
	filters  [MaxFilters]uint8
	meta     [MaxFilters]uint8
	typesize int
	// bypass makes backward's last step write its output around the
	// caches (unshuffleBypass); set only where bypassable.
	bypass bool
}

// bypassable reports whether backward's last step is a byte shuffle that
// unshuffleBypass can write around the caches, with no filter after it to
// read the output back.
func (p *pipeline2) bypassable() bool {
	if p.has(Delta) {
		return false
	}
	for i, f := range p.filters {
		switch Filter(f) {
		case NoFilter, TruncPrec, IntTrunc:
		case ByteShuffle:
			ts := p.typesize
			if p.meta[i] != 0 {
				ts = int(p.meta[i])
			}
			return canBypass(ts)
		default:
			return false
		}
	}
	return false
}

// activeBackward reports whether decoding runs any filter (TRUNC_PREC and
// INT_TRUNC need no undoing).
func (p *pipeline2) activeBackward() bool {
	for _, f := range p.filters {
		if f != uint8(NoFilter) && f != uint8(TruncPrec) && f != uint8(IntTrunc) {
			return true
		}
	}
	return false
}

// shuffleOnly returns the typesize of the byte shuffle when it is the
// only filter backward undoes.
func (p *pipeline2) shuffleOnly() (ts int, ok bool) {
	for i, f := range p.filters {
		switch Filter(f) {
		case NoFilter, TruncPrec, IntTrunc:
		case ByteShuffle:
			if ok {
				return 0, false
			}
			ts, ok = p.typesize, true
			if p.meta[i] != 0 {
				ts = int(p.meta[i])
			}
		default:
			return 0, false
		}
	}
	return ts, ok
}

func (p *pipeline2) has(f Filter) bool {
	for _, g := range p.filters {
		if g == uint8(f) {
			return true
		}
	}
	return false
}

// inexact reports whether backward may not give back what forward was
// given: a lossy filter, or a plugin nobody vouches for.
func (p *pipeline2) inexact() bool {
	for _, f := range p.filters {
		if f == uint8(TruncPrec) || f == uint8(IntTrunc) || (f >= firstPluginID && !builtinPluginFilter(Filter(f))) {
			return true
		}
	}
	return false
}

// validate checks what compression with the pipeline requires; decoding
// needs nothing beyond the codes being known.
func (p *pipeline2) validate() error {
	for i, f := range p.filters {
		switch Filter(f) {
		case NoFilter, ByteShuffle, BitShuffle, Delta, ByteDelta, ByteDeltaLegacy:
		case TruncPrec:
			if _, err := truncMask(int8(p.meta[i]), p.typesize); err != nil {
				return err
			}
		case IntTrunc:
			if _, err := intTruncMask(p.meta[i], p.typesize); err != nil {
				return err
			}
		default:
			if !knownFilter(Filter(f)) {
				return unsupportedFilter(Filter(f), i)
			}
		}
	}
	return nil
}

// deltaUnit is the word size c-blosc2's delta filter works in: the
// typesize for 1, 2, 4 and 8, eight bytes for other multiples of 8, and
// single bytes otherwise. Bytes after the last whole word of a block are
// left alone (c-blosc2 leaves them unwritten; we copy them through).
func deltaUnit(typesize int) int {
	switch typesize {
	case 1, 2, 4, 8:
		return typesize
	}
	if typesize%8 == 0 {
		return 8
	}
	return 1
}

// deltaEncode writes the delta of in into out. Block 0 (ref == nil) is coded
// against its own previous word; every other block against the same
// position of ref, the decoded block 0. XOR is bytewise, so the word size
// only decides where the coded region ends and how far back block 0 looks.
func deltaEncode(out, in, ref []byte, typesize int) {
	u := deltaUnit(typesize)
	n := len(in) / u * u
	if ref == nil {
		copy(out[:min(u, n)], in)
		if n > u {
			xorBytes(out[u:n], in[u:n], in[:n-u])
		}
	} else {
		xorBytes(out[:n], in[:n], ref[:n])
	}
	copy(out[n:len(in)], in[n:])
}

// deltaDecode undoes deltaEncode in place, as c-blosc2 does in the output
// buffer: block 0 by a running XOR over its already decoded words.
func deltaDecode(buf, ref []byte, typesize int) {
	u := deltaUnit(typesize)
	n := len(buf) / u * u
	if ref == nil {
		// A running XOR: each word depends on the one before, so it goes
		// a word at a time.
		switch u {
		case 8:
			prev := uint64(0)
			for i := 0; i < n; i += 8 {
				prev ^= binary.LittleEndian.Uint64(buf[i:])
				binary.LittleEndian.PutUint64(buf[i:], prev)
			}
		case 4:
			prev := uint32(0)
			for i := 0; i < n; i += 4 {
				prev ^= binary.LittleEndian.Uint32(buf[i:])
				binary.LittleEndian.PutUint32(buf[i:], prev)
			}
		default:
			for i := u; i < n; i++ {
				buf[i] ^= buf[i-u]
			}
		}
		return
	}
	xorBytes(buf[:n], buf[:n], ref[:n])
}

// xorBytes sets dst[i] = a[i] ^ b[i], eight bytes at a time.
func xorBytes(dst, a, b []byte) {
	n := len(dst)
	i := 0
	for ; i+8 <= n; i += 8 {
		x := binary.LittleEndian.Uint64(a[i:]) ^ binary.LittleEndian.Uint64(b[i:])
		binary.LittleEndian.PutUint64(dst[i:], x)
	}
	for ; i < n; i++ {
		dst[i] = a[i] ^ b[i]
	}
}

// truncMask returns the mask TRUNC_PREC applies to each element: meta is a
// signed byte, positive = mantissa bits kept, negative = bits dropped.
// c-blosc2 refuses to touch all of the mantissa (NaN and Inf must survive)
// and every typesize but 4 and 8.
func truncMask(meta int8, typesize int) (uint64, error) {
	var mant int
	switch typesize {
	case 4:
		mant = 23
	case 8:
		mant = 52
	default:
		return 0, fmt.Errorf("%w: trunc_prec needs typesize 4 or 8, not %d", ErrInvalidOptions, typesize)
	}
	prec := int(meta)
	if prec > mant || -prec > mant {
		return 0, fmt.Errorf("%w: trunc_prec of %d bits for a %d-bit mantissa", ErrInvalidOptions, prec, mant)
	}
	zeroed := -prec
	if prec >= 0 {
		zeroed = mant - prec
	}
	if zeroed >= mant {
		return 0, fmt.Errorf("%w: trunc_prec would drop %d of %d mantissa bits", ErrInvalidOptions, zeroed, mant)
	}
	return ^(uint64(1)<<zeroed - 1), nil
}

// truncPrec writes in with the low mantissa bits of every whole element
// cleared; the bytes after the last whole element are copied.
func truncPrec(out, in []byte, mask uint64, typesize int) {
	n := len(in) / typesize * typesize
	if typesize == 4 {
		m := uint32(mask)
		for i := 0; i < n; i += 4 {
			binary.LittleEndian.PutUint32(out[i:], binary.LittleEndian.Uint32(in[i:])&m)
		}
	} else {
		for i := 0; i < n; i += 8 {
			binary.LittleEndian.PutUint64(out[i:], binary.LittleEndian.Uint64(in[i:])&mask)
		}
	}
	copy(out[n:len(in)], in[n:])
}

// forward runs the pipeline over one block. src is the block (not
// modified); a and b are scratch buffers of at least len(src) bytes. ref is
// nil for block 0 and otherwise what the decoder will hold as block 0. It
// returns the buffer that holds the filtered block (src itself when no
// filter is set).
func (p *pipeline2) forward(src, a, b, ref []byte) ([]byte, error) {
	n := len(src)
	cur, curIsSrc := src, true
	next, spare := a[:n], b[:n]
	for i, f := range p.filters {
		switch Filter(f) {
		case NoFilter:
			continue
		case ByteShuffle:
			ts := p.typesize
			if p.meta[i] != 0 {
				ts = int(p.meta[i])
			}
			Shuffle(next, cur, ts)
		case BitShuffle:
			bitshuffle.Shuffle(next, cur, p.typesize)
		case Delta:
			deltaEncode(next, cur, ref, p.typesize)
		case TruncPrec:
			mask, err := truncMask(int8(p.meta[i]), p.typesize)
			if err != nil {
				return nil, err
			}
			truncPrec(next, cur, mask, p.typesize)
		case ByteDelta, ByteDeltaLegacy:
			byteDeltaEncode(next, cur, byteDeltaTypesize(p.meta[i], p.typesize), Filter(f) == ByteDeltaLegacy)
		case IntTrunc:
			mask, err := intTruncMask(p.meta[i], p.typesize)
			if err != nil {
				return nil, err
			}
			intTrunc(next, cur, mask, p.typesize)
		default:
			e := lookupFilter(Filter(f))
			if e == nil {
				return nil, unsupportedFilter(Filter(f), i)
			}
			if err := e.f.Forward(next, cur, FilterParams{Meta: p.meta[i], Typesize: p.typesize}); err != nil {
				return nil, fmt.Errorf("filter %d (%s) in slot %d: %w", f, e.name, i, err)
			}
		}
		if curIsSrc {
			cur, next, curIsSrc = next, spare, false
		} else {
			cur, next = next, cur
		}
	}
	return cur, nil
}

// backwardMoves reports whether undoing filter f moves the block to
// another buffer (the shuffles, plugins) rather than working in place
// (delta, bytedelta) or doing nothing (none, the truncations).
func backwardMoves(f Filter) bool {
	switch f {
	case ByteShuffle, BitShuffle:
		return true
	case NoFilter, Delta, TruncPrec, ByteDelta, ByteDeltaLegacy, IntTrunc:
		return false
	}
	return true
}

// backward undoes the pipeline for one block. in holds the codec output
// and may be overwritten; tmp is scratch of len(in) bytes (untouched when
// at most one filter moves the block); out receives the block. ref is nil
// for block 0 and otherwise the decoded block 0, which c-blosc2
// (single-threaded) reads from the output buffer.
//
// The last move writes straight into out, and with no move the block is
// copied there first and the in-place filters undone there: a 64 MiB
// chunk decoded through a final copy spent more time in that copy than in
// the codec and the unshuffle together.
func (p *pipeline2) backward(out, in, tmp, ref []byte) error {
	n := len(in)
	out = out[:n]
	moves := 0
	for _, f := range p.filters {
		if backwardMoves(Filter(f)) {
			moves++
		}
	}
	cur, curIsTmp := in, false
	if moves == 0 {
		copy(out, in)
		cur = out
	}
	for i := MaxFilters - 1; i >= 0; i-- {
		f := Filter(p.filters[i])
		switch f {
		case Delta:
			deltaDecode(cur, ref, p.typesize)
			continue
		case ByteDelta, ByteDeltaLegacy:
			byteDeltaDecode(cur, byteDeltaTypesize(p.meta[i], p.typesize), f == ByteDeltaLegacy)
			continue
		}
		if !backwardMoves(f) {
			continue
		}
		moves--
		next := out
		if moves > 0 {
			next = tmp[:n]
			if curIsTmp {
				next = in
			}
			curIsTmp = !curIsTmp
		}
		switch f {
		case ByteShuffle:
			ts := p.typesize
			if p.meta[i] != 0 {
				ts = int(p.meta[i])
			}
			if p.bypass && moves == 0 {
				unshuffleBypass(next, cur, ts)
			} else {
				Unshuffle(next, cur, ts)
			}
		case BitShuffle:
			bitshuffle.Unshuffle(next, cur, p.typesize)
		default:
			e := lookupFilter(f)
			if e == nil {
				return unsupportedFilter(f, i)
			}
			if err := e.f.Backward(next, cur, FilterParams{Meta: p.meta[i], Typesize: p.typesize}); err != nil {
				return pluginErr(fmt.Sprintf("filter %d (%s) in slot %d", uint8(f), e.name, i), err)
			}
		}
		cur = next
	}
	return nil
}
