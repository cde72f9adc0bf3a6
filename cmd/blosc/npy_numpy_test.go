package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/goblosc/blosc"
	"github.com/goblosc/blosc/b2nd"
	"github.com/goblosc/blosc/internal/golden"
)

// numpyPython returns a python3 that imports numpy, or skips the test:
// the python3 on PATH first, then the system one (a pyenv or venv python
// on PATH often lacks the distribution's python3-numpy).
func numpyPython(t *testing.T) string {
	t.Helper()
	var tried []string
	cands := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		cands = append([]string{p}, cands...)
	}
	for _, p := range cands {
		if slices.Contains(tried, p) {
			continue
		}
		tried = append(tried, p)
		if err := exec.Command(p, "-c", "import numpy").Run(); err == nil {
			return p
		}
	}
	t.Skipf("SKIPPED: no python3 with numpy (tried %s); install python3-numpy to check our .npy files against numpy.load", strings.Join(tried, ", "))
	return ""
}

// runPython runs script with args and returns its standard output.
func runPython(t *testing.T, py, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, stderr.String())
	}
	return out
}

// npyDescribe prints, for each .npy file named, what numpy.load makes of
// it: the shape, the dtype's str (descr for structured dtypes), whether
// it is C-contiguous, and the SHA-256 of its items in C order.
const npyDescribe = `
import sys, json, hashlib, numpy as np
out = []
for p in sys.argv[1:]:
    a = np.load(p, allow_pickle=False)
    dt = a.dtype.str if a.dtype.names is None else str(a.dtype.descr)
    out.append({"shape": list(a.shape), "dtype": dt, "names": list(a.dtype.names or []),
                "c": bool(a.flags.c_contiguous), "sha256": hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()})
print(json.dumps(out))
`

type npyDescription struct {
	Shape  []int64  `json:"shape"`
	DType  string   `json:"dtype"`
	Names  []string `json:"names"`
	C      bool     `json:"c"`
	SHA256 string   `json:"sha256"`
}

func describeNPY(t *testing.T, py string, paths ...string) []npyDescription {
	t.Helper()
	var d []npyDescription
	if err := json.Unmarshal(runPython(t, py, npyDescribe, paths...), &d); err != nil || len(d) != len(paths) {
		t.Fatalf("python3 described %d of %d files: %v", len(d), len(paths), err)
	}
	return d
}

