//go:build !purego && !noasm && gc

package zstddec

import (
	"testing"
	"unsafe"
)

// TestSeqCtxLayout pins the offsets seqasm_amd64.s addresses: seqCtx's
// fields and the Decoder's table buffers after it.
func TestSeqCtxLayout(t *testing.T) {
	var d Decoder
	c := &d.sc
	base := uintptr(unsafe.Pointer(c))
	off := func(p unsafe.Pointer) uintptr { return uintptr(p) - base }
	for _, f := range []struct {
		name      string
		got, want uintptr
	}{
		{"buf", off(unsafe.Pointer(&c.buf)), 0}, {"bp", off(unsafe.Pointer(&c.bp)), 8},
		{"used", off(unsafe.Pointer(&c.used)), 16}, {"llState", off(unsafe.Pointer(&c.llState)), 24},
		{"mlState", off(unsafe.Pointer(&c.mlState)), 32}, {"ofState", off(unsafe.Pointer(&c.ofState)), 40},
		{"out", off(unsafe.Pointer(&c.out)), 48}, {"pos", off(unsafe.Pointer(&c.pos)), 56},
		{"outLimit", off(unsafe.Pointer(&c.outLimit)), 64}, {"lits", off(unsafe.Pointer(&c.lits)), 72},
		{"lp", off(unsafe.Pointer(&c.lp)), 80}, {"litLimit", off(unsafe.Pointer(&c.litLimit)), 88},
		{"window", off(unsafe.Pointer(&c.window)), 96}, {"rep", off(unsafe.Pointer(&c.rep)), 104},
		{"nseq", off(unsafe.Pointer(&c.nseq)), 128}, {"ll", off(unsafe.Pointer(&c.ll)), 136},
		{"ml", off(unsafe.Pointer(&c.ml)), 144}, {"off", off(unsafe.Pointer(&c.off)), 152},
		{"outEnd", off(unsafe.Pointer(&c.outEnd)), 160}, {"litEnd", off(unsafe.Pointer(&c.litEnd)), 168},
		{"Decoder.llBuf", off(unsafe.Pointer(&d.llBuf)), 176}, {"Decoder.mlBuf", off(unsafe.Pointer(&d.mlBuf)), 4272},
		{"Decoder.ofBuf", off(unsafe.Pointer(&d.ofBuf)), 8368},
		{"seqEntry.nbAdd", unsafe.Offsetof(seqEntry{}.nbAdd), 4}, {"seqEntry.nbBits", unsafe.Offsetof(seqEntry{}.nbBits), 5},
		{"seqEntry.next", unsafe.Offsetof(seqEntry{}.next), 6}, {"seqEntry", unsafe.Sizeof(seqEntry{}), 8},
	} {
		if f.got != f.want {
			t.Errorf("%s at %d, the assembly reads %d", f.name, f.got, f.want)
		}
	}
}
