package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// The synthetic pair in testdata/compare: new-pass.txt is as fast over
// memcpy as old.txt (its absolute times are 10% slower, a busier machine,
// and one row is 3% faster: under the threshold); new-fail.txt compresses
// 10% slower over memcpy.
func TestCompareGate(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare", "testdata/compare/old.txt", "testdata/compare/new-pass.txt"}, 0, "8 series compared"},
		{[]string{"compare", "testdata/compare/old.txt", "testdata/compare/new-fail.txt"}, 1, "FAIL"},
		// A threshold above the change lets it pass; -either fails on a
		// gain too.
		{[]string{"compare", "-threshold", "15", "testdata/compare/old.txt", "testdata/compare/new-fail.txt"}, 0, "x-memcpy"},
		{[]string{"compare", "-either", "-threshold", "2", "testdata/compare/old.txt", "testdata/compare/new-pass.txt"}, 1, "FAIL"},
		// The gate on time: the 10% slower absolute time fails it.
		{[]string{"compare", "-unit", "sec/op", "testdata/compare/old.txt", "testdata/compare/new-pass.txt"}, 1, "FAIL"},
		{[]string{"compare", "testdata/compare/old.txt"}, 2, ""},
		{[]string{"compare", "testdata/compare/old.txt", "testdata/compare/missing.txt"}, 1, ""},
	} {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(out.String(), c.want) {
			t.Errorf("%v: exit %d (want %d)\n%s%s", c.args, code, c.code, out.String(), errb.String())
		}
	}
}

// The fail case names the regression; the pass case shows the
// decompression gain as a significant delta (with its p-value).
func TestCompareReport(t *testing.T) {
	var out, errb bytes.Buffer
	run([]string{"compare", "testdata/compare/old.txt", "testdata/compare/new-fail.txt"}, &out, &errb)
	if !strings.Contains(errb.String(), "significant regression: ") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stderr is not the one-line verdict:\n%s", errb.String())
	}
	// The list: a count, then one line a series, worst first.
	_, list, ok := strings.Cut(out.String(), "significant changes, worst first:\n")
	if !ok {
		t.Fatalf("no list of changes:\n%s", out.String())
	}
	var deltas []float64
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		var d float64
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "%f%%", &d); err != nil {
			t.Fatalf("list line %q: %v", line, err)
		}
		deltas = append(deltas, d)
	}
	if len(deltas) == 0 || !strings.Contains(list, "op=compress/engine=go-2 x-memcpy") {
		t.Errorf("list does not name the regression:\n%s", list)
	}
	for i := 1; i < len(deltas); i++ {
		if deltas[i] < deltas[i-1] {
			t.Errorf("list not worst first: %v", deltas)
		}
	}
	out.Reset()
	run([]string{"compare", "testdata/compare/old.txt", "testdata/compare/new-pass.txt"}, &out, &errb)
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "op=decompress") && strings.Contains(line, "x-memcpy") && (!strings.Contains(line, "  +") || !strings.Contains(line, "p=0.0")) {
			t.Errorf("decompress row does not show the 3%% gain: %s", line)
		}
	}
}
