package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// errRegression is compare's verdict: exit status 1.
var errRegression = errors.New("significant regression")

// series is one benchmark's values of one unit in one file.
type series struct {
	name, unit string
	values     []float64
}

// readSeries reads a Go benchmark format file into its series, in the
// order they first appear. Units are as benchfmt tidies them (ns/op is
// sec/op, MB/s is B/s).
func readSeries(path string) (map[string]*series, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	m := map[string]*series{}
	var order []string
	rd := benchfmt.NewReader(f, path)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			return nil, nil, rec
		case *benchfmt.Result:
			for _, v := range rec.Values {
				k := rec.Name.String() + "\x00" + v.Unit
				s, ok := m[k]
				if !ok {
					s = &series{name: rec.Name.String(), unit: v.Unit}
					m[k] = s
					order = append(order, k)
				}
				s.values = append(s.values, v.Value)
			}
		}
	}
	if err := rd.Err(); err != nil {
		return nil, nil, err
	}
	return m, order, nil
}

// higherIsBetter tells which way a unit improves: speeds and the memcpy
// ratio up, times, latencies and allocations down.
func higherIsBetter(unit string) bool {
	return unit == "x-memcpy" || strings.HasSuffix(unit, "/s") || unit == "ratio"
}

func runCompare(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	threshold := fs.Float64("threshold", 5, "percent change of -unit that fails the check when significant")
	unit := fs.String("unit", "x-memcpy", "the unit the check gates on (all units are printed)")
	alpha := fs.Float64("alpha", 0.05, "significance level of the Mann-Whitney U test")
	confidence := fs.Float64("confidence", 0.95, "confidence level of the intervals")
	either := fs.Bool("either", false, "fail on a significant change either way, not only a regression")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() != 2 {
		return usagef("compare takes two files, OLD and NEW")
	}
	if *threshold < 0 || *alpha <= 0 || *alpha >= 1 || *confidence <= 0 || *confidence >= 1 {
		return usagef("-threshold >= 0, 0 < -alpha < 1, 0 < -confidence < 1")
	}
	old, order, err := readSeries(fs.Arg(0))
	if err != nil {
		return err
	}
	cur, _, err := readSeries(fs.Arg(1))
	if err != nil {
		return err
	}
	thr := benchmath.DefaultThresholds
	thr.CompareAlpha = *alpha
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\tunit\told\tnew\tdelta\ttest\t\n")
	var failed []failure
	compared := 0
	for _, k := range order {
		o, n := old[k], cur[k]
		if n == nil {
			continue
		}
		compared++
		so, sn := benchmath.NewSample(o.values, &thr), benchmath.NewSample(n.values, &thr)
		a := benchmath.AssumeNothing
		sumO, sumN := a.Summary(so, *confidence), a.Summary(sn, *confidence)
		cmp := a.Compare(so, sn)
		delta := (sumN.Center/sumO.Center - 1) * 100
		verdict := ""
		if o.unit == *unit && cmp.P < cmp.Alpha && math.Abs(delta) > *threshold {
			worse := (delta < 0) == higherIsBetter(o.unit)
			if worse || *either {
				verdict = "FAIL"
				failed = append(failed, failure{o.name, o.unit, delta, worse})
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o.name, o.unit, summary(sumO), summary(sumN),
			cmp.FormatDelta(sumO.Center, sumN.Center), cmp, verdict)
	}
	tw.Flush()
	if compared == 0 {
		return fmt.Errorf("no benchmark is in both %s and %s", fs.Arg(0), fs.Arg(1))
	}
	fmt.Fprintf(stdout, "%d series compared; gate: %s changes beyond %.3g%% at p < %.3g\n", compared, *unit, *threshold, *alpha)
	if len(failed) == 0 {
		return nil
	}
	// One line each, worst first: regressions by how far they fell, then
	// (with -either) the gains by how far they rose.
	sort.SliceStable(failed, func(i, j int) bool {
		a, b := failed[i], failed[j]
		if a.worse != b.worse {
			return a.worse
		}
		return math.Abs(a.delta) > math.Abs(b.delta)
	})
	fmt.Fprintf(stdout, "%d significant changes, worst first:\n", len(failed))
	for _, f := range failed {
		fmt.Fprintf(stdout, "  %+7.1f%%  %s %s\n", f.delta, f.name, f.unit)
	}
	return fmt.Errorf("%w: %d of %d series (listed above)", errRegression, len(failed), compared)
}

// failure is one series that failed the gate: its change in percent and
// whether that change is for the worse.
type failure struct {
	name, unit string
	delta      float64
	worse      bool
}

// summary prints a center with its confidence interval as percentages.
func summary(s benchmath.Summary) string {
	return fmt.Sprintf("%.4g %s", s.Center, s.PctRangeString())
}
