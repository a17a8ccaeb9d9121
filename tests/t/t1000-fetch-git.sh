#!/bin/sh
# kh-fetch git on throwaway repositories: the record, identities, PR numbers,
# trailers, renames, binaries, encodings, time zones and the walk options.
. "$(dirname "$0")/../lib.sh"

# commit NAME EMAIL DATE [git commit args]: the message comes on stdin; the
# dates are fixed so the object names are the same on every run.
commit () {
	c_name=$1 c_email=$2 c_date=$3
	shift 3
	GIT_AUTHOR_NAME=$c_name GIT_AUTHOR_EMAIL=$c_email \
	GIT_AUTHOR_DATE=$c_date GIT_COMMITTER_DATE=$c_date \
	GIT_COMMITTER_NAME=Committer GIT_COMMITTER_EMAIL=committer@example.com \
	git commit -q --allow-empty -F - "$@"
}

# Replace each object name of repo $1 that appears on stdin by its subject.
names () {
	git -C "$1" log --all --format='s|%H|<%s>|g' > names.sed &&
	sed -f names.sed
}

latin1_name=$(printf 'Jos\351 Mar\355a')
latin1_path=$(printf 'caf\351.cu')

test_expect_success 'setup: a history with several authors' '
	git -c init.defaultBranch=main init -q work &&
	(
		cd work &&
		printf "one\ntwo\nthree\n" >a.txt &&
		printf "\211PNG\r\n\032\n\000\001\002" >logo.png &&
		git add a.txt logo.png &&
		printf "Initial import\n\nTwo files to start.\n" |
		commit "Alice Smith" alice@example.com 2024-01-01T00:00:00Z &&
		printf "one\n2\nthree\n" >a.txt &&
		git add a.txt &&
		printf "%s\n" "Fix x (#123)" "" "Squashed." "" "* one" "" \
		    "Co-authored-by: Carol <carol@example.com>" \
		    "co-authored-by:  Dan  <dan@users.noreply.github.com>" |
		commit Bob 12345+bobby@users.noreply.github.com \
		    "2024-01-02T10:00:00+0530" &&
		mkdir kernels &&
		git mv a.txt kernels/a.cu &&
		echo four >>kernels/a.cu &&
		git add kernels/a.cu &&
		echo "Move a into kernels" |
		commit Eve eve@example.com 2024-01-03T00:00:00Z &&
		echo "__global__ void k() {}" >"$latin1_path" &&
		git add . &&
		# git commit would convert a Latin-1 name to UTF-8: write the
		# object by hand, as an old or foreign tool would have
		printf "%s\n" "tree $(git write-tree)" "parent $(git rev-parse HEAD)" \
		    "author $latin1_name <jose@example.com> 1704326400 +0000" \
		    "committer Committer <committer@example.com> 1704326400 +0000" \
		    "" "Latin-1 name and path" >../raw &&
		git update-ref HEAD "$(git hash-object -t commit -w ../raw)" &&
		git checkout -q -b feature &&
		echo b >b.txt && git add b.txt &&
		echo "Add b" | commit "Alice Smith" alice@example.com \
		    2024-01-05T00:00:00Z &&
		git checkout -q main &&
		echo c >c.txt && git add c.txt &&
		echo "Add c" | commit Bob bobby@users.noreply.github.com \
		    2024-01-06T00:00:00Z &&
		GIT_AUTHOR_NAME=Carol GIT_AUTHOR_EMAIL=carol@example.com \
		GIT_AUTHOR_DATE=2024-01-07T00:00:00Z \
		GIT_COMMITTER_NAME=Carol GIT_COMMITTER_EMAIL=carol@example.com \
		GIT_COMMITTER_DATE=2024-01-07T00:00:00Z \
		git merge -q --no-ff feature -m "Merge pull request #45 from a/b"
	) &&
	kh-fetch git work >all.ndjson
'

