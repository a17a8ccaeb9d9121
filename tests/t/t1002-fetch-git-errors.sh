#!/bin/sh
# kh-fetch git: odd directory names, bad operands, a missing git, a broken
# repository, and a reader that stops early.
. "$(dirname "$0")/../lib.sh"

commit () {
	GIT_AUTHOR_NAME=Ann GIT_AUTHOR_EMAIL=ann@example.com GIT_AUTHOR_DATE=$1 \
	GIT_COMMITTER_NAME=Ann GIT_COMMITTER_EMAIL=ann@example.com \
	GIT_COMMITTER_DATE=$1 git commit -q -m "$2"
}

odd="-odd dir 'q' \"d\" \$(touch pwned) \`touch pwned\` ;x"

test_expect_success 'setup' '
	git -c init.defaultBranch=main init -q repo &&
	(cd repo &&
		echo one >one && git add one && commit 2024-01-01T00:00:00Z c1 &&
		echo two >two && git add two && commit 2024-01-02T00:00:00Z c2 &&
		echo 3 >one && git add one && commit 2024-01-03T00:00:00Z c3 &&
		mkdir sub) &&
	kh-fetch git repo >all.ndjson &&
	test $(wc -l <all.ndjson) = 3
'

test_expect_success 'a name with spaces, quotes, $() and a leading dash' '
	cp -R repo "./$odd" &&
	kh-fetch git -- "$odd" >actual &&
	test_cmp all.ndjson actual &&
	kh-fetch git "./$odd/" >actual &&
	test_cmp all.ndjson actual &&
	! test -e pwned
'

test_expect_success 'not a repository: exit 2 before any record' '
	mkdir plain && echo x >file &&
	echo "kh-fetch: not a git repository '\''plain'\''" >expect &&
	test_must_fail --rc=2 kh-fetch git repo plain >out 2>err &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	echo "kh-fetch: not a git repository '\''file'\''" >expect &&
	test_must_fail --rc=2 kh-fetch git file 2>err &&
	test_cmp expect err &&
	echo "kh-fetch: cannot open '\''missing'\'': No such file or directory" >expect &&
	test_must_fail --rc=2 kh-fetch git missing 2>err &&
	test_cmp expect err
'

test_expect_success 'a directory inside a clone is not the clone' '
	echo "kh-fetch: not a git repository '\''repo/sub'\'': it is inside one, give the top of the clone" >expect &&
	test_must_fail --rc=2 kh-fetch git repo/sub 2>err &&
	test_cmp expect err &&
	git clone -q --bare repo bare.git &&
	echo "kh-fetch: not a git repository '\''bare.git/refs'\'': it is inside one, give the top of the clone" >expect &&
	test_must_fail --rc=2 kh-fetch git bare.git/refs 2>err &&
	test_cmp expect err &&
	kh-fetch git repo/.git >actual &&
	test_cmp all.ndjson actual
'

test_expect_success 'no git on PATH: exit 4' '
	prog=$(command -v kh-fetch) &&
	echo "kh-fetch: cannot run '\''git'\'': No such file or directory" >expect &&
	(PATH= && export PATH && test_must_fail --rc=4 "$prog" git repo >out 2>err) &&
	test_cmp expect err &&
	test_cmp /dev/null out
'

test_expect_success 'a bad revision: exit 4, git says why' '
	echo "kh-fetch: git log failed in '\''repo'\'': exit status 128" >expect &&
	test_must_fail --rc=4 kh-fetch git --rev nosuch repo >out 2>err &&
	grep -q "nosuch" err &&
	tail -1 err >actual &&
	test_cmp expect actual &&
	test_cmp /dev/null out
'

test_expect_success 'a --rev or --path that looks like an option stays a name' '
	test_must_fail --rc=4 kh-fetch git --rev=--output=written repo \
	    >out 2>err &&
	! test -e written && ! test -e repo/written &&
	test_cmp /dev/null out &&
	kh-fetch git --path=--output=written repo >out &&
	! test -e written && ! test -e repo/written &&
	test_cmp /dev/null out
'

