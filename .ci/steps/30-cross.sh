#!/usr/bin/env bash
# Cross-architecture checks: vet for every target with and without the
# portable build, arm64 (NEON) and s390x (big-endian) test suites under
# user-mode QEMU, 386 natively, and the portable build on amd64. (The
# kernel fuzz target runs with the others in 40-fuzz.sh.)
set -euo pipefail
start=$SECONDS
stamp() { echo "--- $* ($((SECONDS - start))s)"; }

for arch in amd64 arm64 386 s390x; do
	for tags in "" purego; do
		stamp "go vet GOARCH=$arch tags=${tags:-none}"
		GOARCH=$arch go vet ${tags:+-tags $tags} ./...
	done
done

# The golden vectors are found from the package directory (go test runs
# each binary there, emulated or not); no override is set, so these runs
# prove the lookup works under QEMU too.
pkgs=(./...)

stamp "arm64 under qemu-aarch64-static (NEON required)"
GOARCH=arm64 GOBLOSC_TEST_REQUIRE_KERNELS=neon GOBLOSC_TEST_EMULATOR=qemu-aarch64-static \
	go test -count=1 -exec qemu-aarch64-static . ./bitshuffle/...

stamp "s390x under qemu-s390x-static (big-endian, whole module, golden vectors included)"
GOARCH=s390x GOBLOSC_TEST_EMULATOR=qemu-s390x-static \
	go test -count=1 -timeout 12m -exec qemu-s390x-static "${pkgs[@]}"

stamp "386 native"
GOARCH=386 go test -count=1 "${pkgs[@]}"

stamp "amd64 portable build (-tags purego)"
go test -count=1 -tags purego "${pkgs[@]}"

stamp "done"
