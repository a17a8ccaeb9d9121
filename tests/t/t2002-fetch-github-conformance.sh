#!/bin/sh
# kh-fetch github over real GitHub answers: the recordings of public API
# clients' test suites in ../shared/fixtures/github (beside the project),
# served as they were recorded. Skipped when that folder is not there: the
# project's own fixtures (t2000, t2001) do not depend on it.
. "$(dirname "$0")/../lib.sh"
. "$KH_TOP/tests/replay/replay.sh"

F=$KH_TOP/../shared/fixtures/github
if [ ! -f "$F/INDEX.tsv" ]; then
	echo "# skipped: no ../shared/fixtures/github beside the project"
	test_done
	exit 0
fi
export KH_RETRY_WAIT_MS=10 KH_SECONDARY_WAIT=1

# NAME.headers + NAME.json as one response file
mkdir conf
http () {
	{ cat "$F/$1.headers"; echo; cat "$F/$1.json"; } >"conf/$1.http"
}
for n in user_get__jacquev6_2025 user_get__yurinnick_2023 \
	pull_get__PyGithub_31_merged_headrepo_null_2023 \
	pull_get__PyGithub_3370_merged_bot_2026 \
	pull_get__github3py_119_closed_unmerged_2021 \
	pull_get__github3py_235_merged_headrepo_null_2021 \
	pull_get__github3py_546_merged_from_fork_2021 \
	pulls_list_closed__ome-documentation_2013 user_repos__jacquev6_2020 \
	error_500__server_error_2018 error_502__bad_gateway_2018 \
	error_403__primary_ratelimit_unauth_2013 \
	error_403__secondary_abuse_retry_after_2018 error_404__user_missing_2012
do
	http $n
done
# the recorded Retry-After is 60 s: the same answer asking for 1 s
sed 's/^Retry-After: 60/Retry-After: 1/' \
	conf/error_403__secondary_abuse_retry_after_2018.http >conf/abuse.http
printf 'HTTP/1.1 200 OK\nContent-Type: application/json\n\n[]' >conf/empty.http
P=/repos/PyGithub/PyGithub/pulls G=/repos/sigmavirus24/github3.py/pulls
cat >conf/routes <<EOF
/users/jacquev6 user_get__jacquev6_2025.http
/users/yurinnick user_get__yurinnick_2023.http
/users/after500 error_500__server_error_2018.http user_get__yurinnick_2023.http
/users/after502 error_502__bad_gateway_2018.http user_get__jacquev6_2025.http
/users/afterlimit error_403__primary_ratelimit_unauth_2013.http user_get__yurinnick_2023.http
/users/afterabuse abuse.http user_get__jacquev6_2025.http
/users/missing error_404__user_missing_2012.http
$P/31 pull_get__PyGithub_31_merged_headrepo_null_2023.http
$P/3370 pull_get__PyGithub_3370_merged_bot_2026.http
$G/119 pull_get__github3py_119_closed_unmerged_2021.http
$G/235 pull_get__github3py_235_merged_headrepo_null_2021.http
$G/546 pull_get__github3py_546_merged_from_fork_2021.http
/repos/openmicroscopy/ome-documentation/pulls?state=closed&sort=created&direction=desc&per_page=100 pulls_list_closed__ome-documentation_2013.http
/users/jacquev6/repos?type=owner&sort=full_name&per_page=100 user_repos__jacquev6_2020.http
EOF
# the list's later pages (Link: page=2 .. page=8) are not recorded
for p in 2 3 4 5 6 7 8; do
	echo "/repos/openmicroscopy/ome-documentation/pulls?page=$p&state=closed empty.http" >>conf/routes
done
replay_start conf || exit 1

gh () {
	kh-fetch github --api-url "$REPLAY_URL" --no-cache "$@"
}

