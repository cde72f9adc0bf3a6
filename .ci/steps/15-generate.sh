#!/usr/bin/env bash
# Regenerates every generated file (the avo kernels) and fails if the result
# differs from what is committed. After the module download the generators
# run offline.
set -euo pipefail
(cd asmgen && GOWORK=off go mod download)
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly"
go generate ./...
if ! git diff --exit-code --stat; then
	echo "generated files drifted from the committed ones: run 'go generate ./...' and commit"
	exit 1
fi
untracked=$(git ls-files --others --exclude-standard)
if [ -n "$untracked" ]; then
	echo "go generate created files that are not committed:"
	echo "$untracked"
	exit 1
fi
