package zstdenc

// Match finding strategies, numbered as libzstd numbers them: the
// entropy stage's choices depend on the number.
const (
	stratFast = 1 + iota
	stratDfast
	stratGreedy
	stratLazy
	stratLazy2
	stratBtlazy2
	stratBtopt
	stratBtultra
	stratBtultra2
)

// cparams is one row of libzstd's level table: window, chain and hash
// logs, search log, minimum match, target length, strategy.
type cparams struct {
	wlog, clog, hlog, slog, minMatch uint8
	target                           uint16
	strat                            uint8
}

// MaxLevel is the highest libzstd level.
const MaxLevel = 22

// levelTable is libzstd's ZSTD_defaultCParameters (lib/compress/clevels.h)
// for levels 1..22: for sources over 256 KiB, up to 256 KiB, up to 128
// KiB and up to 16 KiB. These numbers are the reference's; the rows pick
// what libzstd picks for the size Blosc hands it.
var levelTable = [4][MaxLevel]cparams{
	{
		{19, 13, 14, 1, 7, 0, stratFast},
		{20, 15, 16, 1, 6, 0, stratFast},
		{21, 16, 17, 1, 5, 0, stratDfast},
		{21, 18, 18, 1, 5, 0, stratDfast},
		{21, 18, 19, 3, 5, 2, stratGreedy},
		{21, 18, 19, 3, 5, 4, stratLazy},
		{21, 19, 20, 4, 5, 8, stratLazy},
		{21, 19, 20, 4, 5, 16, stratLazy2},
		{22, 20, 21, 4, 5, 16, stratLazy2},
		{22, 21, 22, 5, 5, 16, stratLazy2},
		{22, 21, 22, 6, 5, 16, stratLazy2},
		{22, 22, 23, 6, 5, 32, stratLazy2},
		{22, 22, 22, 4, 5, 32, stratBtlazy2},
		{22, 22, 23, 5, 5, 32, stratBtlazy2},
		{22, 23, 23, 6, 5, 32, stratBtlazy2},
		{22, 22, 22, 5, 5, 48, stratBtopt},
		{23, 23, 22, 5, 4, 64, stratBtopt},
		{23, 23, 22, 6, 3, 64, stratBtultra},
		{23, 24, 22, 7, 3, 256, stratBtultra2},
		{25, 25, 23, 7, 3, 256, stratBtultra2},
		{26, 26, 24, 7, 3, 512, stratBtultra2},
		{27, 27, 25, 9, 3, 999, stratBtultra2},
	},
	{
		{18, 13, 14, 1, 6, 0, stratFast},
		{18, 14, 14, 1, 5, 0, stratDfast},
		{18, 16, 16, 1, 4, 0, stratDfast},
		{18, 16, 17, 3, 5, 2, stratGreedy},
		{18, 17, 18, 5, 5, 2, stratGreedy},
		{18, 18, 19, 3, 5, 4, stratLazy},
		{18, 18, 19, 4, 4, 4, stratLazy},
		{18, 18, 19, 4, 4, 8, stratLazy2},
		{18, 18, 19, 5, 4, 8, stratLazy2},
		{18, 18, 19, 6, 4, 8, stratLazy2},
		{18, 18, 19, 5, 4, 12, stratBtlazy2},
		{18, 19, 19, 7, 4, 12, stratBtlazy2},
		{18, 18, 19, 4, 4, 16, stratBtopt},
		{18, 18, 19, 4, 3, 32, stratBtopt},
		{18, 18, 19, 6, 3, 128, stratBtopt},
		{18, 19, 19, 6, 3, 128, stratBtultra},
		{18, 19, 19, 8, 3, 256, stratBtultra},
		{18, 19, 19, 6, 3, 128, stratBtultra2},
		{18, 19, 19, 8, 3, 256, stratBtultra2},
		{18, 19, 19, 10, 3, 512, stratBtultra2},
		{18, 19, 19, 12, 3, 512, stratBtultra2},
		{18, 19, 19, 13, 3, 999, stratBtultra2},
	},
	{
		{17, 12, 13, 1, 6, 0, stratFast},
		{17, 13, 15, 1, 5, 0, stratFast},
		{17, 15, 16, 2, 5, 0, stratDfast},
		{17, 17, 17, 2, 4, 0, stratDfast},
		{17, 16, 17, 3, 4, 2, stratGreedy},
		{17, 16, 17, 3, 4, 4, stratLazy},
		{17, 16, 17, 3, 4, 8, stratLazy2},
		{17, 16, 17, 4, 4, 8, stratLazy2},
		{17, 16, 17, 5, 4, 8, stratLazy2},
		{17, 16, 17, 6, 4, 8, stratLazy2},
		{17, 17, 17, 5, 4, 8, stratBtlazy2},
		{17, 18, 17, 7, 4, 12, stratBtlazy2},
		{17, 18, 17, 3, 4, 12, stratBtopt},
		{17, 18, 17, 4, 3, 32, stratBtopt},
		{17, 18, 17, 6, 3, 256, stratBtopt},
		{17, 18, 17, 6, 3, 128, stratBtultra},
		{17, 18, 17, 8, 3, 256, stratBtultra},
		{17, 18, 17, 10, 3, 512, stratBtultra},
		{17, 18, 17, 5, 3, 256, stratBtultra2},
		{17, 18, 17, 7, 3, 512, stratBtultra2},
		{17, 18, 17, 9, 3, 512, stratBtultra2},
		{17, 18, 17, 11, 3, 999, stratBtultra2},
	},
	{
		{14, 14, 15, 1, 5, 0, stratFast},
		{14, 14, 15, 1, 4, 0, stratFast},
		{14, 14, 15, 2, 4, 0, stratDfast},
		{14, 14, 14, 4, 4, 2, stratGreedy},
		{14, 14, 14, 3, 4, 4, stratLazy},
		{14, 14, 14, 4, 4, 8, stratLazy2},
		{14, 14, 14, 6, 4, 8, stratLazy2},
		{14, 14, 14, 8, 4, 8, stratLazy2},
		{14, 15, 14, 5, 4, 8, stratBtlazy2},
		{14, 15, 14, 9, 4, 8, stratBtlazy2},
		{14, 15, 14, 3, 4, 12, stratBtopt},
		{14, 15, 14, 4, 3, 24, stratBtopt},
		{14, 15, 14, 5, 3, 32, stratBtultra},
		{14, 15, 15, 6, 3, 64, stratBtultra},
		{14, 15, 15, 7, 3, 256, stratBtultra},
		{14, 15, 15, 5, 3, 48, stratBtultra2},
		{14, 15, 15, 6, 3, 128, stratBtultra2},
		{14, 15, 15, 7, 3, 256, stratBtultra2},
		{14, 15, 15, 8, 3, 256, stratBtultra2},
		{14, 15, 15, 8, 3, 512, stratBtultra2},
		{14, 15, 15, 9, 3, 512, stratBtultra2},
		{14, 15, 15, 10, 3, 999, stratBtultra2},
	},
}

