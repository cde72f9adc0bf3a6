#!/usr/bin/env bash
# A long fuzz campaign on one target, for a maintainer's machine (CI only
# runs the short smoke in .ci/steps/40-fuzz.sh).
#
#   scripts/fuzz.sh TARGET [DURATION] [PACKAGE]
#   scripts/fuzz.sh FuzzDecompress2 30m
#   scripts/fuzz.sh FuzzDecompress 15m ./blosclz    # the name is in two packages
#   scripts/fuzz.sh -l                              # list every target and its package
#
# go test's -timeout (10m by default) would end a longer run: it is off.
# The package is found from the target's name; the build tags (cblosc,
# cblosc2) from its file's //go:build line, so the differential targets
# link the C libraries (cblosc2 needs CGO_CFLAGS/CGO_LDFLAGS, see
# scripts/cblosc2.sh). Environment:
#   FUZZ_MINIMIZE  -fuzzminimizetime, default 1s: go test's default of 60s
#                  makes a failure sit at "0 execs/sec" for a minute before
#                  it is reported, which looks like a hang, and every
#                  new interesting input is minimised for that long too,
#                  time in which no execution is counted
#   FUZZ_PARALLEL  -parallel, default 1 (the campaign runs beside other work)
#   FUZZ_NICE      nice level, default 19
#   FUZZ_TAGS      extra build tags, comma-separated
# A failing input is written to PACKAGE/testdata/fuzz/TARGET/ by go test;
# the interesting inputs found stay in $(go env GOCACHE)/fuzz/. The last
# status line (elapsed time, executions) is printed at the end, and the
# whole log is kept in ${TMPDIR:-/tmp}/fuzz-TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

targets() {
	git ls-files '*_test.go' | grep -v '^asmgen/' | sort | while IFS= read -r file; do
		dir=$(dirname "$file")
		[ "$dir" = . ] || dir=./$dir
		{ grep -ho '^func Fuzz[A-Za-z0-9_]*' "$file" || true; } | sed "s|^func ||; s|\$| $dir $file|"
	done
}

if [ "${1:-}" = -l ]; then
	targets | awk '{print $1, $2}'
	exit 0
fi
target=${1:?usage: $0 TARGET [DURATION] [PACKAGE] (or -l to list)}
duration=${2:-15m}
want=${3:-}
mapfile -t found < <(targets | awk -v t="$target" -v p="$want" '$1 == t && (p == "" || $2 == p || $2 == "./" p)')
if [ "${#found[@]}" -ne 1 ]; then
	echo "$target: ${#found[@]} matches${want:+ in $want}; name the package:" >&2
	targets | awk -v t="$target" '$1 == t {print "  " $2}' >&2
	exit 2
fi
read -r _ pkg file <<<"${found[0]}"

tags=${FUZZ_TAGS:-}
constraint=$(sed -n 's|^//go:build ||p' "$file" | head -1)
for tag in cblosc2 cblosc purego; do
	if grep -qw "$tag" <<<"$constraint"; then
		tags=${tags:+$tags,}$tag
	fi
done

log=${TMPDIR:-/tmp}/fuzz-$target.log
echo "fuzz $target in $pkg for $duration (tags: ${tags:-none}; log: $log)"
status=0
nice -n "${FUZZ_NICE:-19}" go test ${tags:+-tags "$tags"} -run '^$' -fuzz "^${target}\$" \
	-timeout 0 -fuzztime "$duration" -fuzzminimizetime "${FUZZ_MINIMIZE:-1s}" -parallel "${FUZZ_PARALLEL:-1}" \
	"$pkg" 2>&1 | tee "$log" || status=$?
echo "--- last status: $(grep '^fuzz: elapsed' "$log" | tail -1)"
exit "$status"
