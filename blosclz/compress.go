package blosclz

import (
	"encoding/binary"
	"math"
	"math/bits"
)

const (
	maxCopy        = 32                      // longest literal run one control byte covers
	maxDistance    = 8191                    // biased distances below this use the 2-byte form
	maxFarDistance = 65535 + maxDistance - 1 // matches at this distance or farther are not taken
	hashLog        = 14                      // largest hash table (levels 3..9)
	probeHashLog   = 12                      // hash table of the entropy probe
	hashMul        = 2654435761              // Knuth's multiplicative constant, as BloscLZ uses
	maxInput       = math.MaxInt32           // C passes the length as an int
	literalMarker  = maxCopy - 1             // control byte of a full literal run
	formatBit      = 1 << 5                  // set in the first byte of every stream
	minOutput      = 66                      // C refuses smaller output buffers
	minInput       = 16                      // and smaller inputs
	tailReserve    = 12                      // the main loop stops this far before the end
	longLen        = 7                       // lengths from here on take extension bytes
	farMarker      = 31                      // low control bits announcing a 16-bit distance
	lenShift       = 5                       // length sits in the top 3 control bits
	hashMask       = 1<<hashLog - 1          // keeps table indexes provably in range
	probeHashMask  = 1<<probeHashLog - 1     //
	farLowByte     = 255                     // distance byte announcing a far match
	farControlBits = farMarker               //
	probeMinLen    = 3                       // the probe always measures with C's short settings
	probeIPShift   = 3                       //
)

// ratioThreshold is, per level, the smallest estimated ratio worth
// compressing; below it C gives up and the block is stored raw.
var ratioThreshold = [MaxLevel + 1]float64{0, 2, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0}

// levelHashLog is the hash table size per level.
var levelHashLog = [MaxLevel + 1]uint{0, hashLog - 2, hashLog - 1, hashLog, hashLog, hashLog, hashLog, hashLog, hashLog, hashLog}

func hash(seq uint32, shift uint) uint32 {
	return (seq * hashMul) >> (shift & 31)
}

func load32(b []byte, i int) uint32 { return binary.LittleEndian.Uint32(b[i : i+4]) }

// matchEnd compares src from ip and from ref onward and returns one past the
// first position p < bound where they differ, or bound if none does: the
// position C's get_match and get_run both return (a run is the distance-1
// match). ref < ip.
func matchEnd(src []byte, ip, bound, ref int) int {
	for ip+8 <= bound {
		x := binary.LittleEndian.Uint64(src[ip:ip+8]) ^ binary.LittleEndian.Uint64(src[ref:ref+8])
		if x != 0 {
			return ip + bits.TrailingZeros64(x)>>3 + 1
		}
		ip += 8
		ref += 8
	}
	for ip < bound {
		if src[ip] != src[ref] {
			return ip + 1
		}
		ip++
		ref++
	}
	return bound
}

// estimateRatio is BloscLZ 2.5.1's entropy probe: it runs a cheap model of
// the encoder over at most 4096 bytes of b and returns input bytes per
// output byte. The result is one IEEE division of two exact integers, so it
// is the same on every architecture (no fused multiply-add can change it).
func estimateRatio(b []byte) float64 {
	var htab [1 << probeHashLog]uint16
	limit := min(len(b), 1<<probeHashLog)
	b = b[:limit]
	ipBound := limit - 1
	ipLimit := limit - tailReserve
	oc := 5 // the first control byte and four literals
	lit := 4
	ip := 0
	for ip < ipLimit {
		anchor := ip
		seq := load32(b, ip)
		h := hash(seq, 32-probeHashLog) & probeHashMask
		ref := int(htab[h])
		distance := anchor - ref
		htab[h] = uint16(anchor)
		if distance != 0 && distance < maxFarDistance && load32(b, ref) == seq {
			distance--
			ip = matchEnd(b, anchor+4, ipBound, ref+4) - probeIPShift
			if n := ip - anchor; n >= probeMinLen {
				if lit == 0 {
					oc--
				}
				lit = 0
				if n >= longLen {
					oc += (n-longLen)/255 + 1
				}
				if distance < maxDistance {
					oc += 2
				} else {
					oc += 4
				}
				htab[hash(load32(b, ip), 32-probeHashLog)&probeHashMask] = uint16(ip)
				ip += 2
				oc++
				continue
			}
		}
		oc++
		ip = anchor + 1
		lit++
		if lit == maxCopy {
			lit = 0
			oc++
		}
	}
	return float64(ip) / float64(oc)
}