// paramsFor is libzstd's choice for level and a source of n bytes after
// a dictionary of d (ZSTD_getCParams then ZSTD_adjustCParams_internal):
// the row for the size, then the window, hash and chain logs shrunk to
// what the input can use.
func paramsFor(level, n, d int) cparams {
	level = max(1, min(level, MaxLevel))
	size := n + d
	tab := 0
	if size <= 256<<10 {
		tab++
	}
	if size <= 128<<10 {
		tab++
	}
	if size <= 16<<10 {
		tab++
	}
	p := levelTable[tab][level-1]
	srcLog := uint8(6)
	if size >= 1<<6 {
		srcLog = uint8(highbit(uint32(size-1)) + 1)
	}
	if p.wlog > srcLog {
		p.wlog = srcLog
	}
	// With a dictionary the window must reach across it too.
	wl := p.wlog
	if d > 0 && 1<<wl < size {
		wl = uint8(highbit(uint32(size-1)) + 1)
	}
	if p.hlog > wl+1 {
		p.hlog = wl + 1
	}
	cycle := p.clog
	if p.strat >= stratBtlazy2 {
		cycle--
	}
	if cycle > wl {
		p.clog -= cycle - wl
	}
	if p.wlog < 10 {
		p.wlog = 10
	}
	return p
}
