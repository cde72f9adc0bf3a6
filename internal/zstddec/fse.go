package zstddec

import (
	"bytes"
	"encoding/binary"
	"math/bits"

	"github.com/goblosc/blosc/internal/zstdcodes"
)

// seqEntry is one state of a sequence FSE table with the symbol already
// turned into its value: the baseline and the number of extra bits to add
// to it, and the state transition.
type seqEntry struct {
	base   uint32
	nbAdd  uint8
	nbBits uint8
	next   uint16
}

// Baselines and extra bits of the literal length and match length codes.
var (
	llBase = zstdcodes.LLBase
	llBits = zstdcodes.LLBits
	mlBase = zstdcodes.MLBase
	mlBits = zstdcodes.MLBits
)

// The predefined distributions (RFC 8878 3.1.1.3.2.2).
var (
	llPredefNorm = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1,
		2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}
	mlPredefNorm = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1,
		-1, -1, -1, -1, -1}
	ofPredefNorm = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}

	// Every table has room for 512 states, so the decoding loop can mask
	// a state instead of checking its bounds.
	llPredef [512]seqEntry
	mlPredef [512]seqEntry
	ofPredef [512]seqEntry
)

func init() {
	buildSeqTable(llPredef[:64], llPredefNorm, 6, llBase[:], llBits[:])
	buildSeqTable(mlPredef[:64], mlPredefNorm, 6, mlBase[:], mlBits[:])
	buildSeqTable(ofPredef[:32], ofPredefNorm, 5, nil, nil)
}

// buildSeqTable spreads the normalized counts norm over a table of
// 1<<tableLog states as FSE does (RFC 8878 4.1.1) and stores each state's
// value and transition. base and extra are nil for offsets. The counts
// must sum to the table size, which readNCount checks; len(norm) <= 64.
func buildSeqTable(t []seqEntry, norm []int16, tableLog uint, base []uint32, extra []uint8) {
	size := 1 << tableLog
	t = t[:size]
	var symbols [512]uint8
	var next [64]uint32
	var vals [64]seqEntry // each symbol's baseline and extra bits
	for s, c := range norm {
		next[s&63] = uint32(max(c, 1))
		if base != nil {
			vals[s&63] = seqEntry{base: base[s], nbAdd: extra[s]}
		} else {
			vals[s&63] = seqEntry{base: 1 << s, nbAdd: uint8(s)}
		}
	}
	fseSpread(&symbols, norm, tableLog)
	// Field by field: an entry assembled in a register from its parts
	// and stored whole costs a stalled store-to-load forward each.
	for u := range t {
		s := symbols[u&511] & 63
		ns := next[s]
		next[s] = ns + 1
		nb := (tableLog + 1 - uint(bits.Len32(ns))) & 31
		e := &t[u]
		e.base = vals[s].base
		e.nbAdd = vals[s].nbAdd
		e.nbBits = uint8(nb)
		e.next = uint16(ns<<nb - uint32(size))
	}
}

// fseSpread lays the symbols of the normalized counts norm (a count of -1
// is a probability below one) over a table of 1<<tableLog states as FSE
// does (RFC 8878 4.1.1): symbols[u] is state u's symbol. The counts must
// sum to the table size, which readNCount checks; len(norm) <= 256.
//
// The format walks the table by a fixed step, giving each position in
// turn the next symbol of the counts laid out in order and skipping the
// top positions, which the symbols of probability below one take. Here
// the counts are laid out first, 8 bytes at a time, and the walk visits
// every position (the step is odd, so it visits each once) without a
// branch: a skipped position takes a symbol that does not advance and
// that the top's symbols overwrite after it.
func fseSpread(symbols *[512]uint8, norm []int16, tableLog uint) {
	size := 1 << tableLog
	var spread [512 + 8]uint8
	n, low := 0, 0
	for s, c := range norm {
		if c == -1 {
			low++
			continue
		}
		v := uint64(s) * 0x0101010101010101
		for i := 0; i < int(c); i += 8 {
			binary.LittleEndian.PutUint64(spread[(n+i)&511:], v)
		}
		n += max(int(c), 0)
	}
	step := size>>1 + size>>3 + 3
	mask := size - 1
	if low == 0 {
		// Two positions a round, each its own chain of additions.
		p, q := 0, step&mask
		for i := 0; i < size; i += 2 {
			symbols[p&511] = spread[i&511]
			symbols[q&511] = spread[(i+1)&511]
			p = (p + 2*step) & mask
			q = (q + 2*step) & mask
		}
		return
	}
	high := size - 1 - low
	p, i := 0, 0
	for range size {
		symbols[p&511] = spread[i&511]
		i += int(uint64(int64(p-high-1)) >> 63) // p <= high
		p = (p + step) & mask
	}
	top := size - 1
	for s, c := range norm {
		if c == -1 {
			symbols[top&511] = uint8(s)
			top--
		}
	}
}

