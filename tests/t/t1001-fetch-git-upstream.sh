#!/bin/sh
# kh-fetch git --upstream: a fork's own commits told from the upstream
# history it carries, without writing to either repository.
. "$(dirname "$0")/../lib.sh"

# commit NAME DATE SUBJECT: an empty commit with fixed dates.
commit () {
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$1@example.com GIT_AUTHOR_DATE=$2 \
	GIT_COMMITTER_NAME=$1 GIT_COMMITTER_EMAIL=$1@example.com \
	GIT_COMMITTER_DATE=$2 git commit -q --allow-empty -m "$3"
}

# title upstream, one line per record
marks () {
	jq -r '"\(.title) \(.upstream)"'
}

test_expect_success 'setup: an upstream, a fork of it, then both move on' '
	git -c init.defaultBranch=main init -q up &&
	(cd up && commit Ann 2024-01-01T00:00:00Z "u1" &&
		commit Ann 2024-01-02T00:00:00Z "u2") &&
	git clone -q up fork &&
	(cd fork && commit Fay 2024-01-03T00:00:00Z "f1" &&
		commit Fay 2024-01-04T00:00:00Z "f2") &&
	(cd up && commit Ann 2024-01-05T00:00:00Z "u3") &&
	test_must_fail git -C fork cat-file -e "$(git -C up rev-parse HEAD)"
'

test_expect_success 'fork-only commits are upstream:false, the rest true' '
	printf "%s\n" "f2 false" "f1 false" "u2 true" "u1 true" >expect &&
	touch marker &&
	kh-fetch git --upstream up fork | marks >actual &&
	test_cmp expect actual &&
	find up fork -newer marker >written &&
	test_cmp /dev/null written
'

test_expect_success 'without --upstream it is null' '
	printf "%s\n" "f2 null" "f1 null" "u2 null" "u1 null" >expect &&
	kh-fetch git fork | marks >actual &&
	test_cmp expect actual
'

test_expect_success 'the upstream itself is all upstream; --rev applies' '
	printf "%s\n" "u3 true" "u2 true" "u1 true" >expect &&
	kh-fetch git --upstream=up up | marks >actual &&
	test_cmp expect actual &&
	echo "f2 false" >expect &&
	kh-fetch git --upstream up --rev HEAD~1..HEAD fork | marks >actual &&
	test_cmp expect actual
'

test_expect_success 'a fork that merged upstream work back in' '
	git clone -q fork fork2 &&
	(cd fork2 && git fetch -q ../up main &&
		GIT_AUTHOR_NAME=Fay GIT_AUTHOR_EMAIL=fay@example.com \
		GIT_COMMITTER_NAME=Fay GIT_COMMITTER_EMAIL=fay@example.com \
		GIT_AUTHOR_DATE=2024-01-06T00:00:00Z \
		GIT_COMMITTER_DATE=2024-01-06T00:00:00Z \
		git merge -q --no-ff -m "sync" FETCH_HEAD) &&
	printf "%s\n" "sync false" "u3 true" "f2 false" "f1 false" "u2 true" \
	    "u1 true" >expect &&
	kh-fetch git --upstream up fork2 | marks >actual &&
	test_cmp expect actual
'

test_expect_success 'an upstream path with a colon is quoted for git' '
	cp -R up "up:stream" &&
	kh-fetch git --upstream up fork >expect &&
	kh-fetch git --upstream "up:stream" fork >actual &&
	test_cmp expect actual
'

test_expect_success 'SHA-256 repositories' '
	git -c init.defaultBranch=main init -q --object-format=sha256 up256 &&
	(cd up256 && commit Ann 2024-01-01T00:00:00Z "u1") &&
	git clone -q up256 fork256 &&
	(cd fork256 && commit Fay 2024-01-02T00:00:00Z "f1") &&
	printf "%s\n" "f1 false 64" "u1 true 64" >expect &&
	kh-fetch git --upstream up256 fork256 |
	jq -r "\"\(.title) \(.upstream) \(.sha | length)\"" >actual &&
	test_cmp expect actual
'

test_expect_success 'a bad --upstream is a usage error' '
	mkdir plain &&
	echo "kh-fetch: not a git repository '\''plain'\''" >expect &&
	test_must_fail --rc=2 kh-fetch git --upstream plain fork >out 2>err &&
	test_cmp expect err &&
	test_cmp /dev/null out &&
	git -c init.defaultBranch=main init -q empty &&
	echo "kh-fetch: upstream has no commits '\''empty'\''" >expect &&
	test_must_fail --rc=2 kh-fetch git --upstream empty fork 2>err &&
	test_cmp expect err
'

test_done
