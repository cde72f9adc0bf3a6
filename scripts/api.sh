#!/usr/bin/env bash
# Prints the exported API of the library's public packages: every
# declaration go doc -all shows, without the doc text, so that a change to
# the surface shows as a diff against docs/api.txt (checked in CI by
# .ci/steps/11-api.sh). After a deliberate change:
#   scripts/api.sh > docs/api.txt
set -euo pipefail
cd "$(dirname "$0")/.."
for pkg in $(go list ./... | grep -v -e /internal/ -e /cmd/ -e /asmgen); do
	echo "== $pkg"
	# Declarations start at column 0 or are tab-indented inside a
	# declaration block; doc text is indented by spaces, and comments
	# inside blocks start with //.
	go doc -all "$pkg" | awk '/^(CONSTANTS|VARIABLES|FUNCTIONS|TYPES)$/ {on = 1} on' |
		grep -E '^[^ 	]|^	+[^/	 ]' || true
done
