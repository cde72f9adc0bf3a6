package main

import (
	"bytes"
	"cmp"
	"fmt"
	"html/template"
	"image/color"
	"maps"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// renderReport draws the run as one self-contained HTML page: the charts
// are SVG written by gonum's plot and embedded inline, so the file opens
// anywhere without a network.
func renderReport(r *results) ([]byte, error) {
	var page reportPage
	page.R = r
	page.Peers = strings.Join(r.Machine.Peers, ", ")
	add := func(title, note string, p *plot.Plot, w, h vg.Length) error {
		svg, err := svgOf(p, w, h)
		if err != nil {
			return err
		}
		page.Charts = append(page.Charts, chart{Title: title, Note: note, SVG: template.HTML(svg)})
		return nil
	}
	for _, c := range speedRatioCharts(r) {
		if err := add(c.title, c.note, c.p, 7*vg.Inch, 4.5*vg.Inch); err != nil {
			return nil, err
		}
	}
	for _, c := range kernelCharts(r) {
		if err := add(c.title, c.note, c.p, 7*vg.Inch, 4*vg.Inch); err != nil {
			return nil, err
		}
	}
	for _, c := range versusCCharts(r) {
		if err := add(c.title, c.note, c.p, 9*vg.Inch, 4.5*vg.Inch); err != nil {
			return nil, err
		}
	}
	page.Table = medianTable(r)
	page.Service = r.Service
	var b bytes.Buffer
	if err := reportTemplate.Execute(&b, page); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type chart struct {
	Title, Note string
	SVG         template.HTML
}

type reportPage struct {
	R       *results
	Peers   string
	Charts  []chart
	Table   []medianRow
	Service []serviceResult
}

type titled struct {
	title, note string
	p           *plot.Plot
}

func svgOf(p *plot.Plot, w, h vg.Length) (string, error) {
	wt, err := p.WriterTo(w, h, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return "", err
	}
	s := b.String()
	if i := strings.Index(s, "<svg"); i > 0 {
		s = s[i:] // drop the XML prolog: the SVG sits inside HTML
	}
	return s, nil
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// cell is one configuration and engine's samples, by benchmark name.
type cell struct {
	first   sample
	xmemcpy []float64
	mbps    []float64
}

func cells(r *results) (map[string]*cell, []string) {
	m := map[string]*cell{}
	var order []string
	for _, s := range r.Samples {
		c, ok := m[s.Name]
		if !ok {
			c = &cell{first: s}
			m[s.Name] = c
			order = append(order, s.Name)
		}
		c.xmemcpy = append(c.xmemcpy, s.XMemcpy)
		c.mbps = append(c.mbps, s.MBps)
	}
	return m, order
}

// speedRatioCharts: for each dataset (at its largest size), every
// configuration's speed over memcpy against its compression ratio, one
// series per engine and codec: the classic Blosc chart.
func speedRatioCharts(r *results) []titled {
	cs, order := cells(r)
	largest := map[string]int{}
	for _, c := range cs {
		largest[c.first.Dataset] = max(largest[c.first.Dataset], c.first.Bytes)
	}
	var out []titled
	for _, ds := range sortedKeys(largest) {
		for _, op := range []string{"compress", "decompress"} {
			series := map[string]plotter.XYs{}
			for _, name := range order {
				c := cs[name]
				s := c.first
				if s.Dataset != ds || s.Bytes != largest[ds] || s.Op != op {
					continue
				}
				k := s.Engine + " " + s.Codec
				series[k] = append(series[k], plotter.XY{X: s.Ratio, Y: median(c.xmemcpy)})
			}
			if len(series) == 0 {
				continue
			}
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s, %s, %s", ds, sizeName(largest[ds]), op)
			p.X.Label.Text = "compression ratio"
			p.Y.Label.Text = "speed / memcpy (median)"
			p.Add(plotter.NewGrid())
			engines, codecs := map[string]int{}, map[string]int{}
			for _, k := range sortedKeys(series) {
				e, c, _ := strings.Cut(k, " ")
				if _, ok := engines[e]; !ok {
					engines[e] = len(engines)
				}
				if _, ok := codecs[c]; !ok {
					codecs[c] = len(codecs)
				}
				sc, err := plotter.NewScatter(series[k])
				if err != nil {
					continue
				}
				sc.GlyphStyle.Color = plotutil.Color(codecs[c])
				sc.GlyphStyle.Shape = engineShape(engines[e])
				sc.GlyphStyle.Radius = vg.Points(3.5)
				p.Add(sc)
				p.Legend.Add(k, sc)
			}
			p.Y.Min = 0
			p.Y.Max *= 1.35 // room for the legend
			p.Legend.Top = true
			out = append(out, titled{title: p.Title.Text, note: "each point is one configuration (format, filter, level, threads); colour: codec, shape: engine", p: p})
		}
	}
	return out
}

func engineShape(i int) draw.GlyphDrawer {
	switch i % 3 {
	case 0:
		return draw.CircleGlyph{}
	case 1:
		return draw.TriangleGlyph{}
	}
	return draw.SquareGlyph{}
}

// kernelCharts: GB/s against typesize for each kernel, with the memcpy of
// the same buffer as a dashed line.
func kernelCharts(r *results) []titled {
	type key struct {
		family, op string
		bytes      int
	}
	type series map[string]map[int][]float64 // kernel -> ts -> GB/s samples
	groups := map[key]series{}
	var keys []key
	for _, k := range r.Kernels {
		for _, op := range []string{"shuffle", "unshuffle"} {
			if k.Op != op && k.Op != "copy" {
				continue
			}
			g := key{k.Family, op, k.Buffer}
			if groups[g] == nil {
				groups[g] = series{}
				keys = append(keys, g)
			}
			if groups[g][k.Kernel] == nil {
				groups[g][k.Kernel] = map[int][]float64{}
			}
			groups[g][k.Kernel][k.Typesize] = append(groups[g][k.Kernel][k.Typesize], k.MBps/1e3)
		}
	}
	var out []titled
	for _, g := range keys {
		p := plot.New()
		p.Title.Text = fmt.Sprintf("%s kernels, %s, %s", g.family, g.op, sizeName(g.bytes))
		p.X.Label.Text = "typesize (bytes)"
		p.Y.Label.Text = "GB/s (median)"
		p.Add(plotter.NewGrid())
		for i, name := range sortedKeys(groups[g]) {
			var xy plotter.XYs
			for _, ts := range sortedKeys(groups[g][name]) {
				xy = append(xy, plotter.XY{X: float64(ts), Y: median(groups[g][name][ts])})
			}
			l, pts, err := plotter.NewLinePoints(xy)
			if err != nil {
				continue
			}
			c := plotutil.Color(i)
			if name == "memcpy" {
				c = color.Black
				l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			}
			l.Color, pts.Color = c, c
			p.Add(l, pts)
			p.Legend.Add(name, l, pts)
		}
		p.Y.Min = 0
		p.Y.Max *= 1.35 // room for the legend
		p.Legend.Top = true
		out = append(out, titled{title: p.Title.Text, note: "dashed: memcpy of the same buffer, timed in the same rounds", p: p})
	}
	return out
}

// versusCCharts: for every configuration Go and a C library both ran,
// Go's speed over the C library's (the medians of their memcpy ratios),
// compression and decompression side by side; above 1, Go is faster.
func versusCCharts(r *results) []titled {
	cs, order := cells(r)
	// configuration (the name without op and engine) -> op -> engine -> median
	conf := map[string]map[string]map[string]float64{}
	var confs []string
	cEngines := map[string]bool{}
	for _, name := range order {
		c := cs[name]
		base, _, _ := strings.Cut(name, "/op=")
		if conf[base] == nil {
			conf[base] = map[string]map[string]float64{}
			confs = append(confs, base)
		}
		if conf[base][c.first.Op] == nil {
			conf[base][c.first.Op] = map[string]float64{}
		}
		conf[base][c.first.Op][c.first.Engine] = median(c.xmemcpy)
		if c.first.Engine != "go" {
			cEngines[c.first.Engine] = true
		}
	}
	var out []titled
	for _, ce := range sortedKeys(cEngines) {
		var both []string
		for _, b := range confs {
			if conf[b]["compress"][ce] > 0 && conf[b]["compress"]["go"] > 0 {
				both = append(both, b)
			}
		}
		if len(both) == 0 {
			continue
		}
		note := "above 1 Go is faster; configurations both ran"
		if len(both) > 30 {
			both = both[:30]
			note += " (the first 30; the table has them all)"
		}
		p := plot.New()
		p.Title.Text = "Go over " + ce
		p.Y.Label.Text = "Go speed / C speed (median)"
		p.Add(plotter.NewGrid())
		w := vg.Points(7)
		top := 1.0
		for i, op := range []string{"compress", "decompress"} {
			vals := make(plotter.Values, len(both))
			for j, b := range both {
				if c := conf[b][op][ce]; c > 0 {
					vals[j] = conf[b][op]["go"] / c
				}
				top = max(top, vals[j])
			}
			bars, err := plotter.NewBarChart(vals, w)
			if err != nil {
				continue
			}
			bars.Color = plotutil.Color(i)
			bars.LineStyle.Width = 0
			bars.Offset = w * vg.Length(float64(i)-0.5)
			p.Add(bars)
			p.Legend.Add(op, bars)
		}
		if one, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 1}, {X: float64(len(both)) - 0.5, Y: 1}}); err == nil {
			one.Color = color.Black
			one.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			p.Add(one)
		}
		p.Y.Min, p.Y.Max = 0, top*1.25
		p.Legend.Top = true
		p.NominalX(varyingParts(both)...)
		p.X.Tick.Label.Rotation = 0.9
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
		out = append(out, titled{title: p.Title.Text, note: note, p: p})
	}
	return out
}

