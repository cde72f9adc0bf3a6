package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// renderResults writes the run's medians as markdown meant to be pasted
// into a README or a pull request: one line naming the machine, then, per
// chunk format, a table of Go's speed over memcpy and over each C
// library's, then the kernels. The figures are the medians of the rounds,
// as in report.html's table; a C column compares the two engines' memcpy
// ratios, each timed beside its own memcpy in the same rounds.
func renderResults(r *results) []byte {
	var b bytes.Buffer
	m := r.Machine
	peers := "none (build with -tags cblosc or cblosc2 for the C columns)"
	if len(m.Peers) > 0 {
		peers = strings.Join(m.Peers, ", ")
	}
	fmt.Fprintf(&b, "Machine: %s, %d cores (%d threads), %s/%s, GOMAXPROCS %d, %s, shuffle kernel %s; C peers: %s.\n",
		m.CPU, m.Cores, m.Threads, m.GOOS, m.GOARCH, m.GOMAXPROCS, m.Go, m.Kernel, peers)
	fmt.Fprintf(&b, "Suite %s; every figure is the median of its rounds. x memcpy: the speed over a memcpy of the same bytes "+
		"timed in the same round. Go/C: Go's x memcpy over the C library's (above 1, Go is faster).\n", r.Suite)
	for _, t := range chunkTables(r) {
		b.WriteString("\n")
		t.write(&b)
	}
	if t, ok := kernelTable(r); ok {
		b.WriteString("\n")
		t.write(&b)
	}
	return b.Bytes()
}

// mdTable is a markdown table under a heading line.
type mdTable struct {
	title string
	head  []string
	rows  [][]string
}

func (t mdTable) write(b *bytes.Buffer) {
	fmt.Fprintf(b, "%s\n\n", t.title)
	fmt.Fprintf(b, "| %s |\n", strings.Join(t.head, " | "))
	seps := make([]string, len(t.head))
	for i := range seps {
		seps[i] = "---"
	}
	fmt.Fprintf(b, "| %s |\n", strings.Join(seps, " | "))
	for _, row := range t.rows {
		fmt.Fprintf(b, "| %s |\n", strings.Join(row, " | "))
	}
}

