package b2nd

import (
	"errors"
	"fmt"
	"slices"

	"github.com/goblosc/blosc"
)

// writeShape stores shape in the b2nd metalayer and lays the array out
// anew (the chunks must follow in the same change).
func (a *Array) writeShape(shape []int64) error {
	m := a.meta
	m.Shape = append([]int64(nil), shape...)
	g, err := newGeom(m.Shape, m.ChunkShape, m.BlockShape, a.g.itemsize)
	if err != nil {
		return err
	}
	if err := a.canReshape(); err != nil {
		return err
	}
	raw, err := m.Marshal()
	if err != nil {
		return err
	}
	if err := a.sc.UpdateMetalayer(MetaName, raw); err != nil {
		return err
	}
	a.meta, a.g = m, g
	return nil
}

// canReshape refuses shape changes of an array with only a Caterva
// metalayer (c-blosc2 would add a b2nd one, which changes the frame's
// header size).
func (a *Array) canReshape() error {
	if _, err := a.sc.Metalayer(MetaName); errors.Is(err, blosc.ErrNotFound) {
		return fmt.Errorf("%w: changing the shape of an array with only a Caterva metalayer", blosc.ErrUnsupported)
	}
	return nil
}

// Resize changes the array's shape as c-blosc2's b2nd_resize does. With
// start nil, each dimension grows or shrinks at its end. Otherwise
// start[i] is where dimension i grows (new items inserted there) or
// shrinks (items removed from there on); away from the end, start and
// the change must be whole chunks. Grown parts read as zeros where whole
// new chunks are added; inside the array's old edge chunks they read as
// what those chunks' padding held (zeros, unless an earlier shrink left
// items there), as in c-blosc2.
func (a *Array) Resize(newShape, start []int64) (err error) {
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock(&err)
	return a.resize(newShape, start)
}

func (a *Array) resize(newShape, start []int64) error {
	nd := len(a.meta.Shape)
	if len(newShape) != nd || (start != nil && len(start) != nd) {
		return fmt.Errorf("%w: a new shape of %d dimensions (and start of %d) for an array of %d", blosc.ErrInvalidOptions, len(newShape), len(start), nd)
	}
	old := a.meta.Shape
	for i := range nd {
		if newShape[i] < 0 {
			return fmt.Errorf("%w: new shape %v", blosc.ErrInvalidOptions, newShape)
		}
		if start == nil {
			continue
		}
		if start[i] < 0 || start[i] > old[i] {
			return fmt.Errorf("%w: resize start %d of dimension %d of %d items", blosc.ErrInvalidOptions, start[i], i, old[i])
		}
		inner := (newShape[i] > old[i] && start[i] != old[i]) || (newShape[i] < old[i] && start[i]+old[i]-newShape[i] != old[i])
		if inner && (start[i]%a.g.chunk[i] != 0 || (newShape[i]-old[i])%a.g.chunk[i] != 0) {
			return fmt.Errorf("%w: dimension %d changes by %d items at %d, away from its end: want whole chunks of %d", blosc.ErrInvalidOptions, i, newShape[i]-old[i], start[i], a.g.chunk[i])
		}
	}
	if err := a.canReshape(); err != nil {
		return err
	}
	shrunk := make([]int64, nd)
	for i := range nd {
		shrunk[i] = min(newShape[i], old[i])
	}
	return a.sc.Batch(func() error {
		if err := a.shrink(shrunk, start); err != nil {
			return err
		}
		return a.extend(newShape, start)
	})
}

// chunkStartsIn reports whether the chunk at grid coordinates cc of
// layout g starts, in some dimension j, inside [lo[j], lo[j]+n[j]).
func chunkStartsIn(g *geom, cc, lo, n []int64) bool {
	for j := range cc {
		s := g.chunk[j] * cc[j]
		if lo[j] <= s && s < lo[j]+n[j] {
			return true
		}
	}
	return false
}

// gridCoords writes the grid coordinates of chunk i of g into cc.
func gridCoords(g *geom, i int64, cc []int64) {
	for j := range cc {
		cc[j] = i / g.chunkStrides[j] % max(g.chunksIn[j], 1)
	}
}