// varyingParts labels benchmark names by the values of their key=value
// parts that differ between them.
func varyingParts(names []string) []string {
	split := make([][]string, len(names))
	for i, n := range names {
		split[i] = strings.Split(n, "/")[1:]
	}
	var labels []string
	for i := range names {
		var v []string
		for k, part := range split[i] {
			same := true
			for j := range split {
				if k >= len(split[j]) || split[j][k] != part {
					same = false
					break
				}
			}
			if !same {
				_, val, _ := strings.Cut(part, "=")
				v = append(v, val)
			}
		}
		labels = append(labels, strings.Join(v, " "))
	}
	return labels
}

type medianRow struct {
	Name                 string
	Engine, Op           string
	Ratio, XMemcpy, GBps float64
	// Best is the fastest round's speed / memcpy. On a machine shared
	// with other tenants their work only ever slows a round, so the
	// fastest round is the figure that moves least between runs
	// (docs/benchmarks.md, "Comparing runs").
	Best float64
	N    int
}

func medianTable(r *results) []medianRow {
	cs, order := cells(r)
	var rows []medianRow
	for _, name := range order {
		c := cs[name]
		base, _, _ := strings.Cut(name, "/op=")
		rows = append(rows, medianRow{Name: base, Engine: c.first.Engine, Op: c.first.Op, Ratio: c.first.Ratio,
			XMemcpy: median(c.xmemcpy), GBps: median(c.mbps) / 1e3, Best: slices.Max(c.xmemcpy), N: len(c.xmemcpy)})
	}
	return rows
}

