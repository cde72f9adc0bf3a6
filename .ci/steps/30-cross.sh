#!/usr/bin/env bash
# Cross-architecture checks: vet for every target with and without the
# portable build, arm64 (NEON) and s390x (big-endian) test suites under
# user-mode QEMU, 386 natively, and the portable build on amd64.
set -euo pipefail
start=$SECONDS
stamp() { echo "--- $* ($((SECONDS - start))s)"; }

for arch in amd64 arm64 386 s390x; do
	for tags in "" purego; do
		stamp "go vet GOARCH=$arch tags=${tags:-none}"
		GOARCH=$arch go vet ${tags:+-tags $tags} ./...
	done
done

# The golden vectors live beside the repository; pin the location so the
# emulated binaries (whose working directory is still the package dir)
# find them the same way native runs do.
if [ -z "${GOBLOSC_TESTDATA:-}" ] && [ -f ../shared/testdata/MANIFEST.tsv ]; then
	export GOBLOSC_TESTDATA=$(cd ../shared/testdata && pwd)
fi

stamp "arm64 under qemu-aarch64-static (NEON required)"
GOARCH=arm64 GOBLOSC_TEST_REQUIRE_KERNELS=neon GOBLOSC_TEST_EMULATOR=qemu-aarch64-static \
	go test -count=1 -short -exec qemu-aarch64-static . ./bitshuffle/...

stamp "s390x under qemu-s390x-static (big-endian, whole module)"
GOARCH=s390x GOBLOSC_TEST_EMULATOR=qemu-s390x-static \
	go test -count=1 -short -exec qemu-s390x-static ./...

stamp "386 native"
GOARCH=386 go test -count=1 -short ./...

stamp "amd64 portable build (-tags purego)"
go test -count=1 -tags purego ./...

stamp "amd64 every kernel this CPU has, fuzzed briefly"
go test -count=1 -run '^$' -fuzz '^FuzzShuffleKernels$' -fuzztime 2000x .

stamp "done"