test_expect_success 'profiles from real /users answers' '
	gh user jacquev6 yurinnick >out &&
	for n in user_get__jacquev6_2025 user_get__yurinnick_2023; do
		jq -c "[\"github:profile:\" + .login, (.id|tostring), .name,
			.company, .location, (if .blog == \"\" then null else .blog end),
			.hireable, .email, .followers, .public_repos,
			.twitter_username]" "$F/$n.json"
	done >expect &&
	jq -c "[.id, .person.user_id, .profile.name, .profile.company,
		.profile.location, .profile.blog, .profile.hireable,
		.profile.email, .profile.followers, .profile.public_repos,
		.profile.twitter]" out >got &&
	test_cmp expect got
'

test_expect_success 'single PRs: merged, merged_by, bot, deleted fork, fork' '
	gh claims https://github.com/PyGithub/PyGithub/pull/31 \
		https://github.com/PyGithub/PyGithub/pull/3370 \
		https://github.com/sigmavirus24/github3.py/pull/119 \
		https://github.com/sigmavirus24/github3.py/pull/235 \
		https://github.com/sigmavirus24/github3.py/pull/546 >out &&
	for n in pull_get__PyGithub_31_merged_headrepo_null_2023 \
		pull_get__PyGithub_3370_merged_bot_2026 \
		pull_get__github3py_119_closed_unmerged_2021 \
		pull_get__github3py_235_merged_headrepo_null_2021 \
		pull_get__github3py_546_merged_from_fork_2021; do
		jq -c "[.number, .user.login, .user.type, .merged,
			.merged_by.login, .base.repo.full_name,
			.head.repo.full_name,
			(if .head.repo == null then null
			 else .head.repo.full_name != .base.repo.full_name end),
			(.base.repo.fork | not), .html_url]" "$F/$n.json"
	done >expect &&
	jq -c "[.number, .person.login, .author_type, .merged, .merged_by,
		.base_repo, .head_repo, .from_fork, .upstream, .url]" out >got &&
	test_cmp expect got
'

test_expect_success 'a real closed-PR list page: the merged ones, in order' '
	gh prs --all openmicroscopy/ome-documentation >all &&
	gh prs openmicroscopy/ome-documentation >merged &&
	F=$F/pulls_list_closed__ome-documentation_2013.json &&
	jq -c ".[] | [.number, (.merged_at != null), .user.login]" "$F" >expect &&
	jq -c "[.number, .merged, .person.login]" all >got &&
	test_cmp expect got &&
	jq -c ".[] | select(.merged_at != null) | .number" "$F" >expect &&
	jq -c .number merged >got &&
	test_cmp expect got
'

test_expect_success 'a real repository list' '
	gh repos jacquev6 >out &&
	jq -c ".[] | [.full_name, .fork, .stargazers_count]" \
		"$F/user_repos__jacquev6_2020.json" >expect &&
	jq -c "[.repo, .fork, .stars]" out >got &&
	test_cmp expect got
'

test_expect_success 'real 500 and 502 answers are retried' '
	gh user after500 after502 >out 2>err &&
	test_cmp /dev/null err &&
	jq -r .id out >got &&
	printf "%s\n" github:profile:yurinnick github:profile:jacquev6 >expect &&
	test_cmp expect got
'

test_expect_success 'a real primary limit without reset, a real abuse 403' '
	gh -p 1 user afterlimit afterabuse >out 2>err &&
	jq -r .id out >got &&
	printf "%s\n" github:profile:yurinnick github:profile:jacquev6 >expect &&
	test_cmp expect got &&
	cat >expect <<-\EOF &&
	kh-fetch: rate limit reached for '\''core'\'': waiting 1 s
	kh-fetch: secondary rate limit for '\''core'\'': waiting 1 s
	EOF
	test_cmp expect err
'

test_expect_success 'a real 404' '
	test_must_fail --rc=5 gh user missing 2>err &&
	sed "s/127.0.0.1:$REPLAY_PORT/PORT/" err >got &&
	echo "kh-fetch: cannot fetch '\''http://PORT/users/missing'\'': HTTP 404: Not Found" >expect &&
	test_cmp expect got
'

test_done