test_expect_success 'one record per commit, newest first' '
	cat >expect <<-\EOF &&
	Merge pull request #45 from a/b
	Add c
	Add b
	Latin-1 name and path
	Move a into kernels
	Fix x (#123)
	Initial import
	EOF
	jq -r .title all.ndjson >actual &&
	test_cmp expect actual
'

test_expect_success 'a squash-merged commit: the whole record' '
	cat >expect <<-\EOF &&
	{"type":"evidence","id":"git:commit:<Fix x (#123)>","kind":"commit","source":"git","person":{"login":"bobby","name":"Bob","email":"12345+bobby@users.noreply.github.com"},"url":null,"at":"2024-01-02T04:30:00Z","repo":null,"upstream":null,"sha":"<Fix x (#123)>","author":{"name":"Bob","email":"12345+bobby@users.noreply.github.com","login":"bobby"},"committer":{"name":"Committer","email":"committer@example.com"},"committed_at":"2024-01-02T04:30:00Z","title":"Fix x (#123)","text":"Squashed.\n\n* one\n\nCo-authored-by: Carol <carol@example.com>\nco-authored-by:  Dan  <dan@users.noreply.github.com>","pr":123,"merge":false,"coauthors":[{"name":"Carol","email":"carol@example.com"},{"name":"Dan","email":"dan@users.noreply.github.com","login":"dan"}],"files":[{"path":"a.txt","added":1,"deleted":1}],"added":1,"deleted":1}
	EOF
	sed -n 6p all.ndjson | names work >actual &&
	test_cmp expect actual
'

test_expect_success 'the merge of a pull request' '
	cat >expect <<-\EOF &&
	{"id":"git:commit:<Merge pull request #45 from a/b>","person":{"name":"Carol","email":"carol@example.com"},"pr":45,"merge":true,"files":[],"added":0,"deleted":0,"coauthors":[]}
	EOF
	head -1 all.ndjson |
	jq -c "{id,person,pr,merge,files,added,deleted,coauthors}" |
	names work >actual &&
	test_cmp expect actual
'

test_expect_success 'a noreply address without the id gives the login too' '
	echo "{\"login\":\"bobby\",\"name\":\"Bob\",\"email\":\"bobby@users.noreply.github.com\"}" >expect &&
	sed -n 2p all.ndjson | jq -c .person >actual &&
	test_cmp expect actual
'

test_expect_success 'a rename is listed under its new path' '
	echo "[{\"path\":\"kernels/a.cu\",\"added\":1,\"deleted\":0}] 1 0" >expect &&
	sed -n 5p all.ndjson | jq -c "[.files, .added, .deleted]" |
	sed "s/^\[\(.*\),\([0-9]*\),\([0-9]*\)\]$/\1 \2 \3/" >actual &&
	test_cmp expect actual
'

test_expect_success 'a binary file has null counts, left out of the totals' '
	echo "[{\"path\":\"a.txt\",\"added\":3,\"deleted\":0},{\"path\":\"logo.png\",\"added\":null,\"deleted\":null}],3,0,\"Two files to start.\"" >expect &&
	tail -1 all.ndjson | jq -c "[.files, .added, .deleted, .text]" |
	sed "s/^\[\(.*\)\]$/\1/" >actual &&
	test_cmp expect actual
'

test_expect_success 'non-UTF-8 names and paths come out as valid UTF-8' '
	sed -n 4p all.ndjson >rec &&
	! grep -q "$(printf "\351")" rec &&
	grep -q "\"name\":\"$(printf "Jos\357\277\275 Mar\357\277\275a")\"" rec &&
	grep -q "\"path\":\"$(printf "caf\357\277\275.cu")\"" rec &&
	jq -e . rec >/dev/null
'

test_expect_success '--since and --until take the committer date, in UTC' '
	printf "%s\n" "Add b" "Latin-1 name and path" >expect &&
	kh-fetch git --since 2024-01-04 --until 2024-01-05T00:00:00Z work |
	jq -r .title >actual &&
	test_cmp expect actual &&
	echo "Fix x (#123)" >expect &&
	kh-fetch git --since=2024-01-02T04:30:00Z --until=@1704169800 work |
	jq -r .title >actual &&
	test_cmp expect actual
'

test_expect_success '--path limits the commits and their files' '
	echo "Move a into kernels kernels/a.cu" >expect &&
	kh-fetch git --path kernels work |
	jq -r "[.title, .files[].path] | join(\" \")" >actual &&
	test_cmp expect actual &&
	printf "%s\n" "Merge pull request #45 from a/b" "Add c" "Add b" >expect &&
	kh-fetch git --path b.txt --path=c.txt work | jq -r .title >actual &&
	test_cmp expect actual
'

test_expect_success '--rev: a branch, a range, several' '
	echo "Add b" >expect &&
	kh-fetch git --rev main~2..feature work | jq -r .title >actual &&
	test_cmp expect actual &&
	printf "%s\n" "Add c" "Add b" "Latin-1 name and path" >expect &&
	kh-fetch git --rev main~1 --rev=feature --rev ^main~3 work |
	jq -r .title >actual &&
	test_cmp expect actual
'

test_expect_success '--no-files keeps the totals' '
	echo "false 1 1" >expect &&
	kh-fetch git --no-files --rev main~1 work | sed -n 4p |
	jq -r "[has(\"files\"), .added, .deleted] | join(\" \")" >actual &&
	test_cmp expect actual
'

test_expect_success '--signals reads the patch and keeps every record whole' '
	kh-fetch git --signals work | jq -c "del(.signals)" >actual &&
	test_cmp all.ndjson actual
'

test_expect_success 'bare and mirror clones give the same records' '
	git clone -q --bare work bare.git &&
	git clone -q --mirror work mirror.git &&
	kh-fetch git bare.git >actual &&
	test_cmp all.ndjson actual &&
	kh-fetch git mirror.git >actual &&
	test_cmp all.ndjson actual
'

test_expect_success 'repo and url come from the origin remote' '
	git clone -q work clone &&
	cat >expect <<-\EOF &&
	https://github.com/Org/Repo.git Org/Repo https://github.com/Org/Repo/commit/
	https://github.com/Org/Repo Org/Repo https://github.com/Org/Repo/commit/
	https://user:secret@github.com/Org/Repo/ Org/Repo https://github.com/Org/Repo/commit/
	git@github.com:Org/Repo.git Org/Repo https://github.com/Org/Repo/commit/
	git@github.com:Org/Repo Org/Repo https://github.com/Org/Repo/commit/
	ssh://git@github.com/Org/Repo.git Org/Repo https://github.com/Org/Repo/commit/
	ssh://git@ssh.github.com:443/Org/Repo.git Org/Repo https://github.com/Org/Repo/commit/
	https://gitlab.com/group/proj.git group/proj null
	git@example.org:group/proj group/proj null
	https://gitlab.com/a/b/c.git null null
	/srv/git/proj.git null null
	file:///srv/git/o/n.git null null
	EOF
	cut -d" " -f1 expect | while read -r url; do
		git -C clone remote set-url origin "$url" &&
		kh-fetch git --no-files clone | head -1 |
		jq -r --arg url "$url" \
		    "[\$url, .repo // \"null\", (.url // \"null\" | sub(\"[0-9a-f]{40}\$\"; \"\"))] | join(\" \")" ||
		return 1
	done >actual &&
	test_cmp expect actual &&
	git -C clone remote set-url origin https://u:secret@github.com/O/R.git &&
	kh-fetch git clone >out 2>&1 &&
	grep -q "\"repo\":\"O/R\"" out &&
	! grep -q secret out
'

test_expect_success '--repo names the repository; another host gives no url' '
	git -C clone remote set-url origin https://gitlab.com/group/proj.git &&
	echo "Org/Repo null" >expect &&
	kh-fetch git --repo Org/Repo clone | head -1 |
	jq -r "[.repo, .url] | map(. // \"null\") | join(\" \")" >actual &&
	test_cmp expect actual &&
	git -C clone remote remove origin &&
	echo "Org/Repo https://github.com/Org/Repo/commit/$(git -C work rev-parse HEAD)" >expect &&
	kh-fetch git --repo Org/Repo clone | head -1 |
	jq -r "[.repo, .url] | join(\" \")" >actual &&
	test_cmp expect actual
'

test_expect_success 'a message longer than 8 KiB is cut at a character' '
	git -c init.defaultBranch=main init -q long &&
	(
		cd long &&
		{
			echo "Long" && echo &&
			i=0 && while [ $i -lt 3000 ]; do
				printf "\303\251\303\251\303\251"; i=$((i + 1))
			done
		} | commit A a@example.com 2024-01-01T00:00:00Z
	) &&
	echo 4096 >expect &&
	kh-fetch git long | jq ".text | length" >actual &&
	test_cmp expect actual &&
	kh-fetch git long | jq -e ".text | test(\"\\\\ufffd\") | not" >/dev/null
'

test_expect_success '-v counts the commits read and written' '
	echo "kh-fetch: 7 in, 7 out, 0 skipped" >expect &&
	kh-fetch git -v work 2>err >/dev/null &&
	test_cmp expect err
'

test_expect_success 'a repository named in the environment is ignored' '
	GIT_DIR=$PWD/long/.git GIT_WORK_TREE=$PWD/long kh-fetch git work >actual &&
	test_cmp all.ndjson actual
'

test_done
