// Package guard gives tests byte buffers that sit against inaccessible
// memory, so a kernel that reads or writes one byte too far faults instead
// of silently passing. On unix the neighbours are PROT_NONE pages; elsewhere
// the buffers are plain slices and catch nothing beyond what the race
// detector or bounds checks would.
package guard

// Buffer is a guarded allocation. Bytes is the usable slice; Free releases
// the mapping and must be called once Bytes is no longer used.
type Buffer struct {
	Bytes []byte
	free  func()
}

// Free releases the buffer.
func (b *Buffer) Free() {
	if b.free != nil {
		b.free()
		b.free = nil
	}
	b.Bytes = nil
}

// Side says which end of the buffer touches the guard page.
type Side int

const (
	// End puts the last byte right before the guard page: over-reads and
	// over-writes fault.
	End Side = iota
	// Start puts the first byte right after the guard page: accesses
	// before the buffer fault.
	Start
)

// New returns n bytes placed against a guard page on side.
func New(n int, side Side) *Buffer {
	return newBuffer(n, side)
}
