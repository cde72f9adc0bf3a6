//go:build cblosc2 && cgo

package crosscheck

import "github.com/goblosc/blosc"

// Helpers only the c-blosc2 cross-checks use.

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func hasFilter(h *blosc.Header, f blosc.Filter) bool {
	for _, g := range h.Filters {
		if g == f {
			return true
		}
	}
	return false
}
