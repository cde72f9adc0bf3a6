package main

import (
	"os"
	"runtime"
	"strings"

	"github.com/goblosc/blosc"
	"github.com/klauspost/cpuid/v2"
)

// machine is what a figure depends on besides the code: it goes into the
// JSON and, in short, into the benchmark format's header.
type machine struct {
	CPU        string   `json:"cpu"`
	Vendor     string   `json:"vendor"`
	Family     int      `json:"family"`
	Model      int      `json:"model"`
	Features   []string `json:"features"`
	Cores      int      `json:"physical_cores"`
	Threads    int      `json:"logical_cores"`
	L1D        int      `json:"l1d_bytes"`
	L2         int      `json:"l2_bytes"`
	L3         int      `json:"l3_bytes"`
	Kernel     string   `json:"kernel"` // the shuffle kernel the library selected
	Go         string   `json:"go"`
	GOOS       string   `json:"goos"`
	GOARCH     string   `json:"goarch"`
	GOMAXPROCS int      `json:"gomaxprocs"`
	NumCPU     int      `json:"num_cpu"`
	// Peers are the C libraries built in, engines and kernels.
	Peers []string `json:"peers"`
	// LoadAvg is /proc/loadavg when the run started: other work on the
	// machine moves every absolute figure.
	LoadAvg string `json:"loadavg,omitempty"`
}

func describeMachine() machine {
	c := cpuid.CPU
	m := machine{CPU: c.BrandName, Vendor: c.VendorString, Family: c.Family, Model: c.Model, Features: c.FeatureSet(),
		Cores: c.PhysicalCores, Threads: c.LogicalCores, L1D: c.Cache.L1D, L2: c.Cache.L2, L3: c.Cache.L3,
		Kernel: blosc.Kernel(), Go: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU()}
	if m.CPU == "" {
		m.CPU = runtime.GOARCH
	}
	seen := map[string]bool{}
	for _, e := range extraEngines {
		if !seen[e.Name] {
			seen[e.Name] = true
			m.Peers = append(m.Peers, e.Name)
		}
	}
	for _, k := range extraKernels {
		if !seen[k.name] {
			seen[k.name] = true
			m.Peers = append(m.Peers, k.name)
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.TrimSpace(string(b))
	}
	return m
}
