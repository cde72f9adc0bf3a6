//go:build cblosc2 && cgo

// Package cblosc2 calls the C library c-blosc2 through cgo, for
// cross-checks and benchmarks under the build tag cblosc2. Debian ships no
// c-blosc2, so the tag is for machines where it was built from source:
// point cgo at it, e.g.
//
//	CGO_CFLAGS=-I$SRC/include CGO_LDFLAGS="-L$BUILD/blosc" go test -tags cblosc2 ./bench/...
//
// (scripts/cblosc2.sh builds it that way). Nothing in the library depends
// on this package.
package cblosc2

/*
#cgo LDFLAGS: -l:libblosc2.a -llz4 -lzstd -lz -lpthread -lm
#include <blosc2.h>

static blosc2_context* new_cctx(int compcode, int clevel, int typesize, int nthreads,
                                int blocksize, int splitmode, int use_dict,
                                const uint8_t* filters, const uint8_t* meta) {
	blosc2_cparams p = BLOSC2_CPARAMS_DEFAULTS;
	p.compcode = (uint8_t)compcode;
	p.clevel = (uint8_t)clevel;
	p.typesize = typesize;
	p.nthreads = (int16_t)nthreads;
	p.blocksize = blocksize;
	p.splitmode = splitmode;
	p.use_dict = use_dict;
	for (int i = 0; i < BLOSC2_MAX_FILTERS; i++) {
		p.filters[i] = filters[i];
		p.filters_meta[i] = meta[i];
	}
	return blosc2_create_cctx(p);
}

static blosc2_context* new_dctx(int nthreads) {
	blosc2_dparams p = BLOSC2_DPARAMS_DEFAULTS;
	p.nthreads = (int16_t)nthreads;
	return blosc2_create_dctx(p);
}
*/
import "C"

import (
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

var initOnce sync.Once

func initLib() { initOnce.Do(func() { C.blosc2_init() }) }

// Version is the C library's version string.
func Version() string { return C.BLOSC2_VERSION_STRING }

// Params are the blosc2_cparams fields the cross-checks set. Codes are
// c-blosc2's: codec 0 blosclz .. 5 zstd; filter 0 none, 1 shuffle,
// 2 bitshuffle, 3 delta, 4 trunc_prec; split 1 always .. 4 forward-compat.
type Params struct {
	Codec, Level, Typesize, Threads, Blocksize, Split int
	Dict                                              bool
	Filters, FilterMeta                               [6]uint8
}

// Compressor is a c-blosc2 compression context, reused across calls as
// the Go side reuses its own; Free releases it.
type Compressor struct{ ctx *C.blosc2_context }

// NewCompressor makes a context from p.
func NewCompressor(p Params) (*Compressor, error) {
	initLib()
	dict := 0
	if p.Dict {
		dict = 1
	}
	ctx := C.new_cctx(C.int(p.Codec), C.int(p.Level), C.int(p.Typesize), C.int(p.Threads),
		C.int(p.Blocksize), C.int(p.Split), C.int(dict),
		(*C.uint8_t)(unsafe.Pointer(&p.Filters[0])), (*C.uint8_t)(unsafe.Pointer(&p.FilterMeta[0])))
	if ctx == nil {
		return nil, errors.New("cblosc2: blosc2_create_cctx failed")
	}
	return &Compressor{ctx}, nil
}

// Compress writes one Blosc2 chunk of src into dst and returns its length.
func (c *Compressor) Compress(dst, src []byte) (int, error) {
	n := C.blosc2_compress_ctx(c.ctx, ptr(src), C.int32_t(len(src)), ptr(dst), C.int32_t(len(dst)))
	if n <= 0 {
		return 0, fmt.Errorf("cblosc2: blosc2_compress_ctx returned %d", int(n))
	}
	return int(n), nil
}

// Free releases the context.
func (c *Compressor) Free() { C.blosc2_free_ctx(c.ctx) }

// Decompressor is a c-blosc2 decompression context.
type Decompressor struct{ ctx *C.blosc2_context }

// NewDecompressor makes a context decoding with threads threads.
func NewDecompressor(threads int) (*Decompressor, error) {
	initLib()
	ctx := C.new_dctx(C.int(threads))
	if ctx == nil {
		return nil, errors.New("cblosc2: blosc2_create_dctx failed")
	}
	return &Decompressor{ctx}, nil
}

// Decompress decodes a Blosc1 or Blosc2 chunk into dst, after checking the
// sizes its header claims against both buffers.
func (d *Decompressor) Decompress(dst, src []byte) (int, error) {
	var nbytes, cbytes, blocksize C.int32_t
	if len(src) < 32 || C.blosc2_cbuffer_sizes(ptr(src), &nbytes, &cbytes, &blocksize) < 0 {
		return 0, errors.New("cblosc2: blosc2_cbuffer_sizes rejected the chunk")
	}
	if int(cbytes) > len(src) || int(nbytes) > len(dst) {
		return 0, fmt.Errorf("cblosc2: chunk claims %d bytes from %d, have %d and room for %d", int(nbytes), int(cbytes), len(src), len(dst))
	}
	n := C.blosc2_decompress_ctx(d.ctx, ptr(src), C.int32_t(len(src)), ptr(dst), C.int32_t(len(dst)))
	if n < 0 {
		return 0, fmt.Errorf("cblosc2: blosc2_decompress_ctx returned %d", int(n))
	}
	return int(n), nil
}

// Sizes returns the nbytes, cbytes and blocksize a chunk's header claims,
// as blosc2_cbuffer_sizes reads them.
func Sizes(src []byte) (nbytes, cbytes, blocksize int, err error) {
	var n, c, b C.int32_t
	if len(src) < 32 || C.blosc2_cbuffer_sizes(ptr(src), &n, &c, &b) < 0 {
		return 0, 0, 0, errors.New("cblosc2: blosc2_cbuffer_sizes rejected the chunk")
	}
	return int(n), int(c), int(b), nil
}

// GetItem decodes items [start, start+nitems) of a Blosc1 or Blosc2 chunk
// into dst with blosc2_getitem_ctx, given the real length of src.
func (d *Decompressor) GetItem(dst, src []byte, start, nitems int) (int, error) {
	n := C.blosc2_getitem_ctx(d.ctx, ptr(src), C.int32_t(len(src)), C.int(start), C.int(nitems), ptr(dst), C.int32_t(len(dst)))
	if n < 0 {
		return 0, fmt.Errorf("cblosc2: blosc2_getitem_ctx returned %d", int(n))
	}
	return int(n), nil
}

// Free releases the context.
func (d *Decompressor) Free() { C.blosc2_free_ctx(d.ctx) }

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}