// table reads one symbol table of the sequences section in the given mode
// and returns the table to decode with and the rest of the section.
//
// buf holds the table built from the description *desc, which an FSE
// table reuses when its description is the same bytes; sp holds the one
// built before it, which is swapped back into buf when its description
// comes again.
func (d *Decoder) table(mode uint8, in []byte, prev, buf []seqEntry, desc *[]byte, sp *seqSpare, predef []seqEntry,
	base []uint32, extra []uint8, maxSym int, maxLog uint) ([]seqEntry, []byte, error) {
	switch mode {
	case 0:
		sp.keep(buf, desc)
		return buf[:copy(buf, predef)], in, nil
	case 1:
		if len(in) < 1 {
			return nil, nil, corrupt("truncated RLE symbol")
		}
		s := int(in[0])
		if s > maxSym {
			return nil, nil, corrupt("RLE symbol %d above %d", s, maxSym)
		}
		e := seqEntry{}
		if base != nil {
			e.base, e.nbAdd = base[s], extra[s]
		} else {
			e.base, e.nbAdd = 1<<s, uint8(s)
		}
		sp.keep(buf, desc)
		buf[0] = e
		return buf[:1], in[1:], nil
	case 2:
		tableLog, nsym, n, err := readNCount(d.norm[:], in, maxSym, maxLog)
		if err != nil {
			return nil, nil, err
		}
		t := buf[:1<<tableLog]
		switch {
		case len(*desc) != 0 && bytes.Equal(*desc, in[:n]):
		case len(sp.desc) != 0 && bytes.Equal(sp.desc, in[:n]):
			sp.swap(buf, desc)
		default:
			sp.keep(buf, desc)
			buildSeqTable(t, d.norm[:nsym], tableLog, base, extra)
			*desc = append((*desc)[:0], in[:n]...)
		}
		return t, in[n:], nil
	default:
		if prev == nil {
			return nil, nil, corrupt("repeat mode without a previous table")
		}
		return prev, in, nil
	}
}

// seqSpare is a sequence table kept aside with the description it was
// built from (empty while it holds none).
type seqSpare struct {
	t    [512]seqEntry
	desc []byte
}

// descStates is the number of states of the table an FSE table
// description (RFC 8878 4.1.1) builds: its first 4 bits are the log of
// that number, minus 5.
func descStates(desc []byte) int { return 1 << (desc[0]&15 + 5) }

// keep moves the table in buf, built from *desc, to the spare before buf
// is overwritten, and leaves *desc empty. A buf holding no built table
// (a predefined or RLE one) leaves the spare as it is.
func (sp *seqSpare) keep(buf []seqEntry, desc *[]byte) {
	if len(*desc) == 0 {
		return
	}
	copy(sp.t[:], buf[:descStates(*desc)])
	sp.desc = append(sp.desc[:0], *desc...)
	*desc = (*desc)[:0]
}

// swap exchanges the table in buf and its description *desc with the
// spare's; either may be empty (a buf holding no built table).
func (sp *seqSpare) swap(buf []seqEntry, desc *[]byte) {
	n := descStates(sp.desc)
	if len(*desc) != 0 {
		n = max(n, descStates(*desc))
	}
	for i := range buf[:n] {
		buf[i], sp.t[i] = sp.t[i], buf[i]
	}
	*desc, sp.desc = sp.desc, *desc
}

// readNCount reads an FSE table description (RFC 8878 4.1.1) into norm
// and returns the table log, the number of symbols it gives counts to
// (norm[:nsym]; the others count zero) and the number of bytes it took.
func readNCount(norm []int16, in []byte, maxSym int, maxLog uint) (tableLog uint, nsym, nbytes int, err error) {
	// Read bits LSB first, with zeros past the end; the byte count
	// consumed is checked at the end.
	bitPos := 0
	peek := func() uint32 {
		i := bitPos >> 3
		var v uint32
		if i+4 <= len(in) {
			v = uint32(in[i]) | uint32(in[i+1])<<8 | uint32(in[i+2])<<16 | uint32(in[i+3])<<24
		} else {
			for k := 3; k >= 0; k-- {
				v <<= 8
				if i+k < len(in) {
					v |= uint32(in[i+k])
				}
			}
		}
		return v >> (bitPos & 7)
	}
	if len(in) < 1 {
		return 0, 0, 0, corrupt("missing FSE table description")
	}
	tableLog = uint(in[0]&15) + 5
	if tableLog > maxLog {
		return 0, 0, 0, corrupt("FSE table log %d above %d", tableLog, maxLog)
	}
	bitPos = 4
	remaining := 1<<tableLog + 1
	threshold := 1 << tableLog
	nbBits := tableLog + 1
	sym := 0
	prev0 := false
	for remaining > 1 && sym <= maxSym {
		if prev0 {
			n0 := sym
			for peek()&0xFFFF == 0xFFFF {
				n0 += 24
				bitPos += 16
				if bitPos > 8*len(in) {
					return 0, 0, 0, corrupt("truncated FSE table description")
				}
			}
			for peek()&3 == 3 {
				n0 += 3
				bitPos += 2
			}
			n0 += int(peek() & 3)
			bitPos += 2
			if n0 > maxSym+1 {
				return 0, 0, 0, corrupt("FSE zero run past symbol %d", maxSym)
			}
			for sym < n0 {
				norm[sym] = 0
				sym++
			}
			if sym > maxSym {
				break
			}
		}
		v := peek()
		max := 2*threshold - 1 - remaining
		var count int
		if int(v&uint32(threshold-1)) < max {
			count = int(v & uint32(threshold-1))
			bitPos += int(nbBits) - 1
		} else {
			count = int(v & uint32(2*threshold-1))
			if count >= threshold {
				count -= max
			}
			bitPos += int(nbBits)
		}
		count--
		if count < 0 {
			remaining += count
		} else {
			remaining -= count
		}
		norm[sym] = int16(count)
		sym++
		prev0 = count == 0
		for remaining < threshold && threshold > 1 {
			nbBits--
			threshold >>= 1
		}
		if bitPos > 8*len(in) {
			return 0, 0, 0, corrupt("truncated FSE table description")
		}
	}
	if remaining != 1 {
		return 0, 0, 0, corrupt("FSE counts do not fill the table")
	}
	n := (bitPos + 7) >> 3
	if n > len(in) {
		return 0, 0, 0, corrupt("truncated FSE table description")
	}
	return tableLog, sym, n, nil
}
