#!/bin/sh
# tests/run.sh: the whole suite (make check). Runs the C unit tests, the
# golden cases and the scripted tests, and ends with "N passed, N failed".
# KH_WRAP (valgrind, from make memcheck) prefixes every program run.
# KH_ONLY=PATTERN runs just the unit tests, golden cases and scripts whose
# name contains PATTERN (make check KH_ONLY=kh-score).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
: "${KH_BIN:?run through make check}"
export KH_BIN KH_TESTBIN
log=$(mktemp "${TMPDIR:-/tmp}/kh-check.XXXXXX")
trap 'rm -f "$log"' EXIT
passed=0 failed=0

run () {
	"$@" > "$log" 2>&1 < /dev/null
	rc=$?
	p=$(grep -c '^ok ' "$log")
	f=$(grep -c '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# died without saying which test: still a failure
		echo "not ok - $* exited $rc" >> "$log"
	fi
	passed=$((passed + p)) failed=$((failed + f))
	if [ "$f" -gt 0 ] || [ -n "${KH_VERBOSE_TESTS:-}" ]; then
		echo "== $*"; grep -v '^ok ' "$log"
	fi
	printf '%-44s %4d passed, %d failed\n' "${*##*/}" "$p" "$f"
}

for t in "${KH_TESTBIN:-}"/t-*; do
	[ -x "$t" ] || continue
	case "$t" in *"${KH_ONLY:-}"*) ;; *) continue ;; esac
	run ${KH_WRAP:-} "$t"
done
run sh "$top/tests/golden.sh"	# it filters its cases by KH_ONLY itself
for t in "$top"/tests/t/t*.sh; do
	[ -f "$t" ] || continue
	case "$t" in *"${KH_ONLY:-}"*) ;; *) continue ;; esac
	run sh "$t"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
