//go:build !unix || aix

package blosc

import (
	"fmt"
	"os"
)

func flockFile(f *os.File, exclusive bool) error {
	return fmt.Errorf("%w: frame locking on this system", ErrUnsupported)
}

func unlockFile(f *os.File) error { return nil }
