package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

// The progress line: bytes done, rate and time left, redrawn on stderr
// at most ten times a second, once the work has taken a second, and only
// when stderr is a terminal.

// progressOut is where progress goes, and isTerminal decides whether it
// is shown at all (tests replace both, and the clock).
var (
	progressOut io.Writer = os.Stderr
	isTerminal            = func(w io.Writer) bool {
		f, ok := w.(*os.File)
		return ok && isTerminalFd(f.Fd())
	}
	progressNow = time.Now
)

type progress struct {
	w       io.Writer
	total   int64 // 0: unknown
	done    int64
	start   time.Time
	drawn   time.Time
	shown   bool
	enabled bool
}

// newProgress returns a progress reporter for total bytes (0 if unknown);
// it draws nothing unless progressOut is a terminal.
func newProgress(total int64) *progress {
	return &progress{w: progressOut, total: total, start: progressNow(), enabled: isTerminal(progressOut)}
}

func (p *progress) add(n int) {
	if p == nil || !p.enabled || n <= 0 {
		return
	}
	p.done += int64(n)
	now := progressNow()
	if now.Sub(p.start) < time.Second || now.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = now
	p.shown = true
	fmt.Fprintf(p.w, "\r%s\x1b[K", p.line(now))
}

// line is the progress text at time now.
func (p *progress) line(now time.Time) string {
	el := now.Sub(p.start).Seconds()
	rate := float64(p.done) / max(el, 1e-9)
	s := byteSize(p.done)
	if p.total > 0 {
		s += fmt.Sprintf(" / %s (%.0f%%)", byteSize(p.total), 100*float64(p.done)/float64(p.total))
	}
	s += fmt.Sprintf("  %s/s", byteSize(int64(rate)))
	if p.total > 0 && rate > 0 && p.done < p.total {
		left := time.Duration(float64(p.total-p.done) / rate * float64(time.Second)).Round(time.Second)
		s += fmt.Sprintf("  %s left", left)
	}
	return s
}

// finish clears the line if one was drawn.
func (p *progress) finish() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTP"[exp])
}

// progressReader counts what is read through it.
type progressReader struct {
	r io.Reader
	p *progress
}

func (r progressReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.p.add(n)
	return n, err
}

// progressWriter counts what is written through it.
type progressWriter struct {
	w io.Writer
	p *progress
}

func (w progressWriter) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	w.p.add(n)
	return n, err
}

// inputSize is IN's size when it is a regular file, else 0.
func inputSize(path string) int64 {
	if path == "-" {
		return 0
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}
