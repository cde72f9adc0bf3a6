package blosc

import (
	"encoding/binary"
	"fmt"
)

// params2 validates the options of a Blosc2 chunk.
func (o *Options) params2(p params) (params, error) {
	switch {
	case o.Codec == BloscLZ || o.Codec == LZ4 || o.Codec == LZ4HC || o.Codec == Zlib || o.Codec == Zstd:
	case o.Codec >= firstPluginID:
		if lookupCodec(o.Codec) == nil {
			return p, unsupportedCodec(uint8(o.Codec))
		}
	default:
		// c-blosc2 dropped Snappy.
		return p, fmt.Errorf("%w: codec %s in a Blosc2 chunk", ErrInvalidOptions, o.Codec)
	}
	p.codecMeta = o.CodecMeta
	if o.Level < 0 || o.Level > 9 {
		return p, fmt.Errorf("%w: level %d outside 0..9", ErrInvalidOptions, o.Level)
	}
	if p.typesize < 1 || p.typesize > MaxTypesize {
		return p, fmt.Errorf("%w: typesize %d outside 1..%d", ErrInvalidOptions, o.Typesize, MaxTypesize)
	}
	if o.Blocksize < 0 || o.Blocksize > maxBlocksize2 {
		return p, fmt.Errorf("%w: blocksize %d", ErrInvalidOptions, o.Blocksize)
	}
	if o.SplitMode > SplitForwardCompat {
		return p, fmt.Errorf("%w: split mode %d", ErrInvalidOptions, o.SplitMode)
	}
	if o.Threads < 0 {
		return p, fmt.Errorf("%w: threads %d", ErrInvalidOptions, o.Threads)
	}
	if o.Dict {
		switch o.Codec {
		case Zstd:
		case LZ4, LZ4HC:
			return p, fmt.Errorf("%w: writing LZ4 dictionary chunks (reading them works)", ErrUnsupported)
		default:
			return p, fmt.Errorf("%w: codec %s takes no dictionary", ErrInvalidOptions, o.Codec)
		}
		p.dict = true
	}
	if p.split == SplitDefault {
		p.split = SplitForwardCompat
	}
	p.filters, p.filterMeta = o.Filters, o.FilterMeta
	pipe := p.pipeline2()
	if err := pipe.validate(); err != nil {
		return p, err
	}
	return p, nil
}

func (p *params) pipeline2() pipeline2 {
	var pl pipeline2
	pl.typesize = p.typesize
	for i, f := range p.filters {
		pl.filters[i] = uint8(f)
		pl.meta[i] = p.filterMeta[i]
	}
	return pl
}

// layout2 is the shape of one Blosc2 chunk being written.
type layout2 struct {
	nbytes, blocksize, nblocks, leftover int
	split, memcpyed                      bool
	dict                                 bool // a dictionary was stored
	hdr                                  header2
}

func (p *params) layout2(nbytes int) layout2 {
	l := layout2{nbytes: nbytes}
	l.blocksize = blocksize2(nbytes, p.typesize, p.clevel, p.codec, p.filters, p.split, p.blocksize)
	if nbytes > 0 {
		l.nblocks = nbytes / l.blocksize
		l.leftover = nbytes % l.blocksize
		if l.leftover > 0 {
			l.nblocks++
		}
	}
	h := &l.hdr
	h.version, h.versionLZ, h.typesize = version2Stable, 1, uint8(p.typesize)
	h.nbytes, h.blocksize = nbytes, l.blocksize
	h.codecID, h.codecMeta = uint8(p.codec), p.codecMeta
	if p.codec >= firstPluginID {
		// c-blosc2 writes a plugin codec's own version in every chunk.
		if e := lookupCodec(p.codec); e != nil {
			h.versionLZ = e.version
		}
	}
	for i, f := range p.filters {
		h.filters[i] = uint8(f)
		h.filterMeta[i] = p.filterMeta[i]
	}
	h.flags = flagsExtended
	l.memcpyed = p.clevel == 0 || nbytes < minBufferSize2
	if l.memcpyed {
		// c-blosc2 records nothing but the copy in the flags.
		h.flags |= flagMemcpyed
		return l
	}
	pl := p.pipeline2()
	if pl.has(Delta) {
		h.flags |= flagDelta
	}
	l.split = splitBlock2(p.split, p.codec, p.clevel, p.filters, p.typesize, l.blocksize)
	if !l.split {
		h.flags |= flagDontSplit
	}
	h.flags |= codecCode(p.codec) << 5
	return l
}

