package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/internal/frametest"
	"github.com/goblosc/blosc/internal/fsys"
	"github.com/goblosc/blosc/internal/golden"
)

// cliFaulty runs the command with the file system failing call k with e
// (negative k: none), and returns the exit status, stderr and the calls
// the command made.
func cliFaulty(t *testing.T, k int, e error, keep int, args ...string) (int, string, []string) {
	t.Helper()
	ffs := &fsys.Faulty{FS: fsys.OS{}, Fail: k, Err: e, Keep: keep}
	fsys.Default = ffs
	defer func() { fsys.Default = fsys.OS{} }()
	code, _, stderr := cli(t, nil, args...)
	if k >= 0 && !ffs.Failed() {
		return -1, stderr, ffs.Calls()
	}
	return code, stderr, ffs.Calls()
}

// snapshot is a directory tree's files and their bytes.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		m[strings.TrimPrefix(p, root)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if st, err := os.Stat(from); err == nil && st.IsDir() {
		frametest.CopyDir(t, from, to)
		return
	}
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAppendCLIErrors: blosc append on a frame file, a sparse frame and a
// Bloscpack file, with each call it makes on the file system (open,
// create, write, sync, truncate, rename, remove, the directory's sync)
// failing with ENOSPC or EIO, whole or after part of a write: a run that
// fails leaves the container reading as before (a file's very bytes), a
// run that succeeds as after. As the strace sweep of docs/durability.md
// found, a failing write used to destroy a sparse frame, and failing
// syncs left files reading as old and new with an error reported.
func TestAppendCLIErrors(t *testing.T) {
	dir := t.TempDir()
	d0, _ := golden.Pattern("linspace_f64", 40000)
	d1, _ := golden.Pattern("linspace_f64", 20000)
	for i := range d1 {
		d1[i] ^= 0x5a
	}
	in0, in1 := filepath.Join(dir, "in0"), filepath.Join(dir, "in1")
	os.WriteFile(in0, d0, 0o644)
	os.WriteFile(in1, d1, 0o644)
	want := append(slices.Clone(d0), d1...)
	for _, c := range []struct{ name, format string }{
		{"f.b2frame", "frame"}, {"s.sframe", "sframe"}, {"p.blp", "bloscpack"},
	} {
		t.Run(c.format, func(t *testing.T) {
			base := filepath.Join(dir, c.name)
			if code, _, stderr := cli(t, nil, "compress", "-format", c.format, "-codec", "lz4", "-chunksize", "8192", in0, base); code != 0 {
				t.Fatalf("compress: %s", stderr)
			}
			baseFiles := snapshot(t, base)
			read := func(target string) string {
				code, stdout, stderr := cli(t, nil, "decompress", target, "-")
				if code != 0 {
					t.Fatalf("decompress %s: %s", target, stderr)
				}
				return stdout
			}
			clean := filepath.Join(dir, "clean-"+c.name)
			copyTree(t, base, clean)
			code, stderr, calls := cliFaulty(t, -1, nil, 0, "append", clean, in1)
			if code != 0 || read(clean) != string(want) {
				t.Fatalf("clean append: exit %d: %s", code, stderr)
			}
			fails, oks := 0, 0
			for k := range calls {
				for _, e := range []error{syscall.ENOSPC, syscall.EIO} {
					for _, keep := range []int{0, 100} {
						if keep > 0 && !strings.HasPrefix(calls[k], "write") && !strings.HasPrefix(calls[k], "pwrite") {
							continue
						}
						target := filepath.Join(dir, fmt.Sprintf("t%d-%v-%d-%s", k, e == syscall.EIO, keep, c.name))
						copyTree(t, base, target)
						code, stderr, got := cliFaulty(t, k, e, keep, "append", target, in1)
						what := fmt.Sprintf("%s failing with %v after %d bytes", got[min(k, len(got)-1)], e, keep)
						switch code {
						case -1:
							continue // the run took another path
						case 0:
							oks++
							if read(target) != string(want) {
								t.Fatalf("%s: append succeeded, but the container does not hold the data after", what)
							}
						default:
							fails++
							if !strings.Contains(stderr, e.Error()) {
								t.Fatalf("%s: the error does not say what failed: %s", what, stderr)
							}
							if read(target) != string(d0) {
								t.Fatalf("%s: append failed (%s), but the container does not hold the data before", what, strings.TrimSpace(stderr))
							}
							if c.format != "sframe" && !maps.Equal(snapshot(t, target), baseFiles) {
								t.Fatalf("%s: append failed, but the file's bytes changed", what)
							}
						}
						if c.format == "sframe" {
							// The next writer removes what a failed run
							// left; a failed run then leaves the old files.
							if code, _, stderr := cliFaulty(t, -1, nil, 0, "append", target, in1); code != 0 {
								t.Fatalf("%s: appending again: %s", what, stderr)
							}
						}
						os.RemoveAll(target)
					}
				}
			}
			t.Logf("%d calls: %d runs failed, %d succeeded", len(calls), fails, oks)
			if fails == 0 {
				t.Error("no run failed: the calls were not reached")
			}
		})
	}
}

