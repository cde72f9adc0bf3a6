//go:build cblosc2 && cgo

package cblosc2

/*
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <blosc2.h>

static blosc2_schunk* new_schunk(int compcode, int clevel, int typesize, int blocksize,
                                 int splitmode, const uint8_t* filters, const uint8_t* meta,
                                 const char* urlpath, int nthreads, bool contiguous) {
	blosc2_cparams p = BLOSC2_CPARAMS_DEFAULTS;
	p.compcode = (uint8_t)compcode;
	p.clevel = (uint8_t)clevel;
	p.typesize = typesize;
	p.nthreads = (int16_t)nthreads;
	p.blocksize = blocksize;
	p.splitmode = splitmode;
	for (int i = 0; i < BLOSC2_MAX_FILTERS; i++) {
		p.filters[i] = filters[i];
		p.filters_meta[i] = meta[i];
	}
	blosc2_dparams d = BLOSC2_DPARAMS_DEFAULTS;
	d.nthreads = (int16_t)nthreads;
	blosc2_storage s = {.contiguous = contiguous, .urlpath = (char*)urlpath, .cparams = &p, .dparams = &d};
	return blosc2_schunk_new(&s);
}

static int64_t to_buffer(blosc2_schunk* sc, uint8_t** out) {
	bool needs_free;
	uint8_t* buf;
	int64_t n = blosc2_schunk_to_buffer(sc, &buf, &needs_free);
	if (n < 0) return n;
	*out = malloc((size_t)n);
	memcpy(*out, buf, (size_t)n);
	if (needs_free) free(buf);
	return n;
}

static int64_t sc_nchunks(blosc2_schunk* sc) { return sc->nchunks; }
static int64_t sc_nbytes(blosc2_schunk* sc) { return sc->nbytes; }
static int32_t sc_chunksize(blosc2_schunk* sc) { return sc->chunksize; }
static int sc_nmeta(blosc2_schunk* sc) { return sc->nmetalayers; }
static int sc_nvlmeta(blosc2_schunk* sc) { return sc->nvlmetalayers; }
static const char* sc_vlname(blosc2_schunk* sc, int i) { return sc->vlmetalayers[i]->name; }
static const char* sc_metaname(blosc2_schunk* sc, int i) { return sc->metalayers[i]->name; }
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// SChunk is a c-blosc2 super-chunk; Free releases it.
type SChunk struct{ sc *C.blosc2_schunk }

// NewSChunk creates an empty contiguous super-chunk with p's settings
// (p.Threads for compression and decompression, at least 1), in memory when path is "", else in that file (which must not
// exist).
func NewSChunk(p Params, path string) (*SChunk, error) {
	initLib()
	var cpath *C.char
	if path != "" {
		cpath = C.CString(path)
		defer C.free(unsafe.Pointer(cpath))
	}
	sc := C.new_schunk(C.int(p.Codec), C.int(p.Level), C.int(p.Typesize), C.int(p.Blocksize), C.int(p.Split),
		(*C.uint8_t)(unsafe.Pointer(&p.Filters[0])), (*C.uint8_t)(unsafe.Pointer(&p.FilterMeta[0])), cpath, C.int(max(p.Threads, 1)), true)
	if sc == nil {
		return nil, fmt.Errorf("cblosc2: blosc2_schunk_new failed")
	}
	return &SChunk{sc}, nil
}

// NewChunkList creates an empty in-memory super-chunk that is not a
// contiguous frame (storage.contiguous false): c-blosc2 keeps its chunks
// as separate buffers in a list, so an append neither reallocates nor
// copies the chunks before it. It is c-blosc2's fastest way to build a
// super-chunk in memory, and what a Go SChunk is compared with.
func NewChunkList(p Params) (*SChunk, error) {
	initLib()
	sc := C.new_schunk(C.int(p.Codec), C.int(p.Level), C.int(p.Typesize), C.int(p.Blocksize), C.int(p.Split),
		(*C.uint8_t)(unsafe.Pointer(&p.Filters[0])), (*C.uint8_t)(unsafe.Pointer(&p.FilterMeta[0])), nil, C.int(max(p.Threads, 1)), false)
	if sc == nil {
		return nil, fmt.Errorf("cblosc2: blosc2_schunk_new failed")
	}
	return &SChunk{sc}, nil
}

// FromBuffer opens a contiguous frame held in b (copied).
func FromBuffer(b []byte) (*SChunk, error) {
	initLib()
	if len(b) == 0 {
		return nil, fmt.Errorf("cblosc2: empty frame")
	}
	sc := C.blosc2_schunk_from_buffer((*C.uint8_t)(ptr(b)), C.int64_t(len(b)), true)
	if sc == nil {
		return nil, fmt.Errorf("cblosc2: blosc2_schunk_from_buffer refused the frame")
	}
	return &SChunk{sc}, nil
}

// Open opens a frame file.
func Open(path string) (*SChunk, error) {
	initLib()
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	sc := C.blosc2_schunk_open(cpath)
	if sc == nil {
		return nil, fmt.Errorf("cblosc2: blosc2_schunk_open refused %s", path)
	}
	return &SChunk{sc}, nil
}

// Free releases the super-chunk.
func (s *SChunk) Free() { C.blosc2_schunk_free(s.sc) }

func rc64(what string, n C.int64_t) error {
	if n < 0 {
		return fmt.Errorf("cblosc2: %s returned %d", what, int64(n))
	}
	return nil
}

// AppendBuffer compresses b into a new chunk.
func (s *SChunk) AppendBuffer(b []byte) error {
	return rc64("blosc2_schunk_append_buffer", C.blosc2_schunk_append_buffer(s.sc, ptr(b), C.int32_t(len(b))))
}

// AppendChunk appends a ready-made chunk (copied).
func (s *SChunk) AppendChunk(c []byte) error {
	return rc64("blosc2_schunk_append_chunk", C.blosc2_schunk_append_chunk(s.sc, (*C.uint8_t)(ptr(c)), true))
}

// InsertChunk inserts a chunk (copied) before chunk i.
func (s *SChunk) InsertChunk(i int, c []byte) error {
	return rc64("blosc2_schunk_insert_chunk", C.blosc2_schunk_insert_chunk(s.sc, C.int64_t(i), (*C.uint8_t)(ptr(c)), true))
}

// UpdateChunk replaces chunk i (copied).
func (s *SChunk) UpdateChunk(i int, c []byte) error {
	return rc64("blosc2_schunk_update_chunk", C.blosc2_schunk_update_chunk(s.sc, C.int64_t(i), (*C.uint8_t)(ptr(c)), true))
}

// DeleteChunk removes chunk i.
func (s *SChunk) DeleteChunk(i int) error {
	return rc64("blosc2_schunk_delete_chunk", C.blosc2_schunk_delete_chunk(s.sc, C.int64_t(i)))
}

// FillSpecial fills an empty super-chunk with nitems of a special value
// (1 zeros, 2 NaN, 4 uninitialised) in chunks of chunksize bytes.
func (s *SChunk) FillSpecial(nitems int64, kind, chunksize int) error {
	return rc64("blosc2_schunk_fill_special", C.blosc2_schunk_fill_special(s.sc, C.int64_t(nitems), C.int(kind), C.int32_t(chunksize)))
}

// AddMeta adds a fixed-size metalayer.
func (s *SChunk) AddMeta(name string, content []byte) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return rc64("blosc2_meta_add", C.int64_t(C.blosc2_meta_add(s.sc, cname, (*C.uint8_t)(ptr(content)), C.int32_t(len(content)))))
}

// AddVLMeta adds a variable-length metalayer (default parameters).
func (s *SChunk) AddVLMeta(name string, content []byte) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return rc64("blosc2_vlmeta_add", C.int64_t(C.blosc2_vlmeta_add(s.sc, cname, (*C.uint8_t)(ptr(content)), C.int32_t(len(content)), nil)))
}

// UpdateVLMeta replaces a variable-length metalayer.
func (s *SChunk) UpdateVLMeta(name string, content []byte) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return rc64("blosc2_vlmeta_update", C.int64_t(C.blosc2_vlmeta_update(s.sc, cname, (*C.uint8_t)(ptr(content)), C.int32_t(len(content)), nil)))
}

// DeleteVLMeta removes a variable-length metalayer.
func (s *SChunk) DeleteVLMeta(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return rc64("blosc2_vlmeta_delete", C.int64_t(C.blosc2_vlmeta_delete(s.sc, cname)))
}

// Meta returns a fixed-size metalayer's content.
func (s *SChunk) Meta(name string) ([]byte, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var content *C.uint8_t
	var n C.int32_t
	if rc := C.blosc2_meta_get(s.sc, cname, &content, &n); rc < 0 {
		return nil, fmt.Errorf("cblosc2: blosc2_meta_get(%q) returned %d", name, int(rc))
	}
	defer C.free(unsafe.Pointer(content))
	return C.GoBytes(unsafe.Pointer(content), C.int(n)), nil
}

// VLMeta returns a variable-length metalayer's (decompressed) content.
func (s *SChunk) VLMeta(name string) ([]byte, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var content *C.uint8_t
	var n C.int32_t
	if rc := C.blosc2_vlmeta_get(s.sc, cname, &content, &n); rc < 0 {
		return nil, fmt.Errorf("cblosc2: blosc2_vlmeta_get(%q) returned %d", name, int(rc))
	}
	defer C.free(unsafe.Pointer(content))
	return C.GoBytes(unsafe.Pointer(content), C.int(n)), nil
}

// MetaNames and VLMetaNames list the metalayers in order.
func (s *SChunk) MetaNames() []string {
	names := make([]string, int(C.sc_nmeta(s.sc)))
	for i := range names {
		names[i] = C.GoString(C.sc_metaname(s.sc, C.int(i)))
	}
	return names
}

func (s *SChunk) VLMetaNames() []string {
	names := make([]string, int(C.sc_nvlmeta(s.sc)))
	for i := range names {
		names[i] = C.GoString(C.sc_vlname(s.sc, C.int(i)))
	}
	return names
}

// NChunks, Nbytes and ChunkSize are the super-chunk's counters.
func (s *SChunk) NChunks() int   { return int(C.sc_nchunks(s.sc)) }
func (s *SChunk) Nbytes() int64  { return int64(C.sc_nbytes(s.sc)) }
func (s *SChunk) ChunkSize() int { return int(C.sc_chunksize(s.sc)) }

// ToBuffer returns the contiguous frame.
func (s *SChunk) ToBuffer() ([]byte, error) {
	var out *C.uint8_t
	n := C.to_buffer(s.sc, &out)
	if n < 0 {
		return nil, fmt.Errorf("cblosc2: blosc2_schunk_to_buffer returned %d", int64(n))
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// DecompressChunk decodes chunk i into dst and returns its size.
func (s *SChunk) DecompressChunk(i int, dst []byte) (int, error) {
	n := C.blosc2_schunk_decompress_chunk(s.sc, C.int64_t(i), ptr(dst), C.int32_t(len(dst)))
	if n < 0 {
		return 0, fmt.Errorf("cblosc2: blosc2_schunk_decompress_chunk(%d) returned %d", i, int(n))
	}
	return int(n), nil
}

// Decompress decodes every chunk in order; chunkMax bounds a chunk's size.
func (s *SChunk) Decompress(chunkMax int) ([]byte, error) {
	var out []byte
	buf := make([]byte, chunkMax)
	for i := 0; i < s.NChunks(); i++ {
		n, err := s.DecompressChunk(i, buf)
		if err != nil {
			return nil, err
		}
		out = append(out, buf[:n]...)
	}
	return out, nil
}

// Refresh is blosc2_schunk_refresh: it re-reads the counters of a frame
// file another handle changed and reports whether they had changed.
func (s *SChunk) Refresh() (bool, error) {
	rc := C.blosc2_schunk_refresh(s.sc)
	if rc < 0 {
		return false, fmt.Errorf("cblosc2: blosc2_schunk_refresh: %d", int(rc))
	}
	return rc > 0, nil
}

// Lock is blosc2_schunk_lock: the frame's exclusive lock, held until
// Unlock, when locking is on (BLOSC_LOCKING).
func (s *SChunk) Lock() error {
	if rc := C.blosc2_schunk_lock(s.sc); rc < 0 {
		return fmt.Errorf("cblosc2: blosc2_schunk_lock: %d", int(rc))
	}
	return nil
}

// Unlock is blosc2_schunk_unlock.
func (s *SChunk) Unlock() error {
	if rc := C.blosc2_schunk_unlock(s.sc); rc < 0 {
		return fmt.Errorf("cblosc2: blosc2_schunk_unlock: %d", int(rc))
	}
	return nil
}
