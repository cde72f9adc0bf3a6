#!/usr/bin/env bash
# Installs what CI needs: the C library c-blosc 1.x for the cgo
# cross-checks, QEMU for the foreign-architecture test runs, NumPy for the
# .npy check, and a pinned staticcheck.
set -euo pipefail
need=()
[ -f /usr/include/blosc.h ] || need+=(libblosc-dev)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
# numpy reads the .npy files blosc decompress writes (cmd/blosc's
# TestNPYNumpyLoads; it skips without it).
/usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
if [ ${#need[@]} -gt 0 ]; then
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
go version
go mod download
(cd bench && go mod download)
# staticcheck at a fixed version, so that a new release's checks never turn
# a run red by themselves.
GOFLAGS= go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
