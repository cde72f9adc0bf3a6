package blosc

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Plugin ids. c-blosc2 numbers its own filters and codecs below 32, gives
// 32..159 to the plugins it registers itself (globally, one id for each
// across every Blosc2 library) and leaves 160..255 to programs.
const (
	firstPluginID = 32
	firstUserID   = 160
)

// FilterParams is what a filter plugin is told about the block it works on.
type FilterParams struct {
	// Meta is the filter's meta byte: the slot's Options.FilterMeta when
	// compressing, the chunk header's when decompressing.
	Meta uint8
	// Typesize is the chunk's element size.
	Typesize int
}

// A FilterPlugin is a filter that RegisterFilter adds to the Blosc2
// pipeline. Forward and Backward work on one block, src into dst: the two
// do not overlap, len(dst) == len(src), and that length is anything from 1
// to the chunk's block size (the last block of a chunk is shorter and need
// not hold whole elements). They must write every byte of dst and must not
// keep either slice. They are called from
// several goroutines at once (blocks are filtered in parallel). An error
// from Forward fails the compression; from Backward, the decompression,
// wrapping ErrCorrupt unless it wraps one of this package's errors.
type FilterPlugin interface {
	Forward(dst, src []byte, p FilterParams) error
	Backward(dst, src []byte, p FilterParams) error
}

// CodecParams is what a codec plugin is told about the stream it codes.
type CodecParams struct {
	// Meta is the codec's meta byte (c-blosc2's compcode_meta):
	// Options.CodecMeta when compressing, the chunk header's when
	// decompressing.
	Meta uint8
	// Level is the compression level, 1..9 (0 when decompressing).
	Level int
	// Typesize is the chunk's element size.
	Typesize int
}

// A CodecPlugin is a codec that RegisterCodec adds to Blosc2 chunks. A
// block is coded as one stream or, when the chunk splits blocks, as
// typesize streams, each passed to one call.
//
// Compress writes src compressed into dst and returns the length; 0, or a
// length not below len(src), stores the stream as it is, as c-blosc2
// does; len(dst) is the room left, at most len(src). Decompress fills
// dst, whose length is the stream's size in the chunk, from src and
// returns the bytes written, which must be len(dst); streams stored as
// they are or as runs of one byte never reach it. Both are called from
// several goroutines at once and must not keep the slices.
type CodecPlugin interface {
	Compress(dst, src []byte, p CodecParams) (int, error)
	Decompress(dst, src []byte, p CodecParams) (int, error)
}

type filterEntry struct {
	name string
	f    FilterPlugin
}

type codecEntry struct {
	name    string
	version uint8
	c       CodecPlugin
}

// registry is immutable once published: RegisterFilter and RegisterCodec
// copy it, change the copy and swap the pointer, so lookups, which run for
// every block of a chunk using a plugin, take one atomic load and no lock.
// The built-in filters and codecs never look here.
type registry struct {
	filters [256]*filterEntry
	codecs  [256]*codecEntry
}

var (
	plugins    atomic.Pointer[registry]
	registerMu sync.Mutex
)

func lookupFilter(f Filter) *filterEntry {
	if r := plugins.Load(); r != nil {
		return r.filters[f]
	}
	return nil
}

func lookupCodec(c Codec) *codecEntry {
	if r := plugins.Load(); r != nil {
		return r.codecs[c]
	}
	return nil
}

func pluginFilterName(f Filter) string {
	if e := lookupFilter(f); e != nil {
		return e.name
	}
	switch f {
	case ByteDeltaLegacy:
		return "bytedelta_buggy"
	case ByteDelta:
		return "bytedelta"
	case IntTrunc:
		return "int_trunc"
	case 32:
		return "ndcell"
	case 33:
		return "ndmean"
	}
	return ""
}

func pluginCodecName(c Codec) string {
	if e := lookupCodec(c); e != nil {
		return e.name
	}
	if int(c) < len(pluginCodecNames) {
		return pluginCodecNames[c]
	}
	return ""
}

func pluginCodecByName(s string) (Codec, bool) {
	r := plugins.Load()
	if r == nil {
		return 0, false
	}
	for i, e := range r.codecs {
		if e != nil && strings.EqualFold(e.name, s) {
			return Codec(i), true
		}
	}
	return 0, false
}

func pluginFilterByName(s string) (Filter, bool) {
	r := plugins.Load()
	if r == nil {
		return 0, false
	}
	for i, e := range r.filters {
		if e != nil && strings.EqualFold(e.name, s) {
			return Filter(i), true
		}
	}
	return 0, false
}

// RegisterFilter makes filter id available to every API that writes or
// reads Blosc2 chunks (chunks, super-chunks, frames), as c-blosc2's
// blosc2_register_filter does: a program plugs in a binding for a filter
// c-blosc2 registers as a plugin (ndcell 32, ndmean 33, or any id from
// 37 to 159 the Blosc team assigns) or one of its own (160..255). The ids
// this package implements (ByteDeltaLegacy, ByteDelta, IntTrunc) cannot
// be replaced. Registering an id again under the same name replaces the
// implementation; under another name it fails. It is safe to call from
// several goroutines, also while others compress and decompress, which
// see the filter from their next chunk on.
func RegisterFilter(id Filter, name string, f FilterPlugin) error {
	switch {
	case id < firstPluginID:
		return fmt.Errorf("%w: filter id %d is c-blosc2's own; plugins take 32..255", ErrInvalidOptions, id)
	case builtinPluginFilter(id):
		return fmt.Errorf("%w: filter %d (%s) is built in", ErrInvalidOptions, id, id)
	case f == nil || name == "":
		return fmt.Errorf("%w: filter %d needs a name and an implementation", ErrInvalidOptions, id)
	}
	registerMu.Lock()
	defer registerMu.Unlock()
	r := new(registry)
	if old := plugins.Load(); old != nil {
		*r = *old
	}
	if e := r.filters[id]; e != nil && e.name != name {
		return fmt.Errorf("%w: filter %d is registered as %q", ErrInvalidOptions, id, e.name)
	}
	r.filters[id] = &filterEntry{name: name, f: f}
	plugins.Store(r)
	return nil
}

