//go:build !unix

package guard

func newBuffer(n int, _ Side) *Buffer {
	return &Buffer{Bytes: make([]byte, n)}
}
