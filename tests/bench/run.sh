#!/bin/sh
# tests/bench/run.sh: make bench. Runs every tests/bench/*.sh but this one;
# each prints its measurements as ratios against a baseline run in the same
# invocation (the machines are shared and noisy: absolute times mean little).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${KH_BIN:?run through make bench}"
export KH_BIN PATH="$KH_BIN:$PATH" LC_ALL=C TZ=UTC
rc=0
for b in "$here"/*.sh; do
	[ "$b" = "$here/run.sh" ] && continue
	case "$b" in *"${KH_ONLY:-}"*) ;; *) continue ;; esac
	echo "== ${b##*/}"
	sh "$b" || rc=1
done
exit $rc