// chunkTables groups the chunk configurations by format (c-blosc runs
// Blosc1 chunks, c-blosc2 Blosc2 chunks, so each format has its own C
// columns) and size (the full suite's product would otherwise be one table
// of thousands of rows). Parts of the configuration every row of a table
// shares go into its title; the others are the row's first columns.
func chunkTables(r *results) []mdTable {
	cs, order := cells(r)
	type conf struct {
		parts []string // key=value, format first
		ratio float64  // Go's
		med   map[[2]string]float64
	}
	byFormat := map[string][]*conf{}
	var formats []string
	index := map[string]*conf{}
	for _, name := range order {
		c := cs[name]
		base, _, _ := strings.Cut(name, "/op=")
		k := index[base]
		if k == nil {
			parts := strings.Split(base, "/")[1:] // drop "Blosc"
			k = &conf{parts: parts, med: map[[2]string]float64{}}
			index[base] = k
			f := c.first.Format + "\x00"
			for _, part := range parts {
				if strings.HasPrefix(part, "n=") {
					f += part
				}
			}
			if _, seen := byFormat[f]; !seen {
				formats = append(formats, f)
			}
			byFormat[f] = append(byFormat[f], k)
		}
		if c.first.Engine == "go" {
			k.ratio = c.first.Ratio
		}
		k.med[[2]string{c.first.Engine, c.first.Op}] = median(c.xmemcpy)
	}
	var out []mdTable
	for _, f := range formats {
		confs := byFormat[f]
		var peers []string
		for _, k := range confs {
			for eo := range k.med {
				if eo[0] != "go" && !slices.Contains(peers, eo[0]) {
					peers = append(peers, eo[0])
				}
			}
		}
		slices.Sort(peers)
		// Which key positions vary within this format.
		n := len(confs[0].parts)
		varies := make([]bool, n)
		for _, k := range confs {
			for i := 0; i < n && i < len(k.parts); i++ {
				if k.parts[i] != confs[0].parts[i] {
					varies[i] = true
				}
			}
		}
		var shared, head []string
		for i, p := range confs[0].parts {
			key, val, _ := strings.Cut(p, "=")
			if varies[i] {
				head = append(head, key)
			} else if key != "format" {
				shared = append(shared, key+" "+val)
			}
		}
		format, _, _ := strings.Cut(f, "\x00")
		title := "Format " + format
		if len(shared) > 0 {
			title += ": " + strings.Join(shared, ", ")
		}
		head = append(head, "ratio", "compress x memcpy", "decompress x memcpy")
		for _, p := range peers {
			head = append(head, "compress Go/"+p, "decompress Go/"+p)
		}
		t := mdTable{title: title, head: head}
		for _, k := range confs {
			var row []string
			for i, p := range k.parts {
				if varies[i] {
					_, val, _ := strings.Cut(p, "=")
					row = append(row, val)
				}
			}
			row = append(row, fig(k.ratio, 2), sig3(k.med[[2]string{"go", "compress"}]), sig3(k.med[[2]string{"go", "decompress"}]))
			for _, p := range peers {
				for _, op := range []string{"compress", "decompress"} {
					g, c := k.med[[2]string{"go", op}], k.med[[2]string{p, op}]
					if g > 0 && c > 0 {
						row = append(row, fig(g/c, 2))
					} else {
						row = append(row, "-")
					}
				}
			}
			t.rows = append(t.rows, row)
		}
		out = append(out, t)
	}
	return out
}

// kernelTable gives every kernel's median speed over memcpy, shuffle /
// unshuffle, one column per typesize.
func kernelTable(r *results) (mdTable, bool) {
	type key struct {
		family, kernel string
		buffer         int
	}
	med := map[key]map[int]map[string][]float64{}
	var keys []key
	var tss []int
	for _, k := range r.Kernels {
		if k.Kernel == "memcpy" {
			continue
		}
		kk := key{k.Family, k.Kernel, k.Buffer}
		if med[kk] == nil {
			med[kk] = map[int]map[string][]float64{}
			keys = append(keys, kk)
		}
		if med[kk][k.Typesize] == nil {
			med[kk][k.Typesize] = map[string][]float64{}
		}
		med[kk][k.Typesize][k.Op] = append(med[kk][k.Typesize][k.Op], k.XMemcpy)
		if !slices.Contains(tss, k.Typesize) {
			tss = append(tss, k.Typesize)
		}
	}
	if len(keys) == 0 {
		return mdTable{}, false
	}
	slices.Sort(tss)
	t := mdTable{title: "Kernels, x memcpy, shuffle / unshuffle", head: []string{"family", "kernel", "size"}}
	for _, ts := range tss {
		t.head = append(t.head, "ts "+strconv.Itoa(ts))
	}
	for _, k := range keys {
		row := []string{k.family, k.kernel, sizeName(k.buffer)}
		for _, ts := range tss {
			ops := med[k][ts]
			if ops == nil {
				row = append(row, "-")
				continue
			}
			row = append(row, fig(median(ops["shuffle"]), 2)+" / "+fig(median(ops["unshuffle"]), 2))
		}
		t.rows = append(t.rows, row)
	}
	return t, true
}

// fig formats a figure with prec decimals, and an absent one (0) as "-".
func fig(v float64, prec int) string {
	if v == 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// sig3 formats a speed over memcpy with three significant digits: a 4 KiB
// compression can run at a few thousandths of memcpy, a kernel near 1.
func sig3(v float64) string {
	if v == 0 {
		return "-"
	}
	return fmt.Sprintf("%#.3g", v)
}