func compress(dst, src []byte, level int, split bool) int {
	if level < 1 || len(src) > maxInput {
		return 0
	}
	level = min(level, MaxLevel)
	length := len(src)
	probeLen := length / 4
	cratio := estimateRatio(src[length-probeLen:])
	if cratio < ratioThreshold[level] {
		return 0
	}
	ipShift, minLen := 4, 4
	if !split || cratio < 4 {
		ipShift, minLen = 3, 3
	}
	if length < minInput || len(dst) < minOutput {
		return 0
	}
	shift := 32 - levelHashLog[level]

	var htab [1 << hashLog]uint32

	opLimit := len(dst)
	ipBound := length - 1
	ipLimit := length - tailReserve

	dst[0] = literalMarker
	copy(dst[1:5], src[:4])
	op := 5
	ip := 4
	lit := 4

	for ip < ipLimit {
		anchor := ip
		seq := load32(src, ip)
		h := hash(seq, shift) & hashMask
		ref := int(htab[h])
		distance := anchor - ref
		htab[h] = uint32(anchor)

		if distance == 0 || distance >= maxFarDistance || load32(src, ref) != seq {
			goto literal
		}
		distance--
		ip = matchEnd(src, anchor+4, ipBound, ref+4) - ipShift
		{
			n := ip - anchor
			if n < minLen || (n <= 5 && distance >= maxDistance) {
				goto literal
			}
			// Close the literal run (its count byte sits before it), or drop
			// the placeholder count byte when no literal followed a match.
			if lit != 0 {
				dst[op-lit-1] = byte(lit - 1)
			} else {
				op--
			}
			lit = 0

			isFar := distance >= maxDistance
			hi, low := byte(distance>>8), byte(distance)
			if isFar {
				distance -= maxDistance
				hi, low = farControlBits, farLowByte
			}
			if n < longLen {
				if op+2 > opLimit {
					return 0
				}
				dst[op] = byte(n<<lenShift) + hi
				dst[op+1] = low
				op += 2
			} else {
				n -= longLen
				ext := n / 255
				if op+1+ext+2 > opLimit {
					return 0
				}
				dst[op] = longLen<<lenShift + hi
				op++
				fill255(dst[op : op+ext])
				op += ext
				dst[op] = byte(n - ext*255)
				dst[op+1] = low
				op += 2
			}
			if isFar {
				if op+2 > opLimit {
					return 0
				}
				dst[op] = byte(distance >> 8)
				dst[op+1] = byte(distance)
				op += 2
			}
		}

		// Hash the positions at the end of the match, as C does.
		seq = load32(src, ip)
		htab[hash(seq, shift)&hashMask] = uint32(ip)
		ip++
		if level == MaxLevel {
			htab[hash(seq>>8, shift)&hashMask] = uint32(ip)
		}
		ip++
		if op+1 > opLimit {
			return 0
		}
		dst[op] = literalMarker
		op++
		continue

	literal:
		if op+2 > opLimit {
			return 0
		}
		dst[op] = src[anchor]
		op++
		ip = anchor + 1
		lit++
		if lit == maxCopy {
			lit = 0
			dst[op] = literalMarker
			op++
		}
	}

	for ; ip <= ipBound; ip++ {
		if op+2 > opLimit {
			return 0
		}
		dst[op] = src[ip]
		op++
		lit++
		if lit == maxCopy {
			lit = 0
			dst[op] = literalMarker
			op++
		}
	}
	if lit != 0 {
		dst[op-lit-1] = byte(lit - 1)
	} else {
		op--
	}
	dst[0] |= formatBit
	return op
}

func fill255(b []byte) {
	for i := range b {
		b[i] = 255
	}
}
