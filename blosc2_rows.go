package blosc

import (
	"math"

	"github.com/goblosc/blosc/internal/schunkhook"
)

func init() {
	schunkhook.CompressesRows = func(opts any) bool {
		o, ok := opts.(*Options)
		return ok && o.compressesRows()
	}
	schunkhook.CompressRows = compressRows
}

// compressesRows reports whether a chunk of these options can be
// compressed from rows (schunkhook.CompressRows): a Blosc2 chunk whose
// pipeline is a byte shuffle of its typesize alone, with a kernel that
// shuffles rows of items of that size, and no dictionary. The other
// filters read or write whole blocks, and a dictionary is trained on the
// whole chunk.
func (o *Options) compressesRows() bool {
	if o.Format != FormatBlosc2 || o.Dict || o.Level <= 0 || !canShuffleRows(o.Typesize) {
		return false
	}
	shuffles := 0
	for i, f := range o.Filters {
		switch {
		case f == NoFilter:
		case f == ByteShuffle && (o.FilterMeta[i] == 0 || int(o.FilterMeta[i]) == o.Typesize):
			shuffles++
		default:
			return false
		}
	}
	return shuffles == 1
}

// compressRows is schunkhook.CompressRows. It refuses blocks whose rows
// (merged where they follow each other) are shorter than the level's
// kernels take well (rowsMinItems).
func compressRows(dst []byte, r *schunkhook.BlockRows, opts any) ([]byte, bool, error) {
	o, ok := opts.(*Options)
	if !ok || !o.compressesRows() {
		return nil, false, nil
	}
	e := enginePool.Get().(*engine)
	defer enginePool.Put(e)
	p := &e.rowsParams
	var err error
	if *p, err = o.params(); err != nil {
		return nil, false, err
	}
	rs := &e.rows
	if *rs, ok = newRowSource(r, p.typesize); !ok || rs.row < rowsMinItems() {
		return nil, false, nil
	}
	defer func() { *rs = rowSource{} }() // the engine keeps no caller's buffer
	if l := p.layout2(rs.nbytes); rs.nbytes > 0 && (l.blocksize != rs.blockItems*rs.ts || l.leftover != 0) {
		return nil, false, nil
	}
	out, err := e.compress2From(dst, nil, rs, p, rs.nbytes+header2Len)
	return out, err == nil, err
}

// rowSource is a checked schunkhook.BlockRows: every row of every block
// lies inside src. Sizes are in items of ts bytes but nbytes.
type rowSource struct {
	src             []byte
	ts              int
	row             int
	dims            int // levels of rows (counts, strides), outermost first
	counts, strides [7]int
	blocks          []int64
	blockItems      int
	nbytes          int // of the chunk
	pf              int // how far ahead of a row the kernel prefetches, in bytes
}

// rowsPrefetchLead is about how many bytes of a block's rows the kernel
// prefetches ahead of those it reads. A block's rows lie far apart (a
// 2-D block's rows of 512 bytes 8 KiB apart), each in a page of its
// own, where the hardware prefetchers, which follow a page, do not
// reach; read in block order they came at 7 GB/s. Prefetching the row a
// lead ahead (the same place in a row 8 rows down in 2-D, in a plane 2
// planes on of a 3-D block of rows of 128 bytes) made it 11 GB/s in 2-D
// and 10 in 3-D over 256 MiB (the loop of BenchmarkShuffleRows, which
// times leads of 0 to 8 KiB); 2 KiB gained less, 8 KiB no more.
const rowsPrefetchLead = 4 << 10

