package blosc

import "errors"

// Sentinel errors. Every error the package returns wraps one of them, with
// context, so callers test with errors.Is.
var (
	// ErrCorrupt: the input is not a valid chunk (truncated, a size that
	// lies, an offset outside the buffer, a stream that does not decode to
	// the size it claims).
	ErrCorrupt = errors.New("blosc: corrupt input")
	// ErrUnsupported: a valid-looking input uses a format version, codec or
	// filter this package does not implement.
	ErrUnsupported = errors.New("blosc: unsupported")
	// ErrInvalidOptions: the options (codec, level, typesize, blocksize,
	// filters) are out of range or inconsistent.
	ErrInvalidOptions = errors.New("blosc: invalid options")
	// ErrTooLarge: an input larger than a chunk can describe
	// (MaxBufferSize).
	ErrTooLarge = errors.New("blosc: input too large")
	// ErrShortBuffer: a caller-supplied buffer is too small for an
	// operation that cannot grow it.
	ErrShortBuffer = errors.New("blosc: buffer too short")
	// ErrRange: items, bytes or a chunk index outside the chunk or
	// super-chunk asked.
	ErrRange = errors.New("blosc: item range out of bounds")
	// ErrNotFound: a metalayer or variable-length metalayer of that name
	// does not exist.
	ErrNotFound = errors.New("blosc: not found")
)
