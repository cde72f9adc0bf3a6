//go:build !purego && !noasm && gc

package zstddec

import (
	"testing"
	"unsafe"
)

// TestSeqCtxLayout pins the field offsets seqasm_amd64.s addresses.
func TestSeqCtxLayout(t *testing.T) {
	var c seqCtx
	for _, f := range []struct {
		name string
		got  uintptr
		want uintptr
	}{
		{"buf", unsafe.Offsetof(c.buf), 0}, {"bp", unsafe.Offsetof(c.bp), 8}, {"used", unsafe.Offsetof(c.used), 16},
		{"llt", unsafe.Offsetof(c.llt), 24}, {"mlt", unsafe.Offsetof(c.mlt), 32}, {"oft", unsafe.Offsetof(c.oft), 40},
		{"llState", unsafe.Offsetof(c.llState), 48}, {"mlState", unsafe.Offsetof(c.mlState), 56},
		{"ofState", unsafe.Offsetof(c.ofState), 64}, {"out", unsafe.Offsetof(c.out), 72}, {"pos", unsafe.Offsetof(c.pos), 80},
		{"outLimit", unsafe.Offsetof(c.outLimit), 88}, {"lits", unsafe.Offsetof(c.lits), 96}, {"lp", unsafe.Offsetof(c.lp), 104},
		{"litLimit", unsafe.Offsetof(c.litLimit), 112}, {"window", unsafe.Offsetof(c.window), 120},
		{"rep", unsafe.Offsetof(c.rep), 128}, {"nseq", unsafe.Offsetof(c.nseq), 152}, {"ll", unsafe.Offsetof(c.ll), 160},
		{"ml", unsafe.Offsetof(c.ml), 168}, {"off", unsafe.Offsetof(c.off), 176}, {"outEnd", unsafe.Offsetof(c.outEnd), 184},
		{"litEnd", unsafe.Offsetof(c.litEnd), 192}, {"tmp", unsafe.Offsetof(c.tmp), 200},
	} {
		if unsafe.Sizeof(uintptr(0)) == 8 && f.got != f.want {
			t.Errorf("seqCtx.%s at %d, the assembly reads %d", f.name, f.got, f.want)
		}
	}
}