// newRowSource checks r for items of ts bytes and reports false if a row
// lies outside r.Src or the chunk would be too large. Levels of rows that
// follow each other in src merge into longer rows.
func newRowSource(r *schunkhook.BlockRows, ts int) (rowSource, bool) {
	if r.Row <= 0 || r.Dims < 0 || r.Dims > len(r.Counts) {
		return rowSource{}, false
	}
	n := int64(len(r.Src) / ts)
	row, dims := r.Row, r.Dims
	var counts, strides [7]int64
	copy(counts[:], r.Counts[:dims])
	copy(strides[:], r.Strides[:dims])
	for i := range dims {
		if counts[i] <= 0 || strides[i] < 0 {
			return rowSource{}, false
		}
		if counts[i] == 1 {
			strides[i] = 0 // never stepped: any value, it must not overflow
		}
	}
	// The block's last item is span items past its first; every product
	// is checked against n, which bounds them all.
	span, items := row-1, row
	if span >= n {
		return rowSource{}, false
	}
	for i := range dims {
		c := counts[i] - 1
		if strides[i] > 0 && c > (n-1-span)/strides[i] {
			return rowSource{}, false
		}
		span += c * strides[i]
		if counts[i] > math.MaxInt32/items {
			return rowSource{}, false
		}
		items *= counts[i]
	}
	for dims > 0 && strides[dims-1] == row {
		dims--
		row *= counts[dims]
	}
	nblocks := int64(len(r.Blocks))
	if items > MaxBufferSize/int64(ts) || nblocks > 0 && items*int64(ts) > MaxBufferSize/nblocks {
		return rowSource{}, false
	}
	for _, b := range r.Blocks {
		if b < 0 || b > n-1-span {
			return rowSource{}, false
		}
	}
	rs := rowSource{src: r.Src, ts: ts, row: int(row), dims: dims, blocks: r.Blocks,
		blockItems: int(items), nbytes: int(nblocks * items * int64(ts))}
	for i := range dims {
		rs.counts[i], rs.strides[i] = int(counts[i]), int(strides[i])
	}
	rs.pf = rowsPrefetch(rowsPrefetchLead, row, int64(ts), counts[:dims], strides[:dims])
	return rs, true
}

// rowsPrefetch is how far ahead of a row, in bytes, the kernel prefetches
// for a lead of about lead bytes of a block's data: it steps along the
// innermost level of rows whose steps reach the lead within its count,
// the outermost at worst (past the block: the rows of a block to come).
// The strides are checked (each times its count lies inside the
// buffer); a distance past 1 GiB is no use and gives 0.
func rowsPrefetch(lead, row, ts int64, counts, strides []int64) int {
	step, pf := row*ts, lead
	for lv := len(counts) - 1; lv >= 0; lv-- {
		m := (lead + step - 1) / step
		if strides[lv] > (1<<30)/ts/m {
			return 0
		}
		pf = m * strides[lv] * ts
		if m <= counts[lv] {
			break
		}
		step *= counts[lv]
	}
	return int(min(pf, 1<<30))
}

// shuffle writes the byte shuffle of block j into dst (blockItems*ts
// bytes), reading the block's rows where they lie.
func (rs *rowSource) shuffle(dst []byte, j int) {
	n, ts := rs.blockItems, rs.ts
	_ = dst[n*ts-1]
	base := int(rs.blocks[j])
	if rs.dims == 0 {
		shuffleRows(dst, rs.src[base*ts:], ts, n, rs.row, 1, 0, 0, rs.pf)
		return
	}
	// The innermost level goes to the kernel, the others are counted
	// here.
	inner := rs.dims - 1
	n1, ss := rs.counts[inner], rs.strides[inner]*ts
	var idx [7]int
	for off := 0; ; off += n1 * rs.row {
		p := base
		for i := range inner {
			p += idx[i] * rs.strides[i]
		}
		shuffleRows(dst[off:], rs.src[p*ts:], ts, n, rs.row, n1, rs.row, ss, rs.pf)
		i := inner - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < rs.counts[i] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

// gather copies the chunk's blocks, their rows one after the other, into
// dst (nbytes): the chunk that a copy stores.
func (rs *rowSource) gather(dst []byte) {
	ts, rb := rs.ts, rs.row*rs.ts
	pos := 0
	for _, b := range rs.blocks {
		var idx [7]int
		for {
			p := int(b)
			for i := range rs.dims {
				p += idx[i] * rs.strides[i]
			}
			pos += copy(dst[pos:pos+rb], rs.src[p*ts:])
			i := rs.dims - 1
			for ; i >= 0; i-- {
				if idx[i]++; idx[i] < rs.counts[i] {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
}