func (l *layout2) blockLen(j int) int {
	if j == l.nblocks-1 && l.leftover > 0 {
		return l.leftover
	}
	return l.blocksize
}

func (l *layout2) nstreams(j int) int {
	if l.split && !(j == l.nblocks-1 && l.leftover > 0) {
		return int(l.hdr.typesize)
	}
	return 1
}

// compress2 writes src as a Blosc2 chunk the way c-blosc2's
// blosc2_compress_ctx does with a destination of len(src)+32 bytes: the
// same header, block size, split layout and run encoding; a chunk whose
// streams are all zero runs becomes a zeros special chunk, and one that
// would not fit is stored as a copy.
func (e *engine) compress2(dst, src []byte, p *params) ([]byte, error) {
	return e.compress2Dest(dst, src, p, len(src)+header2Len)
}

// compress2Dest is compress2 with c-blosc2's destination size destsize (at
// least len(src)+32): a larger destination lets the streams take more
// room before the chunk falls back to a copy, as c-blosc2 does where it
// passes one (the offsets index after a delete).
func (e *engine) compress2Dest(dst, src []byte, p *params, destsize int) ([]byte, error) {
	return e.compress2From(dst, src, nil, p, destsize)
}

// compress2From is compress2Dest of the chunk src, or of the chunk whose
// blocks rows places when rows is not nil (src is then nil).
func (e *engine) compress2From(dst, src []byte, rows *rowSource, p *params, destsize int) ([]byte, error) {
	nbytes := len(src)
	if rows != nil {
		nbytes = rows.nbytes
	}
	if nbytes > MaxBufferSize {
		return nil, fmt.Errorf("%w: %d bytes", ErrTooLarge, nbytes)
	}
	maxbytes := max(destsize, nbytes+header2Len)
	out := dst[:cap(dst)]
	if len(out) < maxbytes {
		out = make([]byte, maxbytes)
	}
	out = out[:maxbytes]
	l := p.layout2(nbytes)
	ntbytes := 0
	if !l.memcpyed {
		var zeros bool
		var err error
		ntbytes, zeros, err = e.compressBlocks2(out, src, rows, p, &l)
		if err != nil {
			return nil, err
		}
		switch {
		case ntbytes == 0:
			l.hdr.flags |= flagMemcpyed
			l.memcpyed = true
		case l.dict:
			l.hdr.b2flags |= b2FlagDict
		case zeros:
			l.hdr.b2flags |= specialZero << b2SpecialShift
			ntbytes = header2Len
		}
	}
	if l.memcpyed {
		if rows != nil {
			rows.gather(out[header2Len : header2Len+nbytes])
		} else {
			copyOut(out[header2Len:], src, false)
		}
		ntbytes = nbytes + header2Len
	}
	l.hdr.cbytes = ntbytes
	l.hdr.put(out)
	return out[:ntbytes], nil
}

