// Package swmr runs one writer and many readers on a frame file, each in
// a process of its own, and checks what the readers see: the load test of
// single-writer, multiple-reader use (TestLoad, and `go run ./bench swmr`
// for a user's own run).
//
// The writer appends chunks of an int64 counter series: item k of the
// frame holds k. So every read checks itself: a chunk or an item that
// holds anything else, a chunk count that shrinks, or an error, is an
// inconsistency. The writer can be killed (SIGKILL) at random moments and
// restarted; it reopens the file, which rolls back the change it was
// making, and appends on.
package swmr

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/goblosc/blosc"
)

// RoleEnv names the variable that makes a process a writer or a reader:
// a program that runs Run calls Child first thing when it is set.
const RoleEnv = "GOBLOSC_SWMR_ROLE"

// Config describes a run.
type Config struct {
	Path       string        // the frame file (created)
	Duration   time.Duration // how long the readers read
	Readers    int           // reader processes
	Goroutines int           // reader goroutines, spread over the processes
	ChunkSize  int           // bytes a chunk (a multiple of 8)
	Locking    bool          // c-blosc2's cross-process lock on every handle
	Writer     bool          // run the writer (false: read a frame already written)
	Kills      int           // times the writer is killed and restarted
	Threads    int           // the writer's compression threads (0: all cores)
	// Split keeps the writer on one CPU and the readers on the others
	// (Linux, two CPUs or more): the writer's appends then measure what
	// the readers cost it besides the CPU time they take.
	Split bool
}

// Report is what a run measured.
type Report struct {
	Appends         int64         `json:"appends"`
	Reads           int64         `json:"reads"` // item reads and chunk reads
	ItemReads       int64         `json:"item_reads"`
	ChunkReads      int64         `json:"chunk_reads"`
	Refreshes       int64         `json:"refreshes"`
	P50             time.Duration `json:"p50_ns"` // of one item's read
	P99             time.Duration `json:"p99_ns"`
	Kills           int           `json:"kills"`
	WriterCPU       time.Duration `json:"writer_cpu_ns"` // user and system time of the writer processes
	Inconsistencies []string      `json:"inconsistencies"`
	FinalChunks     int           `json:"final_chunks"`
}

// childConfig travels to the children in the environment.
type childConfig struct {
	Config
	Goroutines int   `json:"goroutines"`
	Seed       int64 `json:"seed"`
}

const configEnv = "GOBLOSC_SWMR_CONFIG"

var errSplit = errors.New("swmr: a split run needs Linux and two CPUs or more")

func options(cs int, threads int) blosc.SChunkOptions {
	return blosc.SChunkOptions{
		Options: blosc.Options{
			Format: blosc.FormatBlosc2, Codec: blosc.LZ4, Level: 5, Typesize: 8,
			Filters: [blosc.MaxFilters]blosc.Filter{blosc.MaxFilters - 1: blosc.ByteShuffle},
			Threads: threads,
		},
		ChunkSize: cs,
	}
}

// Create writes an empty frame at path, or one of n chunks of the series.
func Create(path string, cs, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := blosc.CreateFrameFile(f, options(cs, 0))
	if err != nil {
		return err
	}
	if n > 0 {
		buf := make([]byte, n*cs)
		fillSeries(buf, 0)
		if err := s.AppendData(buf); err != nil {
			return err
		}
	}
	return f.Sync()
}

// fillSeries fills b with the int64 series from item first on.
func fillSeries(b []byte, first int64) {
	for i := 0; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], uint64(first+int64(i/8)))
	}
}

// checkSeries returns where b, from item first on, departs from the series.
func checkSeries(b []byte, first int64) error {
	for i := 0; i+8 <= len(b); i += 8 {
		if v := int64(binary.LittleEndian.Uint64(b[i:])); v != first+int64(i/8) {
			return fmt.Errorf("item %d holds %d", first+int64(i/8), v)
		}
	}
	return nil
}

func open(path string, writable, locking bool, threads int) (*blosc.SChunk, error) {
	return blosc.OpenFile(path, blosc.FileOptions{Writable: writable, Locking: locking, Threads: threads})
}

