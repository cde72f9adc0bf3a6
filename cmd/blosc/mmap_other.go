//go:build !linux

package main

import "os"

// mappedFile is unused where files are not mapped: reads copy.
type mappedFile struct{ b []byte }

func mapFile(*os.File, int64) (mappedFile, bool) { return mappedFile{}, false }

func (mappedFile) release(lo, hi int64) {}

func (mappedFile) unmap() {}
