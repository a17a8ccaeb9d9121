#!/bin/sh
# kh-authorship on commit evidence from real git repositories the test
# builds: an upstream with a squash-merged PR, a release drop, dependabot,
# a docs-only change and an AI co-author; a fork with its own commit and a
# rebased copy of upstream work.
. "$(dirname "$0")/../lib.sh"

# commit AUTHOR EMAIL DATE SUBJECT [BODY]: commit what is staged.
commit () {
	GIT_AUTHOR_NAME=$1 GIT_AUTHOR_EMAIL=$2 GIT_AUTHOR_DATE=$3 \
	GIT_COMMITTER_DATE=$3 git commit -q -m "$4" ${5:+-m "$5"}
}

# verdicts FILE: "candidate sha-or-id verdict" lines, sorted.
verdicts () {
	jq -r '.id as $c | .evidence[] |
	    "\($c) \(.sha // .id | .[0:7]) \(.authorship.verdict)"' "$1" | sort
}

test_expect_success 'build an upstream and a fork' '
	git init -q up &&
	(
		cd up &&
		git config user.name "Ci Committer" &&
		git config user.email ci@up.dev &&
		mkdir csrc docs &&
		echo "__global__ void k() {}" >csrc/attn.cu &&
		git add . && commit "Up Stream" up@up.dev 2025-01-01T00:00:00Z "Initial" &&
		printf "a\nb\nc\nd\n" >>csrc/attn.cu && git add . &&
		commit "Alice Wong" alice@wong.dev 2025-01-02T00:00:00Z "Tile the attention kernel" &&
		printf "e\nf\ng\nh\n" >csrc/softmax.cu && git add . &&
		GIT_COMMITTER_NAME=GitHub GIT_COMMITTER_EMAIL=noreply@github.com \
		commit "Sam Sq" sam.sq@gmail.com 2025-01-03T00:00:00Z "Fused softmax (#12)" &&
		for i in $(seq 1 30); do echo "x" >csrc/vendor$i.cu; done && git add . &&
		commit "Rel Eng" releng@up.dev 2025-01-04T00:00:00Z "Add vendored kernels" &&
		echo "triton==3.1" >requirements.txt && git add . &&
		commit "dependabot[bot]" "49699333+dependabot[bot]@users.noreply.github.com" \
		    2025-01-05T00:00:00Z "Bump triton from 3.0 to 3.1" &&
		printf "# usage\nrun it\n\nmore\n" >docs/usage.md && git add . &&
		commit "Bob Stone" bob@stone.dev 2025-01-06T00:00:00Z "Describe the kernels" &&
		printf "i\nj\nk\nl\n" >>csrc/softmax.cu && git add . &&
		commit "Alice Wong" alice@wong.dev 2025-01-07T00:00:00Z "Online softmax" \
		    "Co-authored-by: Claude <noreply@anthropic.com>
Co-authored-by: Carol Diaz <carol@diaz.dev>"
	) &&
	git clone -q up fork &&
	(
		cd fork &&
		git config user.name "Eve Fork" &&
		git config user.email eve@fork.dev &&
		git reset -q --hard HEAD~6 &&
		git cherry-pick $(git -C ../up rev-parse HEAD~5) >/dev/null &&
		printf "m\nn\no\np\n" >csrc/mine.cu && git add . &&
		commit "Eve Fork" eve@fork.dev 2025-02-01T00:00:00Z "My own kernel"
	) &&
	kh-fetch git --repo=up/r --upstream=up up >up.ndjson &&
	kh-fetch git --repo=eve/r --upstream=up fork >fork.ndjson &&
	cat >pr.ndjson <<-\EOF
	{"type":"evidence","id":"github:pr:up/r#12","kind":"pr","source":"github","person":{"login":"samsq"},"url":"https://github.com/up/r/pull/12","at":"2025-01-02T12:00:00Z","repo":"up/r","upstream":true,"number":12,"title":"Fused softmax","text":"","author_type":"User","merged":true,"merged_at":"2025-01-03T00:00:00Z","merged_by":null,"base_repo":"up/r","head_repo":"samsq/r","from_fork":true,"labels":[],"added":4,"deleted":0}
	EOF
	test $(wc -l <up.ndjson) -eq 7 && test $(wc -l <fork.ndjson) -eq 3
'

test_expect_success 'every commit gets the verdict its history calls for' '
	cat up.ndjson fork.ndjson pr.ndjson |
	    kh-authorship --max-files=20 >cands.ndjson &&
	verdicts cands.ndjson >actual &&
	up() { git -C up rev-parse --short=7 "$1"; } &&
	fk() { git -C fork rev-parse --short=7 "$1"; } &&
	sort >expect <<-EOF &&
	email:alice@wong.dev $(up HEAD~5) verified
	email:alice@wong.dev $(up HEAD) verified
	email:alice@wong.dev $(fk HEAD~1) copy
	email:bob@stone.dev $(up HEAD~1) trivial
	email:carol@diaz.dev $(up HEAD) coauthor
	email:eve@fork.dev $(fk HEAD~1) committer-only
	email:eve@fork.dev $(fk HEAD) fork-only
	email:releng@up.dev $(up HEAD~3) bulk
	email:up@up.dev $(up HEAD~6) trivial
	github:dependabot[bot] $(up HEAD~2) bot
	github:samsq $(up HEAD~4) verified
	github:samsq github: verified
	handle:bot:claude $(up HEAD) bot
	EOF
	test_cmp expect actual
'

test_expect_success 'the squash merge joins the PR author; GitHub is no one' '
	jq -c "select(.id == \"github:samsq\") | [.emails, .summary.prs,
	    .summary.commits, .summary.lines]" cands.ndjson >actual &&
	echo "[[\"sam.sq@gmail.com\"],1,1,4]" >expect &&
	test_cmp expect actual &&
	jq -c "select(.name == \"GitHub\" or
	    (.emails | index(\"noreply@github.com\")))" cands.ndjson >actual &&
	test_cmp /dev/null actual
'

test_expect_success 'the fork owner gets no credit for the upstream copy' '
	jq -c "select(.id == \"email:eve@fork.dev\") | .summary |
	    [.verified, .lines]" cands.ndjson >actual &&
	echo "[0,0]" >expect &&
	test_cmp expect actual
'

test_expect_success 'without --upstream the fork commits are unverified' '
	kh-fetch git --repo=eve/r fork | kh-authorship --evidence |
	    jq -r .authorship.verdict | sort | uniq -c | tr -s " " >actual &&
	printf " 1 trivial\n 2 unverified\n" >expect &&
	test_cmp expect actual
'

test_expect_success 'output is the same whatever the input order' '
	cat pr.ndjson fork.ndjson up.ndjson |
	    kh-authorship --max-files=20 >cands2.ndjson &&
	test_cmp cands.ndjson cands2.ndjson
'
test_done
