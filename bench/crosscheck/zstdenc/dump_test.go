//go:build cblosc && cgo

package zstdenc_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/goblosc/blosc/bench/internal/czstd"
	"github.com/goblosc/blosc/internal/zstdenc"
)

// describe lists a frame's blocks: type, size, and for compressed blocks
// the literals' mode and sizes, the sequence count and table modes.
func describe(f []byte) string {
	s := ""
	fhd := f[4]
	pos := 5
	if fhd&0x20 == 0 {
		pos++
	}
	pos += []int{0, 2, 4, 8}[fhd>>6]
	if fhd>>6 == 0 && fhd&0x20 != 0 {
		pos++
	}
	for pos+3 <= len(f) {
		h := int(f[pos]) | int(f[pos+1])<<8 | int(f[pos+2])<<16
		pos += 3
		typ, size := h>>1&3, h>>3
		s += fmt.Sprintf("[t%d %d", typ, size)
		if typ == 2 {
			b := f[pos : pos+size]
			lt := b[0] & 3
			sf := b[0] >> 2 & 3
			var rs, cs, lh int
			if lt < 2 {
				switch sf {
				case 0, 2:
					rs, lh = int(b[0]>>3), 1
				case 1:
					rs, lh = int(b[0])>>4|int(b[1])<<4, 2
				default:
					rs, lh = int(b[0])>>4|int(b[1])<<4|int(b[2])<<12, 3
				}
				cs = rs
				if lt == 1 {
					cs = 1
				}
			} else {
				v := int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24 | int(b[min(4, len(b)-1)])<<32
				switch sf {
				case 0, 1:
					rs, cs, lh = v>>4&1023, v>>14&1023, 3
				case 2:
					rs, cs, lh = v>>4&16383, v>>18&16383, 4
				default:
					rs, cs, lh = v>>4&262143, v>>22&262143, 5
				}
			}
			q := lh + cs
			ns := int(b[q])
			if ns >= 128 && ns < 255 {
				ns = (ns-128)<<8 | int(b[q+1])
				q++
			} else if ns == 255 {
				ns = int(b[q+1]) | int(b[q+2])<<8 + 0x7F00
				q += 2
			}
			q++
			modes := byte(0)
			if ns > 0 {
				modes = b[q]
			}
			s += fmt.Sprintf(" lit m%d sf%d %d->%d seq %d modes %d%d%d seqbytes %d", lt, sf, rs, cs, ns, modes>>6, modes>>4&3, modes>>2&3, size-q)
		}
		s += "] "
		if typ == 1 {
			size = 1
		}
		pos += size
		if h&1 != 0 {
			break
		}
	}
	return s
}

func TestDumpFrames(t *testing.T) {
	name := os.Getenv("ZSTDENC_DUMP")
	if name == "" {
		t.Skip("set ZSTDENC_DUMP=dataset[:typesize]")
	}
	lvl := 1
	if v, err := strconv.Atoi(os.Getenv("ZSTDENC_LEVEL")); err == nil {
		lvl = v
	}
	ts := 8
	src := block(t, name, ts, 256<<10)
	var e zstdenc.Encoder
	ours := e.Encode(nil, src, lvl)
	cc := czstd.NewCCtx()
	defer cc.Free()
	cbuf := make([]byte, czstd.Bound(len(src)))
	n, _ := cc.Compress(cbuf, src, lvl)
	fmt.Println("ours", len(ours), describe(ours))
	fmt.Println("C   ", n, describe(cbuf[:n]))
}
