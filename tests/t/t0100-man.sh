#!/bin/sh
# Man pages: lint clean, and every long option a tool's --help shows is in
# its page, and every long option of the page is in some --help (git's t0450).
. "$(dirname "$0")/../lib.sh"

man=$KH_TOP/share/man

test_expect_success 'man pages lint clean' '
	if command -v mandoc >/dev/null; then
		mandoc -Tlint -W warning "$man"/man*/* >lint 2>&1
	else
		for m in "$man"/man*/*; do groff -mdoc -z -ww "$m"; done >lint 2>&1
	fi
	test_cmp /dev/null lint
'

# The long options in --help text on stdin, one per line, sorted.
longopts () {
	grep -o -- "--[a-z][a-z0-9-]*" | sort -u
}

# The long options of an mdoc page: "Fl \-name" renders as --name.
pageopts () {
	sed "s/\\\\-/-/g" "$1" | grep -o "Fl -[a-z][a-z0-9-]*" |
	    sed "s/^Fl /-/" | sort -u
}

for prog in "$KH_BIN"/kh-*; do
	tool=${prog##*/}
	page=$man/man1/$tool.1
	test_expect_success "$tool has a man page" "test -f '$page'"
	[ -f "$page" ] || continue
	test_expect_success "$tool: --help and $tool(1) list the same long options" '
		if [ "$tool" = kh-fetch ]; then
			for s in $("$prog" --help | sed -n "s/^  kh-fetch \([a-z]*\).*/\1/p"); do
				"$prog" "$s" --help
			done
		else
			"$prog" --help
		fi | longopts >help &&
		pageopts "$page" >page &&
		test -s help &&
		test_cmp help page
	'
done
test_done
