#!/usr/bin/env bash
# Installs the system packages CI needs: the C library c-blosc 1.x for the
# cgo cross-checks and QEMU for the foreign-architecture test runs.
set -euo pipefail
need=()
[ -f /usr/include/blosc.h ] || need+=(libblosc-dev)
command -v qemu-aarch64-static >/dev/null || need+=(qemu-user-static)
if [ ${#need[@]} -gt 0 ]; then
	SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
go version
go mod download
(cd bench && go mod download)
