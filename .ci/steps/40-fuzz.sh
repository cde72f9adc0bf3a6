#!/usr/bin/env bash
# Fuzz smoke: every fuzz target in the repository (the bench module's
# differential targets against the C libraries included) runs for a
# bounded number of executions beyond its seed corpus, so a decoder that
# panics on a nearby input fails CI. Targets are discovered, not listed, so new ones join; the
# cblosc tag is on so the fuzzers that compare with c-blosc run too.
set -euo pipefail
execs=${FUZZ_EXECS:-20000x}
count=0
while IFS= read -r file; do
	dir=$(dirname "$file")
	for target in $(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //'); do
		echo "--- fuzz $dir $target ($execs)"
		# Minimising each new input may take a minute by default, which
		# the targets that train a dictionary per input turn into many.
		go test -tags cblosc -run='^$' -fuzz="^${target}\$" -fuzztime="$execs" -fuzzminimizetime=5s "./$dir"
		count=$((count + 1))
	done
done < <(git ls-files '*_test.go' | grep -v '^asmgen/' | sort)
echo "fuzz smoke: $count targets"
[ "$count" -gt 0 ] || { echo "no fuzz targets found"; exit 1; }
