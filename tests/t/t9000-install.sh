#!/bin/sh
# make install: programs, pages, data, samples and completion land where
# PREFIX, DESTDIR and friends say; installed programs find their data through
# the compiled-in directory, and the demo runs from the installed copy.
. "$(dirname "$0")/../lib.sh"

# A build of its own (O=...), so the suite's build tree is left alone.
inst () {
	make -s -C "$KH_TOP" O="$TRASH/obj" "$@" install >make.log 2>&1 ||
	{ cat make.log; return 1; }
}

test_expect_success 'install with DESTDIR lays out every part' '
	inst PREFIX=/opt/kh DESTDIR="$TRASH/stage" &&
	for t in kh-fetch kh-authorship kh-score kh-comp kh-outreach; do
		test -x stage/opt/kh/bin/$t &&
		test -f stage/opt/kh/share/man/man1/$t.1 &&
		test -f stage/opt/kh/share/bash-completion/completions/$t || return 1
	done &&
	test -f stage/opt/kh/share/man/man7/kh.7 &&
	test -f stage/opt/kh/share/man/man5/kh-record.5 &&
	test -f stage/opt/kh/share/kh/repos.txt &&
	test -f stage/opt/kh/share/kh/briefs/example.json &&
	test -f stage/opt/kh/share/kh/samples/demo.sh
'

test_expect_success 'uninstall removes what install put there' '
	make -s -C "$KH_TOP" O="$TRASH/obj" PREFIX=/opt/kh DESTDIR="$TRASH/stage" uninstall &&
	test ! -e stage/opt/kh/bin/kh-score &&
	test ! -e stage/opt/kh/share/kh &&
	test ! -e stage/opt/kh/share/man/man7/kh.7
'

test_expect_success 'installed programs find their data in the compiled-in directory' '
	inst PREFIX="$TRASH/p" &&
	strings p/bin/kh-score | grep -F "$TRASH/p/share/kh" >/dev/null &&
	unset KH_DATADIR &&
	echo | p/bin/kh-score >/dev/null
'

test_expect_success 'the demo runs from the installed copy' '
	PATH="$TRASH/p/bin:$PATH" sh p/share/kh/samples/demo.sh demo >demo.out 2>demo.err &&
	grep "^Shortlist" demo.out &&
	test -s demo/drafts.md &&
	test -s demo/scored.ndjson
'

test_expect_success 'KH_DATADIR overrides the compiled-in directory' '
	mkdir -p alt && cp -r p/share/kh/* alt/ &&
	rm -rf p/share/kh &&
	test_must_fail p/bin/kh-score </dev/null 2>err &&
	grep weights err &&
	KH_DATADIR="$TRASH/alt" p/bin/kh-score </dev/null
'
test_done