// shrink is c-blosc2's shrink_shape: the new shape first, then every old
// chunk that starts in a removed range goes, last first.
func (a *Array) shrink(newShape, start []int64) error {
	oldG := a.g
	diff := make([]int64, len(newShape))
	same := true
	for i := range newShape {
		diff[i] = oldG.shape[i] - newShape[i]
		same = same && diff[i] == 0
	}
	if same {
		return nil
	}
	if start == nil {
		start = newShape
	}
	if err := a.writeShape(newShape); err != nil {
		return err
	}
	cc := make([]int64, len(newShape))
	for i := int64(a.sc.Nchunks()) - 1; i >= 0; i-- {
		gridCoords(oldG, i, cc)
		if chunkStartsIn(oldG, cc, start, diff) {
			if err := a.sc.DeleteChunk(int(i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// extend is c-blosc2's extend_shape: zero chunks inserted where the new
// chunk grid has chunks that start in a grown range, then the new shape.
func (a *Array) extend(newShape, start []int64) error {
	oldShape := a.meta.Shape
	diff := make([]int64, len(newShape))
	same := true
	for i := range newShape {
		diff[i] = newShape[i] - oldShape[i]
		same = same && diff[i] == 0
	}
	if same {
		return nil
	}
	if start == nil {
		start = oldShape
	}
	g, err := newGeom(newShape, a.meta.ChunkShape, a.meta.BlockShape, a.g.itemsize)
	if err != nil {
		return err
	}
	if g.nchunks != int64(a.sc.Nchunks()) {
		zero, err := blosc.ZerosChunk(nil, g.chunkBytes, g.itemsize)
		if err != nil {
			return err
		}
		cc := make([]int64, len(newShape))
		for i := range g.nchunks {
			gridCoords(g, i, cc)
			if chunkStartsIn(g, cc, start, diff) {
				if err := a.sc.InsertChunk(int(i), zero); err != nil {
					return err
				}
			}
		}
	}
	return a.writeShape(newShape)
}

// Insert inserts src, items in C order of the array's shape but n along
// axis, before index at of that axis (at == the axis's length appends),
// as c-blosc2's b2nd_insert does: away from the end, at and n must be
// whole chunks.
func (a *Array) Insert(src []byte, axis int, at int64) (err error) {
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock(&err)
	return a.insert(src, axis, at)
}

func (a *Array) insert(src []byte, axis int, at int64) error {
	nd := len(a.meta.Shape)
	if axis < 0 || axis >= nd {
		return fmt.Errorf("%w: axis %d of an array of %d dimensions", blosc.ErrInvalidOptions, axis, nd)
	}
	shape := slices.Clone(a.meta.Shape)
	if at < 0 || at > shape[axis] {
		return fmt.Errorf("%w: insert at %d of an axis of %d items", blosc.ErrInvalidOptions, at, shape[axis])
	}
	plane := int64(a.g.itemsize)
	for i, s := range shape {
		if i != axis {
			plane *= s
		}
	}
	if plane == 0 || int64(len(src))%plane != 0 {
		if plane == 0 && len(src) == 0 {
			return nil
		}
		return fmt.Errorf("%w: %d bytes are not whole planes of %d bytes across axis %d", blosc.ErrInvalidOptions, len(src), plane, axis)
	}
	n := int64(len(src)) / plane
	if n == 0 {
		return nil
	}
	newShape := append([]int64(nil), shape...)
	newShape[axis] += n
	start := make([]int64, nd)
	start[axis] = at
	return a.sc.Batch(func() error {
		rs := start
		if at == shape[axis] {
			rs = nil
		}
		if err := a.resize(newShape, rs); err != nil {
			return err
		}
		stop := append([]int64(nil), newShape...)
		stop[axis] = at + n
		return a.setSlice(src, start, stop)
	})
}

// Append appends src (whole planes across axis, in C order) at the end of
// axis.
func (a *Array) Append(src []byte, axis int) (err error) {
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock(&err)
	return a.append(src, axis)
}

func (a *Array) append(src []byte, axis int) error {
	if axis < 0 || axis >= len(a.meta.Shape) {
		return fmt.Errorf("%w: axis %d of an array of %d dimensions", blosc.ErrInvalidOptions, axis, len(a.meta.Shape))
	}
	return a.insert(src, axis, a.meta.Shape[axis])
}

// Delete removes n items of axis from index at on, as c-blosc2's
// b2nd_delete does: away from the end, at and n must be whole chunks.
func (a *Array) Delete(axis int, at, n int64) (err error) {
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock(&err)
	return a.delete(axis, at, n)
}

func (a *Array) delete(axis int, at, n int64) error {
	nd := len(a.meta.Shape)
	if axis < 0 || axis >= nd {
		return fmt.Errorf("%w: axis %d of an array of %d dimensions", blosc.ErrInvalidOptions, axis, nd)
	}
	shape := slices.Clone(a.meta.Shape)
	if at < 0 || n < 0 || at > shape[axis]-n {
		return fmt.Errorf("%w: delete [%d, %d+%d) of an axis of %d items", blosc.ErrInvalidOptions, at, at, n, shape[axis])
	}
	newShape := append([]int64(nil), shape...)
	newShape[axis] -= n
	if at == shape[axis]-n {
		return a.resize(newShape, nil)
	}
	start := make([]int64, nd)
	start[axis] = at
	return a.resize(newShape, start)
}
