//go:build !linux

package swmr

func pin(string) error { return errSplit }