// Child runs the role RoleEnv names and returns the exit code: the writer
// appends until killed, a reader reads for the duration and prints its
// report as JSON.
func Child() int {
	var c childConfig
	if err := json.Unmarshal([]byte(os.Getenv(configEnv)), &c); err != nil {
		fmt.Fprintln(os.Stderr, "swmr:", err)
		return 2
	}
	role := os.Getenv(RoleEnv)
	if c.Split {
		if err := pin(role); err != nil {
			fmt.Fprintln(os.Stderr, "swmr:", err)
			return 2
		}
	}
	switch role {
	case "writer":
		err := write(c)
		fmt.Fprintln(os.Stderr, "swmr writer:", err)
		return 1
	case "reader":
		r := read(c)
		if err := json.NewEncoder(os.Stdout).Encode(r); err != nil {
			return 1
		}
		return 0
	}
	fmt.Fprintln(os.Stderr, "swmr: unknown role", os.Getenv(RoleEnv))
	return 2
}

// write appends chunks of the series until it fails or is killed.
func write(c childConfig) error {
	s, err := open(c.Path, true, c.Locking, c.Threads)
	if err != nil {
		return err
	}
	defer s.Close()
	buf := make([]byte, c.ChunkSize)
	counter, _ := os.OpenFile(c.Path+".appends", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	for {
		n := s.Nchunks()
		fillSeries(buf, int64(n)*int64(c.ChunkSize/8))
		if err := s.AppendData(buf); err != nil {
			return err
		}
		if counter != nil {
			counter.Write([]byte{'.'})
		}
	}
}

// read runs the reader goroutines of one process on one handle.
func read(c childConfig) Report {
	var r Report
	s, err := open(c.Path, false, c.Locking, 0)
	if err != nil {
		r.Inconsistencies = append(r.Inconsistencies, "open: "+err.Error())
		return r
	}
	defer s.Close()
	per := int64(c.ChunkSize / 8)
	var mu sync.Mutex
	var lat []time.Duration
	var items, chunks, refreshes atomic.Int64
	var seen atomic.Int64 // the most chunks a refresh showed
	seen.Store(int64(s.Nchunks()))
	bad := func(format string, a ...any) {
		mu.Lock()
		if len(r.Inconsistencies) < 100 {
			r.Inconsistencies = append(r.Inconsistencies, fmt.Sprintf(format, a...))
		}
		mu.Unlock()
	}
	deadline := time.Now().Add(c.Duration)
	var wg sync.WaitGroup
	for g := range c.Goroutines {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(c.Seed), uint64(g)))
			var mine []time.Duration
			var item, chunk []byte
			for time.Now().Before(deadline) {
				if c.Locking {
					// flock(2) lets readers that never all let go of
					// the shared lock starve the writer (no queue):
					// with locking, readers pause between reads.
					time.Sleep(time.Millisecond)
				}
				if rng.IntN(16) == 0 {
					before := s.Nchunks()
					if _, err := s.Refresh(); err != nil {
						bad("refresh: %v", err)
						continue
					}
					refreshes.Add(1)
					if n := s.Nchunks(); n < before {
						bad("refresh: %d chunks, then %d", before, n)
					} else if n > int(seen.Load()) {
						seen.Store(int64(n))
					}
				}
				nb := s.Nbytes()
				if nb < 8 {
					time.Sleep(time.Millisecond)
					continue
				}
				if rng.IntN(8) == 0 {
					i := rng.IntN(int(nb / (per * 8)))
					var err error
					if chunk, err = s.DecompressChunk(chunk, i); err != nil {
						bad("chunk %d: %v", i, err)
						continue
					}
					if err := checkSeries(chunk, int64(i)*per); err != nil {
						bad("chunk %d: %v", i, err)
					}
					chunks.Add(1)
					continue
				}
				k := rng.Int64N(nb / 8)
				t0 := time.Now()
				var err error
				item, err = s.GetItems(item, k, 1)
				mine = append(mine, time.Since(t0))
				if err != nil {
					bad("item %d: %v", k, err)
					continue
				}
				if err := checkSeries(item, k); err != nil {
					bad("%v", err)
				}
				items.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	r.ItemReads, r.ChunkReads, r.Refreshes = items.Load(), chunks.Load(), refreshes.Load()
	r.Reads = r.ItemReads + r.ChunkReads
	r.P50, r.P99 = percentiles(lat)
	r.FinalChunks = int(seen.Load())
	return r
}

// cpuTime is the CPU time an ended process took.
func cpuTime(cmd *exec.Cmd) time.Duration {
	if cmd.ProcessState == nil {
		return 0
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func percentiles(d []time.Duration) (p50, p99 time.Duration) {
	if len(d) == 0 {
		return 0, 0
	}
	slices.Sort(d)
	return d[len(d)/2], d[min(len(d)-1, len(d)*99/100)]
}

// Run runs cfg: argv starts a copy of the calling program, which must call
// Child when RoleEnv is set (a test binary's TestMain, the bench command).
func Run(cfg Config, argv []string) (Report, error) {
	var rep Report
	if cfg.Readers < 0 || cfg.Goroutines < cfg.Readers || cfg.ChunkSize < 8 || cfg.ChunkSize%8 != 0 || cfg.Readers == 0 && !cfg.Writer {
		return rep, errors.New("swmr: want a writer or reader processes, a goroutine each, chunks of whole items")
	}
	os.Remove(cfg.Path + ".appends")
	seed := time.Now().UnixNano()
	start := func(role string, goroutines int, stdout io.Writer) (*exec.Cmd, error) {
		c := childConfig{Config: cfg, Goroutines: goroutines, Seed: seed}
		b, err := json.Marshal(c)
		if err != nil {
			return nil, err
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), RoleEnv+"="+role, configEnv+"="+string(b))
		cmd.Stdout, cmd.Stderr = stdout, os.Stderr
		return cmd, cmd.Start()
	}
	var writer *exec.Cmd
	var err error
	if cfg.Writer {
		if writer, err = start("writer", 0, io.Discard); err != nil {
			return rep, err
		}
	}
	outs := make([]*os.File, cfg.Readers)
	readers := make([]*exec.Cmd, cfg.Readers)
	for i := range readers {
		g := cfg.Goroutines / cfg.Readers
		if i < cfg.Goroutines%cfg.Readers {
			g++
		}
		if outs[i], err = os.CreateTemp("", "swmr-reader-*.json"); err != nil {
			return rep, err
		}
		defer os.Remove(outs[i].Name())
		defer outs[i].Close()
		if readers[i], err = start("reader", g, outs[i]); err != nil {
			return rep, err
		}
	}
	if writer != nil {
		// Kill the writer at random moments of the run and start it
		// again: the readers must not notice but by what they read.
		rng := rand.New(rand.NewPCG(uint64(seed), 0))
		for k := 0; k < cfg.Kills; k++ {
			time.Sleep(time.Duration(rng.Int64N(int64(cfg.Duration) / int64(cfg.Kills+1))))
			writer.Process.Signal(syscall.SIGKILL)
			writer.Wait()
			rep.WriterCPU += cpuTime(writer)
			rep.Kills++
			if writer, err = start("writer", 0, io.Discard); err != nil {
				return rep, err
			}
		}
	}
	if cfg.Readers == 0 {
		time.Sleep(cfg.Duration)
	}
	var errs []error
	for i, cmd := range readers {
		if err := cmd.Wait(); err != nil {
			errs = append(errs, fmt.Errorf("reader %d: %w", i, err))
			continue
		}
		var r Report
		outs[i].Seek(0, io.SeekStart)
		if err := json.NewDecoder(outs[i]).Decode(&r); err != nil {
			errs = append(errs, fmt.Errorf("reader %d's report: %w", i, err))
			continue
		}
		rep.Reads += r.Reads
		rep.ItemReads += r.ItemReads
		rep.ChunkReads += r.ChunkReads
		rep.Refreshes += r.Refreshes
		rep.P50 = max(rep.P50, r.P50)
		rep.P99 = max(rep.P99, r.P99)
		rep.FinalChunks = max(rep.FinalChunks, r.FinalChunks)
		for _, x := range r.Inconsistencies {
			rep.Inconsistencies = append(rep.Inconsistencies, fmt.Sprintf("reader %d: %s", i, x))
		}
	}
	if writer != nil {
		writer.Process.Signal(syscall.SIGKILL)
		writer.Wait()
		rep.WriterCPU += cpuTime(writer)
	}
	if st, err := os.Stat(cfg.Path + ".appends"); err == nil {
		rep.Appends = st.Size()
	}
	os.Remove(cfg.Path + ".appends")
	// The file a killed writer left reopens, holding the series.
	s, err := open(cfg.Path, true, cfg.Locking, 0)
	if err != nil {
		errs = append(errs, fmt.Errorf("reopening after the writer: %w", err))
	} else {
		n := s.Nchunks()
		if n < rep.FinalChunks {
			rep.Inconsistencies = append(rep.Inconsistencies, fmt.Sprintf("reopened with %d chunks; readers saw %d", n, rep.FinalChunks))
		}
		if n > 0 {
			last, err := s.DecompressChunk(nil, n-1)
			if err == nil {
				err = checkSeries(last, int64(n-1)*int64(cfg.ChunkSize/8))
			}
			if err != nil {
				rep.Inconsistencies = append(rep.Inconsistencies, fmt.Sprintf("reopened: last chunk: %v", err))
			}
		}
		rep.FinalChunks = n
		s.Close()
	}
	return rep, errors.Join(errs...)
}
