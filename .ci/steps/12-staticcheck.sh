#!/usr/bin/env bash
# staticcheck (pinned in setup.sh) over the library module and the bench
# module, with the build tags CI can build (c-blosc2 is not packaged by
# Debian, so its tagged files are checked where a build exists).
set -euo pipefail
sc="$(go env GOPATH)/bin/staticcheck"
"$sc" ./...
# Under purego the helpers that only the assembly paths call are unused.
"$sc" -tags purego -checks inherit,-U1000 ./...
(cd bench && "$sc" ./... && "$sc" -tags cblosc ./...)
