#!/usr/bin/env bash
# The quick suite of the performance harness, with c-blosc 1.x beside us:
# proves that go run ./bench run works end to end and prints the figures.
# They are never asserted (CI machines are shared and noisy); the lead
# compares runs with go run ./bench compare.
set -euo pipefail
out=${TMPDIR:-/tmp}/goblosc-bench
start=$SECONDS
go run -tags cblosc ./bench run -suite quick -o "$out"
echo "quick suite: $((SECONDS - start))s (with the build); outputs in $out"
