# tests/lib.sh: git's t/ style for kh's scripted tests.
#   test_expect_success 'title' 'cmd && cmd && test_cmp expect actual'
#   test_must_fail [--rc=N] cmd...   test_cmp expect actual   test_done
# Each script runs in its own trash directory, with the tools on PATH.
set -u
: "${KH_BIN:?run through make check}"
KH_TOP=$(cd "$(dirname "$0")/../.." && pwd)
PATH=$KH_BIN:$PATH
LC_ALL=C TZ=UTC GIT_CONFIG_NOSYSTEM=1 HOME=${TMPDIR:-/tmp}
export PATH LC_ALL TZ GIT_CONFIG_NOSYSTEM KH_TOP
unset GITHUB_TOKEN KH_TOKEN KH_NOW
test_count=0 test_failed=0
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/kh-test.XXXXXX")
trap 'rm -rf "$TRASH"' EXIT
cd "$TRASH" || exit 1
export HOME="$TRASH"

test_expect_success () {
	test_count=$((test_count + 1))
	if (eval "$2") >"$TRASH/.out" 2>&1; then
		echo "ok $test_count - $1"
	else
		test_failed=$((test_failed + 1))
		echo "not ok $test_count - $1"
		sed 's/^/#   /' "$TRASH/.out" | head -40
	fi
}

# test_must_fail [--rc=N] cmd: the command must exit non-zero (N exactly).
test_must_fail () {
	want=
	case "$1" in --rc=*) want=${1#--rc=}; shift ;; esac
	"$@"
	rc=$?
	if [ "$rc" -eq 0 ]; then echo "expected failure: $*" >&2; return 1; fi
	if [ "$rc" -gt 128 ]; then echo "died of a signal ($rc): $*" >&2; return 1; fi
	if [ -n "$want" ] && [ "$rc" -ne "$want" ]; then
		echo "exit $rc, want $want: $*" >&2; return 1
	fi
	return 0
}

test_cmp () {
	diff -u "$1" "$2"
}

test_done () {
	echo "# passed $((test_count - test_failed)) failed $test_failed"
	[ "$test_failed" -eq 0 ]
}
