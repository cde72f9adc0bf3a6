//go:build cblosc && cgo

package zstddec_test

import (
	"fmt"

	"github.com/goblosc/blosc/internal/czstd"
)

func init() {
	dc := czstd.NewDCtx()
	cDecodeStream = func(dst, src []byte) error {
		n, err := dc.Decompress(dst, src)
		if err == nil && n != len(dst) {
			err = fmt.Errorf("libzstd gave %d bytes, want %d", n, len(dst))
		}
		return err
	}
}