test_expect_success 'an unreadable object: what was read, then exit 4' '
	cp -R repo broken &&
	blob=$(git -C broken rev-parse HEAD~1:two) &&
	rm -f "broken/.git/objects/$(echo $blob | cut -c1-2)/$(echo $blob | cut -c3-)" &&
	test_must_fail --rc=4 kh-fetch git broken >out 2>err &&
	head -1 all.ndjson >expect &&
	test_cmp expect out &&
	echo "kh-fetch: git log failed in '\''broken'\'': exit status 128" >expect &&
	tail -1 err >actual &&
	test_cmp expect actual
'

test_expect_success 'output git log should never write is an error, exit 4' '
	mkdir bin &&
	real=$(command -v git) &&
	sha=$(git -C repo rev-parse HEAD) &&
	cat >bin/git <<-EOF &&
	#!/bin/sh
	# git, except that log writes one good commit, then one with a bad count
	for a; do
		if [ "\$a" = log ]; then
			printf "\\001%s\\nP\\nA\\na@example.com\\n1\\nC\\nc@example.com\\n1\\nok\\n\\0" $sha
			printf "\\001%s\\nP\\nA\\na@example.com\\n1\\nC\\nc@example.com\\n1\\nbad\\n\\0\\nx\\t1\\tpath\\0" $sha
			exit 0
		fi
	done
	exec "$real" "\$@"
	EOF
	chmod +x bin/git &&
	echo "kh-fetch: unexpected output from git log in '\''repo'\''" >expect &&
	(PATH=$PWD/bin:$PATH && export PATH &&
	 test_must_fail --rc=4 kh-fetch git repo >out 2>err) &&
	test_cmp expect err &&
	jq -r .title out >titles &&
	echo ok >expect &&
	test_cmp expect titles
'

test_expect_success 'an empty clone gives nothing, with a warning' '
	git -c init.defaultBranch=main init -q empty &&
	echo "kh-fetch: no commits in '\''empty'\''" >expect &&
	kh-fetch git empty repo >out 2>err &&
	test_cmp expect err &&
	test_cmp all.ndjson out &&
	kh-fetch git -q empty >out 2>err &&
	test_cmp /dev/null err &&
	test_cmp /dev/null out
'

test_expect_success 'usage errors' '
	cat >expect <<-\EOF &&
	kh-fetch: option '\''--repo'\'' wants OWNER/NAME, not '\''a/b/c'\''
	Try '\''kh-fetch --help'\'' for more information.
	EOF
	test_must_fail --rc=2 kh-fetch git --repo a/b/c repo 2>err &&
	test_cmp expect err &&
	cat >expect <<-\EOF &&
	kh-fetch: option '\''--until'\'' wants a date (YYYY-MM-DD, YYYY-MM-DDTHH:MM:SSZ or @EPOCH), not '\''yesterday'\''
	Try '\''kh-fetch --help'\'' for more information.
	EOF
	test_must_fail --rc=2 kh-fetch git --until yesterday repo 2>err &&
	test_cmp expect err
'

test_expect_success 'a long history streams, and | head -1 ends it quietly' '
	git -c init.defaultBranch=main init -q big &&
	i=1 &&
	while [ $i -le 3000 ]; do
		printf "commit refs/heads/main\ncommitter A <a@example.com> %d +0000\ndata 2\nc\nM 644 inline f%d\ndata 6\n%05d\n" \
		    $((1700000000 + i)) $((i % 7)) $i
		i=$((i + 1))
	done | git -C big fast-import --quiet &&
	kh-fetch git big | wc -l >count &&
	echo 3000 >expect &&
	test_cmp expect count &&
	{ kh-fetch git big 2>err; echo $? >rc; } | head -1 >first &&
	test_cmp /dev/null err &&
	test $(wc -l <first) = 1 &&
	case $(cat rc) in 0|141) ;; *) false ;; esac
'

test_expect_success 'progress on a terminal only, erased at the end' '
	kh-fetch git big 2>err >/dev/null &&
	test_cmp /dev/null err &&
	if command -v script >/dev/null; then
		script -qc "kh-fetch git big >/dev/null" typescript >/dev/null &&
		grep -q "kh-fetch: big: 64 commits" typescript &&
		tr "\r" "\n" <typescript | grep -A1 "commits" | tail -1 |
		    grep -q "^$(printf "\033")\[K"
	fi
'

test_done
