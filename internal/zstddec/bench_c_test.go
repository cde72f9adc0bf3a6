//go:build cblosc && cgo

package zstddec

import (
	"fmt"

	"github.com/goblosc/blosc/internal/czstd"
)

func init() {
	cFrame = czstd.Compress
	cDecode = func(dst, src []byte) error {
		n, err := czstd.Decompress(dst, src)
		if err == nil && n != len(dst) {
			err = fmt.Errorf("libzstd gave %d bytes, want %d", n, len(dst))
		}
		return err
	}
}
