#!/usr/bin/env bash
# The exported API must be the one written down in docs/api.txt: a change
# to the public surface is made on purpose, with the file regenerated
# (scripts/api.sh > docs/api.txt) in the same commit.
set -euo pipefail
if ! diff -u docs/api.txt <(scripts/api.sh); then
	echo "the exported API differs from docs/api.txt: if deliberate, run scripts/api.sh > docs/api.txt"
	exit 1
fi
