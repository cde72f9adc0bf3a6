//go:build unix

package guard

import (
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestNeighboursFault proves the guard pages are really inaccessible: one
// byte past the end (or before the start) must fault.
func TestNeighboursFault(t *testing.T) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for _, side := range []Side{End, Start} {
		b := New(100, side)
		p := unsafe.Pointer(unsafe.SliceData(b.Bytes))
		if side == End {
			p = unsafe.Add(p, len(b.Bytes))
		} else {
			p = unsafe.Add(p, -1)
		}
		faulted := func() (f bool) {
			defer func() { f = recover() != nil }()
			_ = *(*byte)(p)
			return false
		}()
		b.Free()
		if !faulted {
			t.Errorf("side %d: touching the neighbour did not fault", side)
		}
	}
}
