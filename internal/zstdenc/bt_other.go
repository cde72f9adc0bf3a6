//go:build purego || noasm || !gc || !amd64

package zstdenc

// dubtSortFast has no assembly here: dubtSort's Go loop runs.
func (e *Encoder) dubtSortFast(buf []byte, cur, end, nb, btLow int) bool { return false }

// btWalkFast has no assembly here: btSearch's Go walk runs.
func (e *Encoder) btWalkFast(buf []byte, ip, end, m, nb, btLow int) (best, bestOff, matchEnd int, ok bool) {
	return 0, 0, 0, false
}
