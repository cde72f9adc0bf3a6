package zstdenc

// hcInsert enters the positions from e.nextUpdate up to ip in the hash
// chains and returns the newest earlier position with ip's hash. Every
// position goes in, as libzstd 1.5.4 does: from 1.5.5 libzstd enters
// only the searched positions after 2 KiB without a match, which is
// faster on noise but cost 12% of the ratio on a shuffled timestamp
// series, whose matches start after a long unmatched stretch.
func (e *Encoder) hcInsert(buf []byte, ip int, mls uint8) int {
	head, chain := e.hashT, e.hashL
	hlog := e.p.hlog
	mask := len(chain) - 1
	base := e.base
	for i := e.nextUpdate; i < ip; i++ {
		h := hashN(load64(buf, i), mls, hlog)
		chain[i&mask] = head[h]
		head[h] = base + uint32(i)
	}
	e.nextUpdate = max(e.nextUpdate, ip)
	return int(int32(head[hashN(load64(buf, ip), mls, hlog)] - base))
}

// hcSearch is libzstd's hash chain search: up to 1<<searchLog earlier
// positions with ip's hash, the longest match of at least 4 bytes. It
// returns the length (0 if none) and the offset.
func (e *Encoder) hcSearch(buf []byte, ip, end int, mls uint8) (int, int) {
	m := e.hcInsert(buf, ip, mls)
	chain := e.hashL
	mask := len(chain) - 1
	minChain := ip - len(chain)
	base := e.base
	best, off := 3, 0
	for tries := 1 << e.p.slog; tries > 0 && m >= 0; tries-- {
		// The 4 bytes ending where a longer match would end first: most
		// candidates fail there.
		if m+best-3 >= 0 && load32(buf, m+best-3) == load32(buf, ip+best-3) {
			if n := matchLen(buf, ip, m, end); n > best {
				best, off = n, ip-m
				if ip+n == end {
					break
				}
			}
		}
		if m <= minChain {
			break
		}
		m = int(int32(chain[m&mask] - base))
	}
	if off == 0 {
		return 0, 0
	}
	return best, off
}

// offCost is the offset's code as libzstd weighs it in lazy matching:
// the bits of the offset plus 3, none for a repeat.
func offCost(off int, rep bool) int {
	if rep {
		return 0
	}
	return int(highbit(uint32(off + 3)))
}

// lazy is libzstd's greedy (depth 0), lazy (1) and lazy2 (2) strategies
// over hash chains: after a match is found, the next one or two
// positions are searched too and a longer or closer match there wins.
func (e *Encoder) lazy(buf []byte, start, end int, depth int) {
	mls := min(max(e.p.minMatch, 4), 6)
	ilimit := end - 8
	anchor, ip := start, start
	if ip == 0 {
		ip = 1
	}
	if e.nextUpdate < 1 {
		e.nextUpdate = 1
	}
	rep1, rep2 := int(e.mrep[0]), int(e.mrep[1])
	for ip < ilimit {
		ml, off, isRep := 0, 0, true
		st := ip + 1
		if ip+1 >= rep1 && load32(buf, ip+1) == load32(buf, ip+1-rep1) {
			ml = 4 + matchLen(buf, ip+5, ip+5-rep1, end)
			off = rep1
		}
		if !(depth == 0 && ml > 0) {
			if n, o := e.hcSearch(buf, ip, end, mls); n > ml {
				ml, off, isRep, st = n, o, false, ip
			}
			if ml < 4 {
				ip += (ip-anchor)>>searchStrength + 1
				continue
			}
			for depth >= 1 && ip < ilimit {
				ip++
				if (!isRep) && ip >= rep1 && load32(buf, ip) == load32(buf, ip-rep1) {
					n := 4 + matchLen(buf, ip+4, ip+4-rep1, end)
					if n*3 > ml*3-offCost(off, isRep)+1 {
						ml, off, isRep, st = n, rep1, true, ip
					}
				}
				if n, o := e.hcSearch(buf, ip, end, mls); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+4 {
					ml, off, isRep, st = n, o, false, ip
					continue
				}
				if depth == 2 && ip < ilimit {
					ip++
					if (!isRep) && ip >= rep1 && load32(buf, ip) == load32(buf, ip-rep1) {
						n := 4 + matchLen(buf, ip+4, ip+4-rep1, end)
						if n*4 > ml*4-offCost(off, isRep)+1 {
							ml, off, isRep, st = n, rep1, true, ip
						}
					}
					if n, o := e.hcSearch(buf, ip, end, mls); n >= 4 && n*4-offCost(o, false) > ml*4-offCost(off, isRep)+7 {
						ml, off, isRep, st = n, o, false, ip
						continue
					}
				}
				break
			}
			if !isRep {
				for st > anchor && st-off > 0 && buf[st-1] == buf[st-off-1] {
					st--
					ml++
				}
				rep2, rep1 = rep1, off
			}
		}
		e.emit(buf, anchor, st, uint32(off), ml)
		ip = st + ml
		anchor = ip
		for ip <= ilimit && ip >= rep2 && load32(buf, ip) == load32(buf, ip-rep2) {
			n := 4 + matchLen(buf, ip+4, ip+4-rep2, end)
			rep1, rep2 = rep2, rep1
			e.emit(buf, ip, ip, uint32(rep1), n)
			ip += n
			anchor = ip
		}
	}
	e.mrep = [2]uint32{uint32(rep1), uint32(rep2)}
	e.lits = append(e.lits, buf[anchor:end]...)
}
