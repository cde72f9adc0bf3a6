//go:build !purego && !noasm && gc

package zstddec

import "github.com/klauspost/cpuid/v2"

// haveSeqAsm says that the sequences of a block can run through
// decodeSeqsBMI2, the assembly loop, on this CPU; useSeqAsm (tests clear
// it to run the portable loop) selects it.
var haveSeqAsm = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)

// seqCtx is the state decodeSeqsBMI2 reads and writes back: the bit
// reader, the three FSE states, the output and literal positions and the
// repeated offsets. The assembly addresses its fields by offset (the
// ctx_* constants in seqasm_amd64.s; TestSeqCtxLayout checks them).
type seqCtx struct {
	buf                       *byte // the bit stream after 8 zero bytes
	bp                        int   // where the loaded word starts
	used                      uint  // its bits read
	llt, mlt, oft             *seqEntry
	llState, mlState, ofState uint64
	out                       *byte
	pos                       int // out[pos:] is the next byte to write
	outLimit                  int // fast path while pos+ll+ml <= outLimit
	lits                      *byte
	lp                        int // lits[lp:] are the literals left
	litLimit                  int // fast path while lp+ll <= litLimit
	window                    int
	rep                       [3]int
	nseq                      int // sequences left to decode
	// A sequence the loop decoded but left to the caller to execute:
	// its literal length, match length and offset.
	ll, ml, off int
	// Scratch of the loop: the end pointers and a spilled value.
	outEnd, litEnd, tmp uintptr
}

// decodeSeqsBMI2 decodes c.nseq sequences and executes each whose
// literals, match and offset the fast path allows. It returns 0 when
// all are done, or 1 with a decoded sequence in c.ll, c.ml, c.off that
// the caller must execute (and check) before calling again. It reads no
// state bits after the last sequence. Requires BMI2.
//
//go:noescape
func decodeSeqsBMI2(c *seqCtx) int

// sequencesAsm is sequences through decodeSeqsBMI2, with the bit reader
// already started; see sequences.
func (d *Decoder) sequencesAsm(out []byte, pos int, lits, lw, buf []byte, bp int, used uint,
	llState, ofState, mlState uint32, nseq int, window uint64) (int, error) {
	c := seqCtx{
		buf: &buf[0], bp: bp, used: used,
		llt: &d.ll[0], mlt: &d.ml[0], oft: &d.of[0],
		llState: uint64(llState), mlState: uint64(mlState), ofState: uint64(ofState),
		out: &out[0], pos: pos, outLimit: len(out) - 32,
		lits: &lw[0], litLimit: min(len(lits), len(lw)-16),
		window: int(min(window, 1<<40)),
		rep:    [3]int{d.rep[0], d.rep[1], d.rep[2]},
		nseq:   nseq,
	}
	lp := 0
	var err error
	for decodeSeqsBMI2(&c) != 0 {
		c.pos, lp, err = execSeq(out, c.pos, lits, lw, c.lp, c.ll, c.ml, c.off, window)
		if err != nil {
			return 0, err
		}
		c.lp = lp
	}
	pos, lp = c.pos, c.lp
	// The stream must be read to its first bit exactly: the bp bytes
	// below the word's top byte are the stream's, so 8*bp bits are left.
	if c.used != uint(c.bp)*8 {
		return 0, corrupt("sequences bit stream not read exactly")
	}
	d.rep = c.rep
	if len(lits)-lp > len(out)-pos {
		return 0, corrupt("literals overflow the block")
	}
	pos += copy(out[pos:], lits[lp:])
	return pos, nil
}

// AssemblyLoop says that Decode runs its sequences through the assembly
// loop on this CPU, which makes it faster than a general decoder on
// every kind of frame Blosc stores.
var AssemblyLoop = haveSeqAsm