// TestOutCLIErrors: compress and decompress writing OUT, with each call
// on the file system failing: a run that fails leaves an existing OUT as
// it was and no file beside it.
func TestOutCLIErrors(t *testing.T) {
	dir := t.TempDir()
	d0, _ := golden.Pattern("linspace_f64", 40000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, d0, 0o644)
	frame, blp := filepath.Join(dir, "f.b2frame"), filepath.Join(dir, "p.blp")
	for _, args := range [][]string{
		{"compress", "-chunksize", "8192", in, frame},
		{"compress", "-format", "bloscpack", "-chunksize", "8192", in, blp},
	} {
		if code, _, stderr := cli(t, nil, args...); code != 0 {
			t.Fatal(stderr)
		}
	}
	outDir := filepath.Join(dir, "out")
	os.Mkdir(outDir, 0o755)
	out := filepath.Join(outDir, "OUT")
	for _, args := range [][]string{
		{"compress", "-format", "frame", "-chunksize", "8192", in, out},
		{"compress", "-format", "chunk2", in, out},
		{"compress", "-format", "bloscpack", "-chunksize", "8192", in, out},
		{"decompress", frame, out},
		{"decompress", blp, out},
	} {
		t.Run(strings.Join(args[:3], " "), func(t *testing.T) {
			os.WriteFile(out, []byte("the old OUT"), 0o600)
			code, stderr, calls := cliFaulty(t, -1, nil, 0, args...)
			if code != 0 {
				t.Fatalf("clean run: %s", stderr)
			}
			good, _ := os.ReadFile(out)
			failed := 0
			for k := range calls {
				for _, e := range []error{syscall.ENOSPC, syscall.EIO} {
					os.WriteFile(out, []byte("the old OUT"), 0o600)
					code, stderr, got := cliFaulty(t, k, e, 7, args...)
					what := fmt.Sprintf("%s failing with %v", got[min(k, len(got)-1)], e)
					b, _ := os.ReadFile(out)
					ents, _ := os.ReadDir(outDir)
					switch {
					case code == -1:
					case code == 0 && !bytes.Equal(b, good):
						t.Fatalf("%s: the run succeeded with another OUT", what)
					case code != 0 && string(b) != "the old OUT":
						t.Fatalf("%s: the run failed (%s), and OUT changed", what, strings.TrimSpace(stderr))
					case len(ents) != 1:
						t.Fatalf("%s: %d files beside OUT", what, len(ents)-1)
					case code != 0:
						failed++
					}
				}
			}
			if failed == 0 {
				t.Error("no run failed")
			}
		})
	}
}

// TestCompressSparseCLIErrors: compress -format sframe, with each call on
// the file system failing, leaves either the whole sparse frame or no
// directory at all.
func TestCompressSparseCLIErrors(t *testing.T) {
	dir := t.TempDir()
	d0, _ := golden.Pattern("linspace_f64", 40000)
	in := filepath.Join(dir, "in")
	os.WriteFile(in, d0, 0o644)
	out := filepath.Join(dir, "s.sframe")
	args := []string{"compress", "-format", "sframe", "-chunksize", "8192", in, out}
	code, stderr, calls := cliFaulty(t, -1, nil, 0, args...)
	if code != 0 {
		t.Fatal(stderr)
	}
	failed := 0
	for k := range calls {
		for _, e := range []error{syscall.ENOSPC, syscall.EIO} {
			os.RemoveAll(out)
			code, stderr, got := cliFaulty(t, k, e, 5, args...)
			what := fmt.Sprintf("%s failing with %v", got[min(k, len(got)-1)], e)
			_, serr := os.Stat(out)
			switch {
			case code == -1:
			case code != 0 && serr == nil:
				t.Fatalf("%s: the run failed (%s), and left %s", what, strings.TrimSpace(stderr), out)
			case code == 0:
				c, stdout, stderr := cli(t, nil, "decompress", out, "-")
				if c != 0 || stdout != string(d0) {
					t.Fatalf("%s: the run succeeded, but the frame does not decompress (%s)", what, stderr)
				}
			default:
				failed++
			}
		}
	}
	if failed == 0 {
		t.Error("no run failed")
	}
}

// TestDecompressSpecialChunk: a Blosc2 chunk of 32 bytes claiming 256 MiB of
// zeros or of a repeated value decompresses in pieces: the right bytes,
// allocating a few megabytes (it allocated all of it).
func TestDecompressSpecialChunk(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MiB twice")
	}
	dir := t.TempDir()
	zeros, err := blosc.ZerosChunk(nil, 1<<28, 8)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := blosc.ValueChunk(nil, 1<<28, []byte("12345678"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string][]byte{"zeros": zeros, "repeat": rep} {
		in := filepath.Join(dir, name)
		os.WriteFile(in, c, 0o644)
		sink := &checkSink{want: map[string]byte{"zeros": 0}[name], rep: name == "repeat"}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		code := run([]string{"decompress", in, "-"}, nil, sink, io.Discard)
		runtime.ReadMemStats(&m1)
		if code != 0 || sink.n != 1<<28 || sink.bad {
			t.Fatalf("%s: exit %d, %d bytes, wrong bytes %v", name, code, sink.n, sink.bad)
		}
		if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 {
			t.Errorf("%s: allocated %d MiB", name, a>>20)
		}
	}
}

// checkSink counts what is written and checks it: zeros, or "12345678"
// repeated.
type checkSink struct {
	n    int64
	want byte
	rep  bool
	bad  bool
}

func (c *checkSink) Write(p []byte) (int, error) {
	for i, b := range p {
		w := c.want
		if c.rep {
			w = "12345678"[(c.n+int64(i))%8]
		}
		if b != w {
			c.bad = true
			break
		}
	}
	c.n += int64(len(p))
	return len(p), nil
}
