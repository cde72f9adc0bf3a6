//go:build purego || noasm || !gc || !amd64

package zstddec

// haveSeqAsm says that an assembly sequence loop exists; here none does.
const haveSeqAsm = false

func (d *Decoder) sequencesAsm(out []byte, pos int, lits, lw, buf []byte, bp int, used uint,
	llState, ofState, mlState uint32, nseq int, window uint64) (int, error) {
	panic("zstddec: no assembly sequence loop")
}

// AssemblyLoop says that Decode runs its sequences through an assembly
// loop; here it does not.
const AssemblyLoop = false
