package zstddec

// seqCtx is the state the assembly sequence loop reads and writes back:
// the bit reader, the three FSE states, the output and literal positions
// and the repeated offsets. The assembly addresses its fields, and the
// Decoder's table buffers that follow it, by offset (the ctx_* constants
// in seqasm_amd64.s; TestSeqCtxLayout checks them).
type seqCtx struct {
	buf                       *byte // the bit stream after 8 zero bytes
	bp                        int   // where the loaded word starts
	used                      uint  // its bits read
	llState, mlState, ofState uint64
	out                       *byte
	pos                       int // out[pos:] is the next byte to write
	outLimit                  int // fast path while pos+ll+ml <= outLimit: 64 bytes of slack
	lits                      *byte
	lp                        int // lits[lp:] are the literals left
	litLimit                  int // fast path while lp+ll <= litLimit
	window                    int
	rep                       [3]int
	nseq                      int // sequences left to decode
	// A sequence the loop decoded but left to the caller to execute:
	// its literal length, match length and offset.
	ll, ml, off int
	// Scratch of the loop: the end pointers.
	outEnd, litEnd uintptr
}
