// Package datasets generates the inputs the golden vectors' PATTERNS.md
// defines, at any size, and real-world-like numeric series beside them,
// for the tests, the benchmark harness and the command line's bench. It
// imports no testing package, so a program can link it.
package datasets

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Names of the patterns a benchmark or test can generate at any size:
// PATTERNS.md's (RealWorld lists more).
var Names = []string{"zeros", "arange_i8", "arange_i16", "arange_i32", "arange_i64",
	"linspace_f64", "rand_s1", "f32_noise", "text", "runs", "rec12"}

// RealWorld names the patterns that look like data people store, beside
// PATTERNS.md's smooth and random ones: noisy sensor series, jittered
// timestamps, sparse arrays and records of mixed fields. They are this
// module's own (no C-made vector uses them); their generators are
// deterministic, so every run and every machine compresses the same bytes.
var RealWorld = []string{"sensor_f32", "sensor_f64", "timestamps_i64", "sparse_f64", "mixed_rec13"}

// RealWorldTypesize is the element (record) size of each RealWorld pattern.
var RealWorldTypesize = map[string]int{"sensor_f32": 4, "sensor_f64": 8, "timestamps_i64": 8, "sparse_f64": 8, "mixed_rec13": 13}

// A Set is a pattern at the typesize natural to it.
type Set struct {
	Name     string
	Typesize int
}

// Bench lists the datasets the command line's bench runs and the
// encoder tables compare with C on: PATTERNS.md's patterns at their
// natural typesizes, then the RealWorld ones.
var Bench = []Set{
	{"arange_i64", 8}, {"linspace_f64", 8}, {"f32_noise", 4}, {"rand_s1", 8},
	{"text", 1}, {"runs", 4}, {"rec12", 4}, {"arange_i16", 2}, {"zeros", 8},
	{"sensor_f32", 4}, {"sensor_f64", 8}, {"timestamps_i64", 8}, {"sparse_f64", 8}, {"mixed_rec13", 13},
}

// Only returns the sets of Bench named in list (comma-separated), or all
// of them when list is empty.
func Only(list string) []Set {
	if list == "" {
		return Bench
	}
	var out []Set
	for _, s := range Bench {
		for _, n := range strings.Split(list, ",") {
			if n == s.Name {
				out = append(out, s)
			}
		}
	}
	return out
}

type splitmix struct{ s uint64 }

