//go:build cblosc2 && cgo

package cblosc2

/*
#include <stdlib.h>
#include <string.h>
#include <blosc2.h>
#include <b2nd.h>

static int b2nd_ndim(b2nd_array_t* a) { return a->ndim; }
static int64_t b2nd_shape_at(b2nd_array_t* a, int i) { return a->shape[i]; }
static int32_t b2nd_chunk_at(b2nd_array_t* a, int i) { return a->chunkshape[i]; }
static int32_t b2nd_block_at(b2nd_array_t* a, int i) { return a->blockshape[i]; }
static int64_t b2nd_nitems(b2nd_array_t* a) { return a->nitems; }
static int32_t b2nd_typesize(b2nd_array_t* a) { return a->sc->typesize; }
static const char* b2nd_dtype_of(b2nd_array_t* a) { return a->dtype; }

static int b2nd_make(int compcode, int clevel, int typesize, int nthreads, const uint8_t* filters,
                     int8_t ndim, const int64_t* shape, const int32_t* chunks, const int32_t* blocks,
                     const char* dtype, const void* buf, int64_t bufsize, b2nd_array_t** out) {
	blosc2_cparams p = BLOSC2_CPARAMS_DEFAULTS;
	p.compcode = (uint8_t)compcode;
	p.clevel = (uint8_t)clevel;
	p.typesize = typesize;
	p.nthreads = (int16_t)nthreads;
	for (int i = 0; i < BLOSC2_MAX_FILTERS; i++) p.filters[i] = filters[i];
	blosc2_dparams d = BLOSC2_DPARAMS_DEFAULTS;
	d.nthreads = (int16_t)nthreads;
	blosc2_storage s = {.contiguous = true, .cparams = &p, .dparams = &d};
	b2nd_context_t* ctx = b2nd_create_ctx(&s, ndim, shape, chunks, blocks, dtype, DTYPE_NUMPY_FORMAT, NULL, 0);
	if (ctx == NULL) return -1;
	int rc = b2nd_from_cbuffer(ctx, out, buf, bufsize);
	b2nd_free_ctx(ctx);
	return rc;
}

// b2nd_set_dthreads gives the array's super-chunk a decompression
// context of nthreads threads (b2nd_open_offset and b2nd_from_schunk
// leave it at the default of one).
static int b2nd_set_dthreads(b2nd_array_t* a, int nthreads) {
	blosc2_dparams d = BLOSC2_DPARAMS_DEFAULTS;
	d.nthreads = (int16_t)nthreads;
	d.schunk = a->sc;
	blosc2_context* ctx = blosc2_create_dctx(d);
	if (ctx == NULL) return -1;
	blosc2_free_ctx(a->sc->dctx);
	a->sc->dctx = ctx;
	return 0;
}

static int64_t b2nd_cframe(b2nd_array_t* a, uint8_t** out) {
	uint8_t* buf;
	int64_t n;
	bool needs_free;
	if (b2nd_to_cframe(a, &buf, &n, &needs_free) < 0) return -1;
	*out = malloc((size_t)n);
	memcpy(*out, buf, (size_t)n);
	if (needs_free) free(buf);
	return n;
}
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Array is a c-blosc2 b2nd array; Free releases it.
type Array struct{ a *C.b2nd_array_t }

// OpenArray opens the array in a frame file or sparse frame's directory
// (b2nd_open_offset at 0).
func OpenArray(path string) (*Array, error) {
	initLib()
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var a *C.b2nd_array_t
	if rc := C.b2nd_open_offset(cpath, &a, 0); rc < 0 {
		return nil, fmt.Errorf("cblosc2: b2nd_open_offset(%s) returned %d", path, int(rc))
	}
	return &Array{a}, nil
}

// ArrayFromFrame opens the array in a contiguous frame held in b (copied
// by c-blosc2).
func ArrayFromFrame(b []byte) (*Array, error) {
	initLib()
	sc, err := FromBuffer(b)
	if err != nil {
		return nil, err
	}
	var a *C.b2nd_array_t
	if rc := C.b2nd_from_schunk(sc.sc, &a); rc < 0 {
		sc.Free()
		return nil, fmt.Errorf("cblosc2: b2nd_from_schunk returned %d", int(rc))
	}
	return &Array{a}, nil
}

// ArrayFromCBuffer makes an in-memory array of data (C order) with
// b2nd_from_cbuffer; filters as in Params.
func ArrayFromCBuffer(p Params, shape []int64, chunks, blocks []int32, dtype string, data []byte) (*Array, error) {
	initLib()
	cd := C.CString(dtype)
	defer C.free(unsafe.Pointer(cd))
	nd := len(shape)
	cs := make([]C.int64_t, max(nd, 1))
	cc := make([]C.int32_t, max(nd, 1))
	cb := make([]C.int32_t, max(nd, 1))
	for i := range nd {
		cs[i], cc[i], cb[i] = C.int64_t(shape[i]), C.int32_t(chunks[i]), C.int32_t(blocks[i])
	}
	// C reads data during the call only and data holds no Go pointers,
	// so it is passed as it is: a copy would add to C's time.
	var buf unsafe.Pointer
	if len(data) > 0 {
		buf = unsafe.Pointer(&data[0])
	} else {
		buf = C.malloc(1)
		defer C.free(buf)
	}
	var a *C.b2nd_array_t
	rc := C.b2nd_make(C.int(p.Codec), C.int(p.Level), C.int(p.Typesize), C.int(max(p.Threads, 1)),
		(*C.uint8_t)(unsafe.Pointer(&p.Filters[0])), C.int8_t(nd), &cs[0], &cc[0], &cb[0], cd, buf, C.int64_t(len(data)), &a)
	if rc < 0 {
		return nil, fmt.Errorf("cblosc2: b2nd_from_cbuffer returned %d", int(rc))
	}
	return &Array{a}, nil
}

// Free releases the array.
func (a *Array) Free() { C.b2nd_free(a.a) }

// SetThreads makes the array's reads decompress with n threads.
func (a *Array) SetThreads(n int) error {
	if C.b2nd_set_dthreads(a.a, C.int(max(n, 1))) < 0 {
		return fmt.Errorf("cblosc2: blosc2_create_dctx failed")
	}
	return nil
}

// Shape returns the shape, chunk shape and block shape.
func (a *Array) Shape() (shape []int64, chunks, blocks []int32) {
	nd := int(C.b2nd_ndim(a.a))
	shape, chunks, blocks = make([]int64, nd), make([]int32, nd), make([]int32, nd)
	for i := range nd {
		shape[i] = int64(C.b2nd_shape_at(a.a, C.int(i)))
		chunks[i] = int32(C.b2nd_chunk_at(a.a, C.int(i)))
		blocks[i] = int32(C.b2nd_block_at(a.a, C.int(i)))
	}
	return
}

// DType returns the array's dtype string.
func (a *Array) DType() string {
	p := C.b2nd_dtype_of(a.a)
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// Itemsize returns the super-chunk's typesize.
func (a *Array) Itemsize() int { return int(C.b2nd_typesize(a.a)) }

// ToCBuffer reads the whole array (b2nd_to_cbuffer) into dst, which it
// grows as needed.
func (a *Array) ToCBuffer(dst []byte) ([]byte, error) {
	n := int(C.b2nd_nitems(a.a)) * a.Itemsize()
	if cap(dst) < n+1 {
		dst = make([]byte, n, n+1)
	}
	dst = dst[:n]
	if n == 0 {
		return dst, nil
	}
	if rc := C.b2nd_to_cbuffer(a.a, unsafe.Pointer(&dst[:1][0]), C.int64_t(n)); rc < 0 {
		return nil, fmt.Errorf("cblosc2: b2nd_to_cbuffer returned %d", int(rc))
	}
	return dst, nil
}

// GetSlice reads [start, stop) (b2nd_get_slice_cbuffer) into dst, which
// it grows as needed.
func (a *Array) GetSlice(dst []byte, start, stop []int64) ([]byte, error) {
	nd := len(start)
	n := a.Itemsize()
	cs := make([]C.int64_t, max(nd, 1))
	ce := make([]C.int64_t, max(nd, 1))
	sh := make([]C.int64_t, max(nd, 1))
	for i := range nd {
		cs[i], ce[i], sh[i] = C.int64_t(start[i]), C.int64_t(stop[i]), C.int64_t(stop[i]-start[i])
		n *= int(stop[i] - start[i])
	}
	if cap(dst) < n+1 {
		dst = make([]byte, n, n+1)
	}
	dst = dst[:n]
	if rc := C.b2nd_get_slice_cbuffer(a.a, &cs[0], &ce[0], unsafe.Pointer(&dst[:1][0]), &sh[0], C.int64_t(n)); rc < 0 {
		return nil, fmt.Errorf("cblosc2: b2nd_get_slice_cbuffer returned %d", int(rc))
	}
	return dst, nil
}

// Frame returns the array's contiguous frame (b2nd_to_cframe).
func (a *Array) Frame() ([]byte, error) {
	var out *C.uint8_t
	n := C.b2nd_cframe(a.a, &out)
	if n < 0 {
		return nil, fmt.Errorf("cblosc2: b2nd_to_cframe failed")
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// SetSlice is b2nd_set_slice_cbuffer.
func (a *Array) SetSlice(src []byte, start, stop []int64) error {
	nd := len(start)
	cs := make([]C.int64_t, max(nd, 1))
	ce := make([]C.int64_t, max(nd, 1))
	sh := make([]C.int64_t, max(nd, 1))
	for i := range nd {
		cs[i], ce[i], sh[i] = C.int64_t(start[i]), C.int64_t(stop[i]), C.int64_t(stop[i]-start[i])
	}
	buf := C.CBytes(append(src, 0))
	defer C.free(buf)
	if rc := C.b2nd_set_slice_cbuffer(buf, &sh[0], C.int64_t(len(src)), &cs[0], &ce[0], a.a); rc < 0 {
		return fmt.Errorf("cblosc2: b2nd_set_slice_cbuffer returned %d", int(rc))
	}
	return nil
}

// Resize is b2nd_resize (start nil: at the ends).
func (a *Array) Resize(newShape, start []int64) error {
	nd := len(newShape)
	ns := make([]C.int64_t, max(nd, 1))
	st := make([]C.int64_t, max(nd, 1))
	for i := range nd {
		ns[i] = C.int64_t(newShape[i])
		if start != nil {
			st[i] = C.int64_t(start[i])
		}
	}
	var sp *C.int64_t
	if start != nil {
		sp = &st[0]
	}
	if rc := C.b2nd_resize(a.a, &ns[0], sp); rc < 0 {
		return fmt.Errorf("cblosc2: b2nd_resize returned %d", int(rc))
	}
	return nil
}

// Insert is b2nd_insert.
func (a *Array) Insert(src []byte, axis int, at int64) error {
	buf := C.CBytes(append(src, 0))
	defer C.free(buf)
	if rc := C.b2nd_insert(a.a, buf, C.int64_t(len(src)), C.int8_t(axis), C.int64_t(at)); rc < 0 {
		return fmt.Errorf("cblosc2: b2nd_insert returned %d", int(rc))
	}
	return nil
}

// Append is b2nd_append.
func (a *Array) Append(src []byte, axis int) error {
	buf := C.CBytes(append(src, 0))
	defer C.free(buf)
	if rc := C.b2nd_append(a.a, buf, C.int64_t(len(src)), C.int8_t(axis)); rc < 0 {
		return fmt.Errorf("cblosc2: b2nd_append returned %d", int(rc))
	}
	return nil
}

// Delete is b2nd_delete.
func (a *Array) Delete(axis int, at, n int64) error {
	if rc := C.b2nd_delete(a.a, C.int8_t(axis), C.int64_t(at), C.int64_t(n)); rc < 0 {
		return fmt.Errorf("cblosc2: b2nd_delete returned %d", int(rc))
	}
	return nil
}