func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
}

var reportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"f2": func(v float64) string { return fmt.Sprintf("%.2f", v) },
	"f3": func(v float64) string { return fmt.Sprintf("%.3f", v) },
	"us": func(ns float64) string { return fmt.Sprintf("%.1f", ns/1e3) },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>goblosc bench: {{.R.Suite}} suite, {{.R.Machine.CPU}}</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:80em}
table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
td:first-child,th:first-child{text-align:left}figure{margin:1em 0}figcaption{color:#555;font-size:90%}
</style></head><body>
<h1>goblosc bench: {{.R.Suite}} suite</h1>
<p>{{.R.Machine.CPU}} ({{.R.Machine.GOOS}}/{{.R.Machine.GOARCH}}, {{.R.Machine.NumCPU}} CPUs, GOMAXPROCS {{.R.Machine.GOMAXPROCS}}),
{{.R.Machine.Go}}, shuffle kernel <b>{{.R.Machine.Kernel}}</b>{{if .Peers}}, C peers: {{.Peers}}{{else}}, no C peers (build with -tags cblosc for c-blosc's rows){{end}}.
Started {{.R.Started.Format "2006-01-02 15:04:05 MST"}}, {{printf "%.0f" .R.Seconds}} s{{if .R.Machine.LoadAvg}}, load average at start {{.R.Machine.LoadAvg}}{{end}}.</p>
<p>Every speed is also given over a memcpy of the same bytes timed in the same round ("speed / memcpy"): that figure compares across machines and runs, absolute GB/s do not.</p>
{{range .Charts}}<figure><figcaption><b>{{.Title}}</b>: {{.Note}}</figcaption>{{.SVG}}</figure>
{{end}}
{{if .Service}}<h2>Service case: per-call latency</h2>
<p>Each goroutine compresses and decompresses its own buffer (linspace_f64, LZ4, level 5, byte shuffle, one thread) through contexts it reuses; allocations count the Go heap per compress+decompress pair.</p>
<table><tr><th>engine</th><th>goroutines</th><th>bytes</th><th>op</th><th>calls</th><th>p50 µs</th><th>p99 µs</th><th>p99.9 µs</th><th>max µs</th><th>MB/s (all)</th><th>allocs/pair</th></tr>
{{range .Service}}<tr><td>{{.Engine}}</td><td>{{.Goroutines}}</td><td>{{.Bytes}}</td><td>{{.Op}}</td><td>{{.Calls}}</td><td>{{us .P50Ns}}</td><td>{{us .P99Ns}}</td><td>{{us .P999Ns}}</td><td>{{us .MaxNs}}</td><td>{{printf "%.0f" .MBps}}</td><td>{{f2 .AllocsPerCall}}</td></tr>
{{end}}</table>{{end}}
<h2>Every configuration (medians, and the fastest round)</h2>
<table><tr><th>configuration</th><th>engine</th><th>op</th><th>ratio</th><th>speed / memcpy</th><th>GB/s</th><th>speed / memcpy, fastest round</th><th>samples</th></tr>
{{range .Table}}<tr><td>{{.Name}}</td><td>{{.Engine}}</td><td>{{.Op}}</td><td>{{f2 .Ratio}}</td><td>{{f3 .XMemcpy}}</td><td>{{f2 .GBps}}</td><td>{{f3 .Best}}</td><td>{{.N}}</td></tr>
{{end}}</table>
<h2>Machine</h2><p>CPU features: {{range .R.Machine.Features}}{{.}} {{end}}</p>
</body></html>
`))
