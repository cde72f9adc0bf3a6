package bloscpack

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/adler32"
	"hash/crc32"
	"strings"
)

// Checksum names the digest stored after each chunk (and after the
// metadata), by its id in the header.
type Checksum uint8

const (
	NoChecksum Checksum = iota
	Adler32
	CRC32
	MD5
	SHA1
	SHA224
	SHA256
	SHA384
	SHA512
	numChecksums
)

var checksumNames = [...]string{"None", "adler32", "crc32", "md5", "sha1", "sha224", "sha256", "sha384", "sha512"}

var checksumSizes = [...]int{0, 4, 4, md5.Size, sha1.Size, sha256.Size224, sha256.Size, sha512.Size384, sha512.Size}

func (c Checksum) String() string {
	if c < numChecksums {
		return checksumNames[c]
	}
	return fmt.Sprintf("checksum(%d)", uint8(c))
}

// MarshalText writes the name the reference uses.
func (c Checksum) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Size is the digest's length in bytes.
func (c Checksum) Size() int {
	if c < numChecksums {
		return checksumSizes[c]
	}
	return 0
}

// ParseChecksum accepts the reference's names ("None" or "none" for no
// checksum).
func ParseChecksum(s string) (Checksum, error) {
	for i, n := range checksumNames {
		if strings.EqualFold(n, s) {
			return Checksum(i), nil
		}
	}
	return 0, fmt.Errorf("bloscpack: unknown checksum %q (want one of %s)", s, strings.Join(checksumNames[:], ", "))
}

// hasher computes one kind of digest, reusing its state.
type hasher struct {
	c Checksum
	h hash.Hash
}

func newHasher(c Checksum) *hasher {
	hs := &hasher{c: c}
	switch c {
	case MD5:
		hs.h = md5.New()
	case SHA1:
		hs.h = sha1.New()
	case SHA224:
		hs.h = sha256.New224()
	case SHA256:
		hs.h = sha256.New()
	case SHA384:
		hs.h = sha512.New384()
	case SHA512:
		hs.h = sha512.New()
	}
	return hs
}

// sum appends the digest of data to dst. The zlib checksums are stored as
// 4 little-endian bytes, the others as their raw digest, as the reference
// writes them.
func (hs *hasher) sum(dst, data []byte) []byte {
	switch hs.c {
	case NoChecksum:
		return dst
	case Adler32:
		return binary.LittleEndian.AppendUint32(dst, adler32.Checksum(data))
	case CRC32:
		return binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(data))
	}
	hs.h.Reset()
	hs.h.Write(data)
	return hs.h.Sum(dst)
}
