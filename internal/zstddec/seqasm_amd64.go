//go:build !purego && !noasm && gc

package zstddec

import "github.com/klauspost/cpuid/v2"

// haveSeqAsm says that the sequences of a block can run through
// decodeSeqsBMI2, the assembly loop, on this CPU; useSeqAsm (tests clear
// it to run the portable loop) selects it.
var haveSeqAsm = cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2, cpuid.SSSE3)

// seqPeriodic and seqPeriodicNext serve the assembly loop's matches at
// offsets 2 to 15, which repeat the off bytes before them. Row off of
// seqPeriodic is the PSHUFB control that spreads those bytes over 16
// (byte i takes byte i mod off); row off of seqPeriodicNext makes the
// next 16 bytes of the match from the last 16 (byte i takes byte
// (16+i) mod off, which is the same byte of the pattern).
//
//lint:ignore U1000 read by the assembly loop (seqasm_amd64.s)
var seqPeriodic, seqPeriodicNext = func() (p, n [16][16]byte) {
	for off := 1; off < 16; off++ {
		for i := range 16 {
			p[off][i] = byte(i % off)
			n[off][i] = byte((16 + i) % off)
		}
	}
	return p, n
}()

// decodeSeqsBMI2 decodes c.nseq sequences, with the tables in the
// Decoder's buffers after c, and executes each whose literals, match and
// offset the fast path allows. It returns 0 when
// all are done, or 1 with a decoded sequence in c.ll, c.ml, c.off that
// the caller must execute (and check) before calling again. It reads no
// state bits after the last sequence. Requires BMI2 and SSSE3.
//
//go:noescape
func decodeSeqsBMI2(c *seqCtx) int

// sequencesAsm is sequences through decodeSeqsBMI2, with the bit reader
// already started; see sequences.
func (d *Decoder) sequencesAsm(out []byte, pos int, lits, lw, buf []byte, bp int, used uint,
	llState, ofState, mlState uint32, nseq int, window uint64) (int, error) {
	if &d.ll[0] != &d.llBuf[0] || &d.ml[0] != &d.mlBuf[0] || &d.of[0] != &d.ofBuf[0] {
		panic("zstddec: a sequence table outside its buffer")
	}
	c := &d.sc
	*c = seqCtx{
		buf: &buf[0], bp: bp, used: used,
		llState: uint64(llState), mlState: uint64(mlState), ofState: uint64(ofState),
		out: &out[0], pos: pos, outLimit: len(out) - 64,
		lits: &lw[0], litLimit: min(len(lits), len(lw)-16),
		window: int(min(window, 1<<40)),
		rep:    [3]int{d.rep[0], d.rep[1], d.rep[2]},
		nseq:   nseq,
	}
	lp := 0
	var err error
	for decodeSeqsBMI2(c) != 0 {
		c.pos, lp, err = execSeq(out, c.pos, lits, lw, c.lp, c.ll, c.ml, c.off, window)
		if err != nil {
			c.buf, c.out, c.lits = nil, nil, nil
			if overrun(c.used, c.bp) {
				return 0, ErrSequencesEnd
			}
			return 0, err
		}
		c.lp = lp
	}
	pos, lp = c.pos, c.lp
	c.buf, c.out, c.lits = nil, nil, nil // keep no caller's buffer alive
	// The loop leaves the states of the last sequence, not updated.
	fub := uint(d.ll[c.llState&511].nbBits) + uint(d.ml[c.mlState&511].nbBits) + uint(d.of[c.ofState&511].nbBits)
	if err := seqStreamEnd(c.used, fub, c.bp); err != nil {
		return 0, err
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