// compressBlocks2 writes the block offsets and streams into out and returns
// the chunk length (0 if it does not fit in len(out)) and whether every
// stream is a run of zeros. The blocks are src's, or rows' when it is not
// nil (whose pipeline is a byte shuffle alone: see compressesRows).
func (e *engine) compressBlocks2(out, src []byte, rows *rowSource, p *params, l *layout2) (int, bool, error) {
	ntbytes := header2Len + 4*l.nblocks
	if ntbytes > len(out) {
		return 0, false, nil
	}
	b := &e.b2
	pipe := p.pipeline2()
	var ref []byte
	if pipe.has(Delta) && l.nblocks > 1 {
		// The decoder codes later blocks against its decoded block 0:
		// the input itself unless a lossy filter changed it.
		ref = src[:l.blocksize]
		if pipe.inexact() {
			ws := &e.ws
			a, bb := ws.b2.scratch(l.blocksize)
			f, err := pipe.forward(ref, a, bb, nil)
			if err != nil {
				return 0, false, err
			}
			b.ref0 = grow(b.ref0, l.blocksize)
			other := bb
			if &f[0] == &bb[0] {
				other = a
			}
			if err := pipe.backward(b.ref0, f, other, nil); err != nil {
				return 0, false, err
			}
			ref = b.ref0
		}
	}
	var zenc *zstdDictEncoder
	if p.dict {
		d, err := trainDict2(src, p, l, &pipe, ref, &e.ws)
		if err != nil {
			return 0, false, err
		}
		if d != nil {
			if ntbytes+4+len(d) > len(out) {
				return 0, false, nil
			}
			if zenc, err = newZstdDictEncoder(d); err != nil {
				return 0, false, err
			}
			defer zenc.close()
			binary.LittleEndian.PutUint32(out[ntbytes:], uint32(len(d)))
			copy(out[ntbytes+4:], d)
			ntbytes += 4 + len(d)
			l.dict = true
		}
	}
	b.p, b.l, b.pipe, b.src, b.ref, b.zenc, b.rows = p, *l, pipe, src, ref, zenc, rows
	threads := 1
	if zenc == nil {
		threads = e.blockThreads(p.threads, l.nblocks, l.nbytes, p.codec)
	}
	last := l.nblocks - 1
	start := ntbytes
	e.blocks.begin(out, header2Len, ntbytes, l.nblocks,
		worstCase2(l, l.blocksize, 0), worstCase2(l, l.blockLen(last), last))
	ntbytes, err := e.writeBlocks(b, threads)
	b.p, b.src, b.ref, b.zenc, b.rows = nil, nil, nil, nil, nil
	if ntbytes == 0 || err != nil {
		return 0, false, err
	}
	// Every stream takes 4 bytes or more, and exactly 4 only as a run of
	// zeros.
	streams := (l.nblocks-1)*l.nstreams(0) + l.nstreams(last)
	zeros := !l.dict && ntbytes-start == 4*streams
	return ntbytes, zeros, nil
}

// worstCase2 bounds the bytes of block j's streams.
func worstCase2(l *layout2, bsize, j int) int {
	ns := l.nstreams(j)
	return ns*4 + bsize + 1
}

func (b *blosc2Call) encodeBlock(ws *workerState, j int, out []byte) (int, error) {
	l := &b.l
	bsize := l.blockLen(j)
	if b.rows != nil {
		// The block's shuffle, the pipeline's only filter, reads its
		// rows where they are.
		a, _ := ws.b2.scratch(bsize)
		b.rows.shuffle(a, j)
		sc := streamCoder{codec: b.p.codec, clevel: b.p.clevel, split: l.split, blosc2: true,
			codecMeta: b.p.codecMeta, typesize: b.p.typesize}
		return sc.write(ws, out, a, l.nstreams(j))
	}
	var ref []byte
	if j > 0 {
		ref = b.ref
	}
	return compressBlock2(ws, b.p, l, &b.pipe, b.src[j*l.blocksize:j*l.blocksize+bsize], ref, j, out, b.zenc)
}

// compressBlock2 is c-blosc2's blosc_c: run the pipeline over block j,
// then write its streams (see streamCoder). len(out) is the room left; 0
// is returned when the block does not fit.
func compressBlock2(ws *workerState, p *params, l *layout2, pipe *pipeline2, in, ref []byte, j int, out []byte, zenc *zstdDictEncoder) (int, error) {
	a, b := ws.b2.scratch(len(in))
	if ref != nil {
		ref = ref[:len(in)]
	}
	data, err := pipe.forward(in, a, b, ref)
	if err != nil {
		return 0, err
	}
	sc := streamCoder{codec: p.codec, clevel: p.clevel, split: l.split, blosc2: true, zenc: zenc,
		codecMeta: p.codecMeta, typesize: p.typesize}
	return sc.write(ws, out, data, l.nstreams(j))
}
