package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// fakeProgress points progress at a buffer with a clock the test moves.
func fakeProgress(t *testing.T, terminal bool) (*bytes.Buffer, *time.Time) {
	var buf bytes.Buffer
	now := time.Unix(1000, 0)
	oldOut, oldTerm, oldNow := progressOut, isTerminal, progressNow
	progressOut = &buf
	isTerminal = func(io.Writer) bool { return terminal }
	progressNow = func() time.Time { return now }
	t.Cleanup(func() { progressOut, isTerminal, progressNow = oldOut, oldTerm, oldNow })
	return &buf, &now
}

func TestProgressLine(t *testing.T) {
	buf, now := fakeProgress(t, true)
	p := newProgress(4 << 20)
	p.add(1 << 20) // before a second: nothing
	if buf.Len() != 0 {
		t.Fatalf("drawn before a second: %q", buf.String())
	}
	*now = now.Add(2 * time.Second)
	p.add(1 << 20)
	got := buf.String()
	for _, want := range []string{"\r", "2.0 MiB / 4.0 MiB (50%)", "1.0 MiB/s", "2s left"} {
		if !strings.Contains(got, want) {
			t.Errorf("line %q lacks %q", got, want)
		}
	}
	buf.Reset()
	*now = now.Add(10 * time.Millisecond)
	p.add(1) // within 100 ms of the last draw
	if buf.Len() != 0 {
		t.Errorf("redrawn within 100 ms")
	}
	p.finish()
	if buf.String() != "\r\x1b[K" {
		t.Errorf("finish wrote %q", buf.String())
	}
	if s := byteSize(1536); s != "1.5 KiB" {
		t.Errorf("byteSize(1536) = %q", s)
	}
}

func TestProgressSilentWithoutTerminal(t *testing.T) {
	buf, now := fakeProgress(t, false)
	p := newProgress(0)
	*now = now.Add(5 * time.Second)
	p.add(1 << 30)
	p.finish()
	var r io.Reader = progressReader{strings.NewReader("abc"), p}
	io.ReadAll(r)
	if buf.Len() != 0 {
		t.Errorf("wrote %q with stderr not a terminal", buf.String())
	}
	// And a whole CLI run stays silent on stderr.
	code, _, stderr := cli(t, []byte(strings.Repeat("x", 100000)), "compress", "-format", "frame", "-", "-")
	if code != 0 || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
