#!/bin/sh
# tests/golden.sh: run every case under tests/golden/TOOL/NNN-slug/ (TAP).
# A case holds: args (one argument a line), in.ndjson (stdin; absent: none),
# out.ndjson (expected stdout; absent: empty), err (expected stderr; absent:
# empty), rc (expected exit code; absent: 0), env (NAME=value lines).
# The case runs in its own directory, so args may name files beside it.
# KH_ONLY=PATTERN runs only the cases whose TOOL/NNN-slug contains it.
# KH_REGEN=1 rewrites out.ndjson, err and rc from what the tools do now.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kh-golden.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C TZ=UTC
unset GITHUB_TOKEN KH_TOKEN KH_NOW KH_DATADIR
n=0 failed=0
for dir in "$top"/tests/golden/*/*/; do
	[ -d "$dir" ] || continue
	dir=${dir%/}
	case_=${dir#"$top"/tests/golden/}
	tool=${case_%%/*}
	case "$case_" in *"${KH_ONLY:-}"*) ;; *) continue ;; esac
	n=$((n + 1))
	prog=$KH_BIN/$tool
	[ -x "$prog" ] || prog=${KH_TESTBIN:-/nonexistent}/$tool
	in=/dev/null
	[ -f "$dir/in.ndjson" ] && in=$dir/in.ndjson
	(
		cd "$dir" || exit 99
		if [ -f env ]; then
			while IFS= read -r kv || [ -n "$kv" ]; do
				[ -n "$kv" ] && export "$kv"
			done < env
		fi
		set --
		if [ -f args ]; then
			while IFS= read -r a || [ -n "$a" ]; do set -- "$@" "$a"; done < args
		fi
		exec ${KH_WRAP:-} "$prog" "$@" < "$in" > "$tmp/out" 2> "$tmp/err"
	)
	rc=$?
	if [ -n "${KH_REGEN:-}" ]; then
		cp "$tmp/out" "$dir/out.ndjson"
		if [ -s "$tmp/err" ]; then cp "$tmp/err" "$dir/err"; else rm -f "$dir/err"; fi
		if [ "$rc" -ne 0 ]; then echo "$rc" > "$dir/rc"; else rm -f "$dir/rc"; fi
	fi
	want_rc=0
	[ -f "$dir/rc" ] && want_rc=$(cat "$dir/rc")
	: > "$tmp/empty"
	want_out=$tmp/empty want_err=$tmp/empty
	[ -f "$dir/out.ndjson" ] && want_out=$dir/out.ndjson
	[ -f "$dir/err" ] && want_err=$dir/err
	if [ "$rc" = "$want_rc" ] && cmp -s "$tmp/out" "$want_out" &&
	    cmp -s "$tmp/err" "$want_err"; then
		echo "ok $n - golden $case_"
	else
		failed=$((failed + 1))
		echo "not ok $n - golden $case_"
		[ "$rc" = "$want_rc" ] || echo "#   exit $rc, want $want_rc"
		diff -u "$want_out" "$tmp/out" | sed 's/^/#   /' | head -20
		diff -u "$want_err" "$tmp/err" | sed 's/^/#   /' | head -20
	fi
done
echo "# passed $((n - failed)) failed $failed"
[ "$failed" -eq 0 ]