func (m *splitmix) next() uint64 {
	m.s += 0x9E3779B97F4A7C15
	z := m.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

var words = strings.Fields("the quick brown fox jumps over lazy dog blosc chunk frame shuffle bitshuffle compress data block lorem ipsum dolor sit amet consectetur adipiscing elit alpha beta gamma delta epsilon zeta eta theta")

// bell returns a bell-shaped random integer with mean 0 and standard
// deviation about 148 (the sum of four random bytes, less its mean).
func (m *splitmix) bell() int64 {
	r := m.next()
	return int64(r&255+r>>8&255+r>>16&255+r>>24&255) - 510
}

// wave is a sine-like wave of the given period (in samples) and
// amplitude: two parabolic arches of opposite signs.
func wave(i, period int, amp int64) int64 {
	h := int64(period / 2)
	x := int64(i % period)
	sign := int64(1)
	if x >= h {
		x, sign = x-h, -1
	}
	return sign * amp * 4 * x * (h - x) / (h * h)
}

// temperature is the sensor patterns' series: one reading a minute, a
// daily cycle of +-6 degrees around 15, a yearly one of +-9, a slow random
// walk (weather) and reading noise of 0.05 degrees, kept at the sensor's
// resolution of 2^-bits degrees. It counts in 1024ths of a degree with
// integers, so that its floats are exact and the same on every platform
// (no libm calls, no fused multiply-adds).
type temperature struct {
	m    splitmix
	walk int64
	bits uint
}

func (t *temperature) at(i int) float64 {
	const day, unit = 24 * 60, 1024
	t.walk += t.m.bell() / 74
	v := 15*unit + wave(i, day, 6*unit) + wave(i, 365*day, 9*unit) + t.walk + t.m.bell()*51/148
	q := int64(1) << (10 - t.bits)
	v = (v + q/2) &^ (q - 1)
	return float64(v) / unit
}

// Pattern returns pattern(name, n) exactly as the vectors' PATTERNS.md
// defines it.
func Pattern(name string, n int) ([]byte, error) {
	out := make([]byte, 0, n+16)
	elems := func(es int, f func(i int) uint64) []byte {
		var buf [8]byte
		for i := 0; len(out) < n; i++ {
			v := f(i)
			for k := 0; k < es; k++ {
				buf[k] = byte(v >> (8 * k))
			}
			out = append(out, buf[:es]...)
		}
		return out[:n]
	}
	switch {
	case name == "zeros":
		return make([]byte, n), nil
	case strings.HasPrefix(name, "rep_"):
		v, err := strconv.ParseUint(name[4:], 16, 8)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", name, err)
		}
		for i := 0; i < n; i++ {
			out = append(out, byte(v))
		}
		return out, nil
	case name == "arange_i8":
		return elems(1, func(i int) uint64 { return uint64(i) }), nil
	case name == "arange_i16":
		return elems(2, func(i int) uint64 { return uint64(uint16(i)) }), nil
	case name == "arange_i32":
		return elems(4, func(i int) uint64 { return uint64(uint32(i)) }), nil
	case name == "arange_i64":
		return elems(8, func(i int) uint64 { return uint64(i) }), nil
	case name == "linspace_f64":
		cnt := (n + 7) / 8
		den := 1
		if cnt > 1 {
			den = cnt - 1
		}
		return elems(8, func(i int) uint64 {
			return math.Float64bits((float64(i) * 100.0) / float64(den))
		}), nil
	case strings.HasPrefix(name, "rand_s"):
		seed, err := strconv.ParseUint(name[6:], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", name, err)
		}
		m := splitmix{seed}
		return elems(8, func(int) uint64 { return m.next() }), nil
	case name == "f32_noise":
		m := splitmix{7}
		return elems(4, func(i int) uint64 {
			r := m.next()
			v := float32(i%1000)*0.5 + float32(r&255)/256.0
			return uint64(math.Float32bits(v))
		}), nil
	case name == "text":
		m := splitmix{99}
		for len(out) < n {
			r := m.next()
			out = append(out, words[r%32]...)
			if (r>>32)%10 == 0 {
				out = append(out, '\n')
			} else {
				out = append(out, ' ')
			}
		}
		return out[:n], nil
	case name == "runs":
		a32, _ := Pattern("arange_i32", n)
		r5, _ := Pattern("rand_s5", n)
		for k := 0; k < n; k++ {
			switch (k / 4096) % 4 {
			case 0:
				out = append(out, 0)
			case 1:
				out = append(out, 0x77)
			case 2:
				out = append(out, a32[k])
			default:
				out = append(out, r5[k])
			}
		}
		return out, nil
	case name == "sensor_f32":
		t := temperature{m: splitmix{11}, bits: 7}
		return elems(4, func(i int) uint64 { return uint64(math.Float32bits(float32(t.at(i)))) }), nil
	case name == "sensor_f64":
		t := temperature{m: splitmix{12}, bits: 10}
		return elems(8, func(i int) uint64 { return math.Float64bits(t.at(i)) }), nil
	case name == "timestamps_i64":
		// Nanoseconds since the epoch of events about a millisecond apart,
		// each late by up to 50 us of scheduling jitter, still in order.
		m := splitmix{13}
		const start, period uint64 = 1_700_000_000_000_000_000, 1_000_000
		return elems(8, func(i int) uint64 { return start + uint64(i)*period + m.next()%50_000 }), nil
	case name == "sparse_f64":
		// Zeros but for about one element in 50, which holds a reading.
		m := splitmix{14}
		return elems(8, func(int) uint64 {
			r := m.next()
			if r%50 != 0 {
				return 0
			}
			return math.Float64bits(float64(r>>44) / 16)
		}), nil
	case name == "mixed_rec13":
		// Packed little-endian records {id int32; value float64; flags
		// uint8}: increasing ids, a sensor reading, flags mostly clear.
		m := splitmix{15}
		t := temperature{m: splitmix{16}, bits: 8}
		var rec [13]byte
		for i := 0; len(out) < n; i++ {
			binary.LittleEndian.PutUint32(rec[0:], uint32(1000+i))
			binary.LittleEndian.PutUint64(rec[4:], math.Float64bits(t.at(i)))
			rec[12] = 0
			if r := m.next(); r%16 == 0 {
				rec[12] = byte(1 << (r >> 60 & 7))
			}
			out = append(out, rec[:]...)
		}
		return out[:n], nil
	case strings.HasPrefix(name, "rec"):
		rl, err := strconv.Atoi(name[3:])
		if err != nil || rl <= 0 {
			return nil, fmt.Errorf("pattern %q: bad record length", name)
		}
		for k := 0; k < n; k++ {
			out = append(out, byte(((k/rl)*((k%rl)+1))>>3))
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown pattern %q", name)
}
