package swmr

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if os.Getenv(RoleEnv) != "" {
		os.Exit(Child())
	}
	os.Exit(m.Run())
}

// TestLoad runs a writer process appending chunks and reader processes
// reading items and chunks (each read checks itself against the series)
// while the writer is killed and restarted. -short runs 2 s with 2
// readers; the default 8 s with 4 readers of 32 goroutines; and
// GOBLOSC_SWMR_SECONDS=60 the issue-sized run of 8 reader processes and 64
// goroutines over 1 MiB chunks.
func TestLoad(t *testing.T) {
	for _, locking := range []bool{false, true} {
		name := "nolock"
		if locking {
			name = "locking"
		}
		t.Run(name, func(t *testing.T) {
			cfg := Config{
				Path: filepath.Join(t.TempDir(), "load.b2frame"), Duration: 8 * time.Second,
				Readers: 4, Goroutines: 32, ChunkSize: 256 << 10, Locking: locking, Writer: true, Kills: 3, Threads: 1,
			}
			emu := os.Getenv("GOBLOSC_TEST_EMULATOR") // go test -exec qemu-...: children run under it too
			if testing.Short() || emu != "" {
				cfg.Duration, cfg.Readers, cfg.Goroutines, cfg.Kills = 2*time.Second, 2, 8, 2
			}
			if v := os.Getenv("GOBLOSC_SWMR_SECONDS"); v != "" {
				sec, err := strconv.Atoi(v)
				if err != nil {
					t.Fatal(err)
				}
				cfg.Duration, cfg.Readers, cfg.Goroutines, cfg.ChunkSize, cfg.Kills = time.Duration(sec)*time.Second, 8, 64, 1<<20, 5
			}
			// A first chunk, so that readers read from the start.
			if err := Create(cfg.Path, cfg.ChunkSize, 1); err != nil {
				t.Fatal(err)
			}
			argv := []string{os.Args[0], "-test.run=^$"}
			if emu != "" {
				argv = append([]string{emu}, argv...)
			}
			rep, err := Run(cfg, argv)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d appends, %d reads (%d items, %d chunks), %d refreshes, item p50 %v p99 %v, %d kills, %d chunks at the end",
				rep.Appends, rep.Reads, rep.ItemReads, rep.ChunkReads, rep.Refreshes, rep.P50, rep.P99, rep.Kills, rep.FinalChunks)
			for _, x := range rep.Inconsistencies {
				t.Error(x)
			}
			if rep.Reads == 0 || rep.Appends == 0 || rep.FinalChunks < 2 {
				t.Errorf("the run did nothing to check: %+v", rep)
			}
		})
	}
}

// TestSplit runs the writer on one CPU and the readers on the others, as
// `bench swmr -split` does, and checks that the writer's CPU time is
// counted.
func TestSplit(t *testing.T) {
	if os.Getenv("GOBLOSC_TEST_EMULATOR") != "" {
		t.Skip("children under the emulator: the CPU split is a native benchmark mode")
	}
	if runtime.GOOS != "linux" || runtime.NumCPU() < 2 {
		t.Skipf("a split run needs Linux and two CPUs; this is %s with %d", runtime.GOOS, runtime.NumCPU())
	}
	cfg := Config{
		Path: filepath.Join(t.TempDir(), "split.b2frame"), Duration: time.Second,
		Readers: 1, Goroutines: 2, ChunkSize: 64 << 10, Writer: true, Threads: 1, Split: true,
	}
	if err := Create(cfg.Path, cfg.ChunkSize, 1); err != nil {
		t.Fatal(err)
	}
	rep, err := Run(cfg, []string{os.Args[0], "-test.run=^$"})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range rep.Inconsistencies {
		t.Error(x)
	}
	if rep.Appends == 0 || rep.Reads == 0 || rep.WriterCPU <= 0 {
		t.Errorf("appends %d, reads %d, writer CPU %v", rep.Appends, rep.Reads, rep.WriterCPU)
	}
}