// RegisterCodec makes codec id available to every API that writes or
// reads Blosc2 chunks, as c-blosc2's blosc2_register_codec does: a program
// plugs in a binding for a codec c-blosc2 registers as a plugin (ndlz 32,
// zfp 33..35, the JPEG 2000 codecs 36, 37, 39, 40, openzl 38) or one of
// its own (160..255). A chunk records a plugin codec by its id and writes
// version, the codec's format version, in the byte c-blosc2 writes it
// (header byte 1). Registering an id again under the same name replaces
// the implementation; under another name it fails. It is safe to call
// from several goroutines, also while others compress and decompress.
func RegisterCodec(id Codec, name string, version uint8, c CodecPlugin) error {
	switch {
	case id < firstPluginID:
		return fmt.Errorf("%w: codec id %d is c-blosc2's own; plugins take 32..255", ErrInvalidOptions, id)
	case c == nil || name == "":
		return fmt.Errorf("%w: codec %d needs a name and an implementation", ErrInvalidOptions, id)
	}
	for i, n := range codecNames {
		if strings.EqualFold(n, name) {
			return fmt.Errorf("%w: codec name %q is codec %d's", ErrInvalidOptions, name, i)
		}
	}
	registerMu.Lock()
	defer registerMu.Unlock()
	r := new(registry)
	if old := plugins.Load(); old != nil {
		*r = *old
	}
	if e := r.codecs[id]; e != nil && e.name != name {
		return fmt.Errorf("%w: codec %d is registered as %q", ErrInvalidOptions, id, e.name)
	}
	for i, e := range r.codecs {
		if e != nil && i != int(id) && strings.EqualFold(e.name, name) {
			return fmt.Errorf("%w: codec name %q is registered for codec %d", ErrInvalidOptions, name, i)
		}
	}
	r.codecs[id] = &codecEntry{name: name, version: version, c: c}
	plugins.Store(r)
	return nil
}

func builtinPluginFilter(f Filter) bool {
	return f == ByteDeltaLegacy || f == ByteDelta || f == IntTrunc
}

// knownFilter reports whether the pipeline can run filter f: one of the
// built-in filters or a registered plugin.
func knownFilter(f Filter) bool {
	return f <= TruncPrec || builtinPluginFilter(f) || (f >= firstPluginID && lookupFilter(f) != nil)
}

// unimplementedError reports a filter or codec id this package cannot run.
// It wraps ErrUnsupported and never ErrCorrupt, also inside a frame (see
// frameChunkErr): the id may well be a real filter or codec (a c-blosc2
// plugin, a program's own) that was not registered.
type unimplementedError struct{ msg string }

func (e *unimplementedError) Error() string { return ErrUnsupported.Error() + ": " + e.msg }
func (e *unimplementedError) Unwrap() error { return ErrUnsupported }

func isUnimplemented(err error) bool {
	var u *unimplementedError
	return errors.As(err, &u)
}

// unsupportedFilter is the error for a filter id the pipeline cannot run.
func unsupportedFilter(f Filter, slot int) error {
	return &unimplementedError{fmt.Sprintf("filter %d in slot %d (%s)", uint8(f), slot, describeFilter(f))}
}

func describeFilter(f Filter) string {
	switch {
	case f == 32:
		return "c-blosc2's ndcell plugin, not implemented; RegisterFilter can add it"
	case f == 33:
		return "c-blosc2's ndmean plugin, not implemented; RegisterFilter can add it"
	case f <= 31:
		return "an id c-blosc2 reserves for its own future filters"
	case f < firstUserID:
		return "a c-blosc2 global plugin id not registered here; RegisterFilter can add it"
	}
	return "a user-defined filter id not registered here; RegisterFilter can add it"
}

// unsupportedCodec is the error for a codec a chunk names that cannot be
// decoded: a c-blosc2 plugin codec or a program's own, not registered.
func unsupportedCodec(id uint8) error {
	return &unimplementedError{fmt.Sprintf("codec %d (%s)", id, describeCodec(id))}
}

var pluginCodecNames = [...]string{
	32: "ndlz", 33: "zfp_acc", 34: "zfp_prec", 35: "zfp_rate", 36: "openhtj2k",
	37: "grok", 38: "openzl", 39: "j2k", 40: "htj2k",
}

func describeCodec(id uint8) string {
	switch {
	case int(id) < len(pluginCodecNames) && pluginCodecNames[id] != "":
		return "c-blosc2's " + pluginCodecNames[id] + " plugin, not implemented; RegisterCodec can add it"
	case id < firstPluginID:
		return "not a codec c-blosc2 defines"
	case id < firstUserID:
		return "a c-blosc2 global plugin id not registered here; RegisterCodec can add it"
	}
	return "a user-defined codec id not registered here; RegisterCodec can add it"
}

// pluginErr wraps an error a plugin returned while decoding: a plugin
// that cannot decode its input reports corrupt input unless it said
// otherwise with one of this package's errors.
func pluginErr(what string, err error) error {
	for _, s := range []error{ErrCorrupt, ErrUnsupported, ErrShortBuffer, ErrInvalidOptions, ErrTooLarge} {
		if errors.Is(err, s) {
			return fmt.Errorf("%s: %w", what, err)
		}
	}
	return fmt.Errorf("%w: %s: %w", ErrCorrupt, what, err)
}
