package blosc

import "fmt"

// parseBlosc2 decodes a c-blosc2 extended (32-byte) header.
func (h *Header) parseBlosc2(src []byte) error {
	*h = Header{Format: FormatBlosc2, Version: src[0], VersionLZ: src[1], Flags: src[2], Typesize: int(src[3]),
		Nbytes: le32(src[4:]), Blocksize: le32(src[8:]), Cbytes: le32(src[12:]), HeaderLen: blosc2HeaderLen}
	return fmt.Errorf("%w: Blosc2 chunks", ErrUnsupported)
}

func (e *engine) decompressBlosc2(dst, src []byte, threads int) ([]byte, error) {
	return nil, fmt.Errorf("%w: Blosc2 chunks", ErrUnsupported)
}

func (e *engine) getItemBlosc2(dst, src []byte, start, n int) ([]byte, error) {
	return nil, fmt.Errorf("%w: Blosc2 chunks", ErrUnsupported)
}
