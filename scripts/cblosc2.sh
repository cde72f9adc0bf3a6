#!/usr/bin/env bash
# Builds c-blosc2 from a source tree for the cblosc2 cross-checks and
# benchmarks, against Debian's lz4, zstd and zlib, and prints the cgo
# settings that point `go test -tags cblosc2` at it. Debian packages no
# c-blosc2, so CI does not run these; they are for a machine that has the
# source (any release or checkout of c-blosc2).
#
#   scripts/cblosc2.sh /path/to/c-blosc2 [build-dir [cmake flags...]]
#   eval "$(scripts/cblosc2.sh /path/to/c-blosc2)"
#   go test -tags cblosc2 -run TestBlosc2ReadByC ./bench/crosscheck
#   go test -tags cblosc2 -run '^$' -bench Blosc2VersusC -benchtime=5x ./bench/crosscheck
#
# Flags after the build directory go to cmake last and so win: the plugin
# filters (bytedelta, int_trunc) cross-checks need a build with
#   scripts/cblosc2.sh SRC /tmp/cblosc2-build-plugins -DBUILD_PLUGINS=ON -DBLOSC_ENABLE_ZFP=OFF
set -euo pipefail
src=${1:?usage: $0 C-BLOSC2-SOURCE [BUILD-DIR]}
build=${2:-${TMPDIR:-/tmp}/cblosc2-build}
if ! command -v cmake >/dev/null || ! [ -e /usr/include/lz4.h ] || ! [ -e /usr/include/zstd.h ] || ! [ -e /usr/include/zlib.h ]; then
	echo "installing cmake, liblz4-dev, libzstd-dev, zlib1g-dev" >&2
	apt-get update -qq >&2 && apt-get install -y -qq cmake liblz4-dev libzstd-dev zlib1g-dev >&2
fi
mkdir -p "$build"
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
	-DPREFER_EXTERNAL_LZ4=ON -DPREFER_EXTERNAL_ZLIB=ON -DPREFER_EXTERNAL_ZSTD=ON \
	-DBUILD_SHARED=OFF -DBUILD_TESTS=OFF -DBUILD_FUZZERS=OFF -DBUILD_BENCHMARKS=OFF \
	-DBUILD_EXAMPLES=OFF -DBUILD_PLUGINS=OFF "${@:3}" >&2
cmake --build "$build" --target blosc2_static -j "$(nproc)" >&2
echo "export CGO_CFLAGS=-I$(cd "$src" && pwd)/include CGO_LDFLAGS=-L$(cd "$build" && pwd)/blosc"
