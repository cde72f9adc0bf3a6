package bitshuffle

import (
	"testing"

	"github.com/goblosc/blosc/internal/guard"
)

// guarded returns n bytes of fresh memory next to an inaccessible page
// (internal/guard): the page after the last byte when atEnd, else the page
// before the first.
func guarded(t *testing.T, n int, atEnd bool) []byte {
	t.Helper()
	side := guard.Start
	if atEnd {
		side = guard.End
	}
	b := guard.New(n, side)
	t.Cleanup(b.Free)
	return b.Bytes
}
