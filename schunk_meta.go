package blosc

// Metalayers: fixed-size ones in the frame header, variable-length ones
// compressed in the trailer.

import (
	"fmt"
	"math"
)

// Metalayer returns the content of the fixed-size metalayer name.
func (s *SChunk) Metalayer(name string) ([]byte, error) {
	defer s.runlock(s.rlock())
	return s.metalayer(name)
}

func (s *SChunk) metalayer(name string) ([]byte, error) {
	for _, m := range s.hdr.meta {
		if m.name == name {
			return append([]byte(nil), m.content...), nil
		}
	}
	return nil, fmt.Errorf("%w: metalayer %q", ErrNotFound, name)
}

// MetalayerNames lists the fixed-size metalayers in frame order.
func (s *SChunk) MetalayerNames() []string {
	defer s.runlock(s.rlock())
	return s.metalayerNames()
}

func (s *SChunk) metalayerNames() []string {
	names := make([]string, len(s.hdr.meta))
	for i, m := range s.hdr.meta {
		names[i] = m.name
	}
	return names
}

func checkMetaName(name string) error {
	if name == "" || len(name) > MaxMetalayerName {
		return fmt.Errorf("%w: metalayer name %q (1 to %d bytes)", ErrInvalidOptions, name, MaxMetalayerName)
	}
	return nil
}

// AddMetalayer adds a fixed-size metalayer. As in c-blosc2, metalayers live
// in the frame header, so they can only be added before the first chunk,
// and at most MaxMetalayers of them.
func (s *SChunk) AddMetalayer(name string, content []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.addMetalayer(name, content)
}

func (s *SChunk) addMetalayer(name string, content []byte) (err error) {
	if err := checkMetaName(name); err != nil {
		return err
	}
	if s.offs.len() > 0 || s.regionLen() > 0 {
		return fmt.Errorf("%w: metalayer %q added after the first chunk (the header would move the chunks)", ErrInvalidOptions, name)
	}
	if len(s.hdr.meta) >= MaxMetalayers {
		return fmt.Errorf("%w: more than %d metalayers", ErrInvalidOptions, MaxMetalayers)
	}
	if len(content) > math.MaxInt32-frameHeaderSize(s.hdr.meta)-64 {
		return fmt.Errorf("%w: metalayer of %d bytes", ErrTooLarge, len(content))
	}
	for _, m := range s.hdr.meta {
		if m.name == name {
			return fmt.Errorf("%w: metalayer %q exists", ErrInvalidOptions, name)
		}
	}
	if s.file != nil {
		if s.file.w == nil {
			return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
		}
		s.file.rewrite = true
	}
	if s.sparse != nil {
		if err := s.sparse.touch(); err != nil {
			return err
		}
	}
	s.hdr.meta = append(s.hdr.meta, metalayer{name: name, content: append([]byte(nil), content...)})
	return nil
}

// UpdateMetalayer replaces a metalayer's content in place, which must keep
// its size.
func (s *SChunk) UpdateMetalayer(name string, content []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.updateMetalayer(name, content)
}

func (s *SChunk) updateMetalayer(name string, content []byte) (err error) {
	for i, m := range s.hdr.meta {
		if m.name == name {
			if len(content) != len(m.content) {
				return fmt.Errorf("%w: metalayer %q holds %d bytes, not %d (a metalayer keeps its size)", ErrInvalidOptions, name, len(m.content), len(content))
			}
			if s.file != nil {
				if s.file.w == nil {
					return fmt.Errorf("%w: the frame was opened read-only", ErrUnsupported)
				}
				s.file.headerOnly = true
			}
			if s.sparse != nil {
				if err := s.sparse.touch(); err != nil {
					return err
				}
			}
			s.hdr.meta[i].content = append([]byte(nil), content...)
			return nil
		}
	}
	return fmt.Errorf("%w: metalayer %q", ErrNotFound, name)
}

// vlmetaOptions are c-blosc2's BLOSC2_CPARAMS_DEFAULTS, with which it
// compresses variable-length metalayers.
func vlmetaOptions() Options {
	o := DefaultOptions()
	o.Format = FormatBlosc2
	o.Threads = 1
	return o
}

// VLMetalayer returns the decompressed content of a variable-length
// metalayer.
func (s *SChunk) VLMetalayer(name string) ([]byte, error) {
	defer s.runlock(s.rlock())
	return s.vLMetalayer(name)
}

func (s *SChunk) vLMetalayer(name string) ([]byte, error) {
	for _, m := range s.vlmeta {
		if m.name == name {
			out, err := Decompress(nil, m.content)
			if err != nil {
				return nil, fmt.Errorf("vlmetalayer %q: %w", name, err)
			}
			return out, nil
		}
	}
	return nil, fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
}

// VLMetalayerNames lists the variable-length metalayers in frame order.
func (s *SChunk) VLMetalayerNames() []string {
	defer s.runlock(s.rlock())
	return s.vLMetalayerNames()
}

func (s *SChunk) vLMetalayerNames() []string {
	names := make([]string, len(s.vlmeta))
	for i, m := range s.vlmeta {
		names[i] = m.name
	}
	return names
}

func (s *SChunk) vlIndex(name string) int {
	for i, m := range s.vlmeta {
		if m.name == name {
			return i
		}
	}
	return -1
}

// AddVLMetalayer adds a variable-length metalayer, stored compressed in the
// frame's trailer as c-blosc2 stores it.
func (s *SChunk) AddVLMetalayer(name string, content []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.addVLMetalayer(name, content)
}

func (s *SChunk) addVLMetalayer(name string, content []byte) (err error) {
	if err := checkMetaName(name); err != nil {
		return err
	}
	if s.vlIndex(name) >= 0 {
		return fmt.Errorf("%w: vlmetalayer %q exists", ErrInvalidOptions, name)
	}
	if len(s.vlmeta) >= MaxVLMetalayers {
		return fmt.Errorf("%w: more than %d vlmetalayers", ErrInvalidOptions, MaxVLMetalayers)
	}
	c, err := Compress(nil, content, vlmetaOptions())
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta = append(s.vlmeta, metalayer{name: name, content: c})
	s.hdr.hasVLMeta = true
	return nil
}

// UpdateVLMetalayer replaces a variable-length metalayer's content (of any
// size).
func (s *SChunk) UpdateVLMetalayer(name string, content []byte) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.updateVLMetalayer(name, content)
}

func (s *SChunk) updateVLMetalayer(name string, content []byte) (err error) {
	i := s.vlIndex(name)
	if i < 0 {
		return fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
	}
	c, err := Compress(nil, content, vlmetaOptions())
	if err != nil {
		return err
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta[i].content = c
	return nil
}

// DeleteVLMetalayer removes a variable-length metalayer.
func (s *SChunk) DeleteVLMetalayer(name string) (err error) {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.end(&err)
	return s.deleteVLMetalayer(name)
}

func (s *SChunk) deleteVLMetalayer(name string) (err error) {
	i := s.vlIndex(name)
	if i < 0 {
		return fmt.Errorf("%w: vlmetalayer %q", ErrNotFound, name)
	}
	if err := s.touch(); err != nil {
		return err
	}
	s.vlmeta = append(s.vlmeta[:i], s.vlmeta[i+1:]...)
	s.hdr.hasVLMeta = len(s.vlmeta) > 0
	return nil
}