// TestNPYNumpyLoads: the .npy files decompress writes are what numpy.load
// reads as the array c-blosc2 stored (every golden array: <f8, >i2, |S5,
// <c16, 0-D, an empty dimension, ...), a structured dtype included; and
// the .npy files numpy writes (C and Fortran order) go through compress
// and decompress unchanged.
func TestNPYNumpyLoads(t *testing.T) {
	py := numpyPython(t)
	tmp := t.TempDir()

	// c-blosc2's arrays, decompressed to .npy.
	dir := filepath.Join(golden.Dir(t), "b2nd")
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(names) == 0 {
		t.Fatalf("no b2nd golden arrays in %s", dir)
	}
	var sidecars []b2ndSidecar
	var npys []string
	for _, name := range names {
		var sc b2ndSidecar
		if err := json.Unmarshal(mustRead(t, name), &sc); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(tmp, strings.TrimSuffix(sc.File, ".b2nd")+".npy")
		if code, _, stderr := cli(t, nil, "decompress", filepath.Join(dir, sc.File), out); code != 0 {
			t.Fatalf("%s: decompress: %s", sc.File, stderr)
		}
		sidecars = append(sidecars, sc)
		npys = append(npys, out)
	}
	dtypes := map[string]bool{}
	for i, d := range describeNPY(t, py, npys...) {
		sc := sidecars[i]
		dtypes[sc.DType] = true
		if !slices.Equal(d.Shape, sc.Shape) || d.DType != sc.DType || !d.C || d.SHA256 != sc.DataSHA256 {
			t.Errorf("%s: numpy.load reads shape %v dtype %s (C order %v), data %s; c-blosc2 stored %v %s, data %s",
				sc.File, d.Shape, d.DType, d.C, d.SHA256, sc.Shape, sc.DType, sc.DataSHA256)
		}
	}
	for _, want := range []string{"<f8", ">i2", "|S5"} {
		if !dtypes[want] {
			t.Errorf("no golden array of dtype %s was checked", want)
		}
	}

	// A structured dtype, which the package writes given its itemsize.
	const structured = "[('a', '<i4'), ('b', '>f8')]"
	rec := make([]byte, 7*12)
	for i := range rec {
		rec[i] = byte(i*37 + 1)
	}
	a, err := b2nd.FromBuffer(b2nd.Params{Shape: []int64{7}, ChunkShape: []int32{4}, BlockShape: []int32{2}, DType: structured, Itemsize: 12,
		Options: blosc.Options{Codec: blosc.Zstd, Level: 3}}, rec)
	if err != nil {
		t.Fatal(err)
	}
	var frame bytes.Buffer
	if _, err := a.WriteTo(&frame); err != nil {
		t.Fatal(err)
	}
	sin, sout := filepath.Join(tmp, "rec.b2nd"), filepath.Join(tmp, "rec.npy")
	if err := os.WriteFile(sin, frame.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := cli(t, nil, "decompress", sin, sout); code != 0 {
		t.Fatalf("structured: decompress: %s", stderr)
	}
	d := describeNPY(t, py, sout)[0]
	if !slices.Equal(d.Shape, []int64{7}) || !slices.Equal(d.Names, []string{"a", "b"}) || d.SHA256 != sha256hex(rec) {
		t.Errorf("structured: numpy.load reads %+v", d)
	}

	// numpy's own .npy files, C and Fortran order, through compress and
	// decompress (which writes C order).
	const makeNPY = `
import sys, numpy as np
d = sys.argv[1]
r = np.arange(2*3*5*7, dtype='<f8').reshape(14, 15)
np.save(d + '/f8_c.npy', r)
np.save(d + '/f8_f.npy', np.asfortranarray(r * 1.5))
np.save(d + '/i2be_f.npy', np.asfortranarray(np.arange(-60, 60, dtype='>i2').reshape(4, 5, 6)))
np.save(d + '/s5_f.npy', np.asfortranarray(np.array([[b'ab', b'cdefg', b''], [b'x', b'yy', b'zzzzz']], dtype='|S5')))
np.save(d + '/f8_0d.npy', np.array(2.75, dtype='<f8'))
np.save(d + '/u1_f.npy', np.asfortranarray(np.arange(3*4*5*2, dtype='|u1').reshape(3, 4, 5, 2)))
`
	runPython(t, py, makeNPY, tmp)
	const compare = `
import sys, numpy as np
bad = []
for p in sys.argv[1:]:
    a, b = np.load(p), np.load(p + '.out.npy')
    if a.dtype != b.dtype or a.shape != b.shape or not np.array_equal(a, b) or not b.flags.c_contiguous:
        bad.append(p)
print(' '.join(bad))
`
	var ins []string
	for _, n := range []string{"f8_c", "f8_f", "i2be_f", "s5_f", "f8_0d", "u1_f"} {
		in := filepath.Join(tmp, n+".npy")
		mid := in + ".b2nd"
		if code, _, stderr := cli(t, nil, "compress", "-codec", "lz4", in, mid); code != 0 {
			t.Fatalf("%s: compress: %s", n, stderr)
		}
		if code, _, stderr := cli(t, nil, "decompress", mid, in+".out.npy"); code != 0 {
			t.Fatalf("%s: decompress: %s", n, stderr)
		}
		ins = append(ins, in)
	}
	if bad := strings.TrimSpace(string(runPython(t, py, compare, ins...))); bad != "" {
		t.Errorf("numpy reads other arrays back from: %s", bad)
	}
}
