/*
 * gen-gharchive: write a GH-Archive-shaped NDJSON corpus for the
 * kh-fetch events tests and benchmark.
 *
 *   gen-gharchive [-m MB] [-s SEED] [-t PERCENT]
 *
 * About MB megabytes (default 1) of events go to standard output, the
 * same bytes for the same SEED. The mix follows a GH Archive hour of
 * 2023-2024 by event count (PushEvent about half, then Create, Watch,
 * PullRequest, IssueComment, ...) and by size: a PullRequestEvent of the
 * full shape carries the whole pull request with its user and both
 * repositories and runs to 10-20 KB, a PushEvent 1-3 KB. Of the events,
 * about 0.5% close a merged pull request in a target repository (the first
 * lines of share/kh/repos.txt), 0.1% close one unmerged, 0.2% open or
 * label one, and 0.05% repeat an earlier closing event (the crawler does).
 * PERCENT (default 10) of the target pull request events have the shape
 * GH Archive has written since 2025-10-07 (no title, body, user or merged).
 * Decoys keep a prefilter honest: repositories whose names contain a
 * target's (vllm-project/vllm-ascend, alice/vllm), comments that quote
 * "PullRequestEvent" and target names, and events of other types in the
 * target repositories.
 *
 * Plain C and libc only, so the benchmark can build it with cc alone.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *targets[] = {
	"vllm-project/vllm", "sgl-project/sglang", "Dao-AILab/flash-attention",
	"NVIDIA/cutlass", "triton-lang/triton", "flashinfer-ai/flashinfer",
	"deepseek-ai/DeepGEMM", "pytorch/ao",
};
static const char *decoys[] = {
	"vllm-project/vllm-ascend", "alice/vllm", "triton-lang/triton-cpu",
	"NVIDIA/cutlass-examples", "bob/flash-attention", "pytorch/pytorch",
};
static const char *words[] = {
	"kernel", "fix", "the", "a", "cuda", "triton", "tile", "warp", "gemm",
	"attention", "fp8", "for", "in", "add", "support", "bench", "test",
	"faster", "memory", "shared", "register", "tensor", "core", "hopper",
	"blackwell", "mma", "wgmma", "tma", "layout", "refactor", "docs",
	"update", "bump", "version", "readme", "ci", "build", "when", "with",
	"and", "of", "to", "is", "not", "quant", "moe", "decode", "prefill",
	"sm90", "sm100", "\\\"quoted\\\"", "path\\\\to", "caf\xc3\xa9",
	"\xe2\x80\x94",
};
#define NWORDS (sizeof words / sizeof *words)

static uint64_t state;
static unsigned long long written;	/* bytes out so far */

static void
out(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	if (n > 0)
		written += (unsigned)n;
}

static unsigned long long event_id;	/* set from the seed */
static long long seq;		/* seconds into the hour */

static uint64_t
rnd64(void)
{
	state ^= state >> 12;	/* xorshift64* */
	state ^= state << 25;
	state ^= state >> 27;
	return state * 2685821657736338717ULL;
}

static unsigned
rnd(unsigned n)
{
	return (unsigned)(rnd64() >> 33) % n;
}

static void
text(unsigned n, int ascii)
{
	for (unsigned i = 0; i < n; i++) {
		const char *w = words[rnd(NWORDS - (ascii ? 2 : 0))];

		if (i)
			out("%s", rnd(12) == 0 ? "\\n" : " ");
		out("%s", w);
	}
}

static void
sha(void)
{
	out("%016llx%016llx%08x", (unsigned long long)rnd64(),
	    (unsigned long long)rnd64(), (unsigned)rnd64());
}

static void
when(const char *day)
{
	long long s = seq++ % 3600;

	out("\"%sT10:%02lld:%02lldZ\"", day, s / 60, s % 60);
}

static void
user(const char *login, unsigned id)
{
	static const char *urls[] = { "followers", "following{/other_user}",
		"gists{/gist_id}", "starred{/owner}{/repo}", "subscriptions",
		"organizations", "repos", "events{/privacy}", "received_events" };

	out("{\"login\":\"%s\",\"id\":%u,\"node_id\":\"MDQ6VXNlcj%u=\","
	    "\"avatar_url\":\"https://avatars.githubusercontent.com/u/%u?v=4\","
	    "\"gravatar_id\":\"\",\"url\":\"https://api.github.com/users/%s\","
	    "\"html_url\":\"https://github.com/%s\"", login, id, id, id, login,
	    login);
	for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
		char key[64];

		snprintf(key, sizeof key, "%s", urls[i]);
		key[strcspn(key, "{")] = '\0';
		out(",\"%s_url\":\"https://api.github.com/users/%s/%s\"",
		    key, login, urls[i]);
	}
	out(",\"type\":\"%s\",\"site_admin\":false}",
	    rnd(20) ? "User" : "Bot");
}

static void
repo(const char *full, unsigned id, int fork)
{
	static const char *urls[] = { "forks", "keys{/key_id}",
		"collaborators{/collaborator}", "teams", "hooks",
		"issue_events{/number}", "events", "assignees{/user}",
		"branches{/branch}", "tags", "blobs{/sha}", "git_tags{/sha}",
		"git_refs{/sha}", "trees{/sha}", "statuses/{sha}", "languages",
		"stargazers", "contributors", "subscribers", "subscription",
		"commits{/sha}", "git_commits{/sha}", "comments{/number}",
		"issue_comment{/number}", "contents/{+path}",
		"compare/{base}...{head}", "merges", "archive_url", "downloads",
		"issues{/number}", "pulls{/number}", "milestones{/number}",
		"notifications{?since,all,participating}", "labels{/name}",
		"releases{/id}", "deployments" };
	char owner[128];
	const char *name = strchr(full, '/') + 1;

	snprintf(owner, sizeof owner, "%.*s", (int)(name - full - 1), full);
	out("{\"id\":%u,\"node_id\":\"MDEwOlJlcG9zaXRvcnk%u\",\"name\":\"%s\","
	    "\"full_name\":\"%s\",\"private\":false,\"owner\":", id, id, name,
	    full);
	user(owner, id / 7 + 1);
	out(",\"html_url\":\"https://github.com/%s\",\"description\":\"",
	    full);
	text(8 + rnd(10), 1);
	out("\",\"fork\":%s,\"url\":\"https://api.github.com/repos/%s\"",
	    fork ? "true" : "false", full);
	for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
		char key[64];

		snprintf(key, sizeof key, "%s", urls[i]);
		key[strcspn(key, "{/")] = '\0';
		out(",\"%s%s\":\"https://api.github.com/repos/%s/%s\"", key,
		    strstr(key, "_url") ? "" : "_url", full, urls[i]);
	}
	out(",\"created_at\":\"2019-05-01T00:00:00Z\",\"updated_at\":"
	    "\"2024-06-01T00:00:00Z\",\"pushed_at\":\"2024-06-01T09:00:00Z\","
	    "\"git_url\":\"git://github.com/%s.git\",\"ssh_url\":"
	    "\"git@github.com:%s.git\",\"clone_url\":\"https://github.com/%s.git\","
	    "\"svn_url\":\"https://github.com/%s\",\"homepage\":null,"
	    "\"size\":%u,\"stargazers_count\":%u,\"watchers_count\":%u,"
	    "\"language\":\"Python\",\"has_issues\":true,\"has_projects\":true,"
	    "\"has_downloads\":true,\"has_wiki\":false,\"has_pages\":false,"
	    "\"forks_count\":%u,\"mirror_url\":null,\"archived\":false,"
	    "\"disabled\":false,\"open_issues_count\":%u,\"license\":null,"
	    "\"allow_forking\":true,\"is_template\":false,"
	    "\"web_commit_signoff_required\":false,\"topics\":[],"
	    "\"visibility\":\"public\",\"forks\":%u,\"open_issues\":%u,"
	    "\"watchers\":%u,\"default_branch\":\"main\"}", full, full, full,
	    full, rnd(900000), rnd(50000), rnd(50000), rnd(9000), rnd(3000),
	    rnd(9000), rnd(3000), rnd(50000));
}

static void
start(const char *type, const char *login, unsigned uid, const char *full,
    unsigned rid)
{
	out("{\"id\":\"%llu\",\"type\":\"%s\",\"actor\":{\"id\":%u,"
	    "\"login\":\"%s\",\"display_login\":\"%s\",\"gravatar_id\":\"\","
	    "\"url\":\"https://api.github.com/users/%s\",\"avatar_url\":"
	    "\"https://avatars.githubusercontent.com/u/%u?\"},\"repo\":{"
	    "\"id\":%u,\"name\":\"%s\",\"url\":\"https://api.github.com/repos/%s\"}"
	    ",\"payload\":", event_id++, type, uid, login, login, login, uid,
	    rid, full, full);
}

static void
end(const char *day, int org)
{
	out(",\"public\":true,\"created_at\":");
	when(day);
	if (org)
		out(",\"org\":{\"id\":%u,\"login\":\"org%u\",\"gravatar_id\":"
		    "\"\",\"url\":\"https://api.github.com/orgs/org%u\","
		    "\"avatar_url\":\"https://avatars.githubusercontent.com/u/1?\"}",
		    rnd(999999), rnd(999), rnd(999));
	out("}\n");
}

static void
login_of(unsigned id, char *dst, size_t n)
{
	if (id % 5 == 0)
		snprintf(dst, n, "dev-%u", id);
	else
		snprintf(dst, n, "user%u", id);
}

static void
random_repo(char *dst, size_t n)
{
	unsigned k = rnd(40);

	if (k == 0)
		snprintf(dst, n, "%s", decoys[rnd(sizeof decoys / sizeof *decoys)]);
	else
		snprintf(dst, n, "owner%u/project-%u", rnd(200000), rnd(50));
}

/*
 * A PullRequestEvent. trimmed: the post-2025-10-07 shape. action and
 * merged as GitHub sets them.
 */
static void
pull_request(const char *full, const char *action, int merged, int trimmed)
{
	char login[32], actor[32], head[160];
	unsigned uid = 1 + rnd(90000000), aid = 1 + rnd(90000000);
	unsigned rid = 1000 + rnd(800000000), number = 1 + rnd(30000);
	int fork = rnd(4) != 0, closed = strcmp(action, "closed") == 0;
	const char *day = trimmed ? "2025-11-03" : "2024-06-04";

	login_of(uid, login, sizeof login);
	login_of(aid, actor, sizeof actor);
	snprintf(head, sizeof head, "%s/%s", fork ? login : full,
	    strchr(full, '/') + 1);
	if (!fork)
		snprintf(head, sizeof head, "%s", full);
	start("PullRequestEvent", closed ? actor : login, closed ? aid : uid,
	    full, rid);
	out("{\"action\":\"%s\",\"number\":%u,\"pull_request\":{", action,
	    number);
	out("\"url\":\"https://api.github.com/repos/%s/pulls/%u\","
	    "\"id\":%u,\"node_id\":\"PR_kwDOABC%u\",", full, number,
	    rnd(2000000000), number);
	if (trimmed) {
		out("\"number\":%u,\"head\":{\"ref\":\"topic-%u\",\"sha\":\"",
		    number, rnd(99));
		sha();
		out("\",\"repo\":{\"id\":%u,\"url\":\"https://api.github.com/"
		    "repos/%s\",\"name\":\"%s\"}},\"base\":{\"ref\":\"main\","
		    "\"sha\":\"", rid + 1, head, strchr(head, '/') + 1);
		sha();
		out("\",\"repo\":{\"id\":%u,\"url\":\"https://api.github.com/"
		    "repos/%s\",\"name\":\"%s\"}}}}", rid, full,
		    strchr(full, '/') + 1);
		end(day, 1);
		return;
	}
	out("\"html_url\":\"https://github.com/%s/pull/%u\",\"diff_url\":"
	    "\"https://github.com/%s/pull/%u.diff\",\"patch_url\":"
	    "\"https://github.com/%s/pull/%u.patch\",\"issue_url\":"
	    "\"https://api.github.com/repos/%s/issues/%u\",\"number\":%u,"
	    "\"state\":\"%s\",\"locked\":false,\"title\":\"", full, number, full,
	    number, full, number, full, number, number,
	    closed ? "closed" : "open");
	text(3 + rnd(8), 0);
	out("\",\"user\":");
	user(login, uid);
	out(",\"body\":");
	if (rnd(8) == 0) {
		out("null");
	} else {
		out("\"");
		/* now and then longer than the 8 KiB cap (ASCII, so jq's
		 * codepoint slice and the byte cap agree) */
		if (rnd(30) == 0)
			text(1500 + rnd(800), 1);
		else
			text(10 + rnd(200), 0);
		out("\"");
	}
	out(",\"created_at\":\"2024-06-01T08:00:00Z\",\"updated_at\":");
	when(day);
	out(",\"closed_at\":");
	if (closed)
		when(day);
	else
		out("null");
	out(",\"merged_at\":");
	if (merged)
		when(day);
	else
		out("null");
	out(",\"merge_commit_sha\":\"");
	sha();
	out("\",\"assignee\":null,\"assignees\":[],\"requested_reviewers\":[");
	for (unsigned i = 0, n = rnd(3); i < n; i++) {
		char r[32];
		unsigned id = 1 + rnd(90000000);

		login_of(id, r, sizeof r);
		if (i)
			out(",");
		user(r, id);
	}
	out("],\"requested_teams\":[],\"labels\":[");
	for (unsigned i = 0, n = rnd(4); i < n; i++)
		out("%s{\"id\":%u,\"node_id\":\"LA_%u\",\"url\":\"https://api"
		    ".github.com/repos/%s/labels/l%u\",\"name\":\"%s\",\"color\":"
		    "\"ededed\",\"default\":false,\"description\":null}",
		    i ? "," : "", rnd(99999), i, full, i,
		    words[rnd(NWORDS - 2)]);
	out("],\"milestone\":null,\"draft\":false,\"commits_url\":"
	    "\"https://api.github.com/repos/%s/pulls/%u/commits\","
	    "\"review_comments_url\":\"https://api.github.com/repos/%s/pulls/%u/"
	    "comments\",\"statuses_url\":\"https://api.github.com/repos/%s/"
	    "statuses/x\",\"head\":{\"label\":\"%s:topic\",\"ref\":\"topic\","
	    "\"sha\":\"", full, number, full, number, full, login);
	sha();
	out("\",\"user\":");
	user(login, uid);
	out(",\"repo\":");
	if (rnd(50) == 0)
		out("null");		/* the fork was deleted */
	else
		repo(head, rid + 1, fork);
	out("},\"base\":{\"label\":\"main\",\"ref\":\"main\",\"sha\":\"");
	sha();
	out("\",\"user\":");
	user("org", 42);
	out(",\"repo\":");
	repo(full, rid, 0);
	out("},\"author_association\":\"CONTRIBUTOR\",\"auto_merge\":null,"
	    "\"active_lock_reason\":null,\"merged\":%s,\"mergeable\":null,"
	    "\"rebaseable\":null,\"mergeable_state\":\"unknown\",\"merged_by\":",
	    merged ? "true" : "false");
	if (merged)
		user(actor, aid);
	else
		out("null");
	out(",\"comments\":%u,\"review_comments\":%u,"
	    "\"maintainer_can_modify\":false,\"commits\":%u,\"additions\":%u,"
	    "\"deletions\":%u,\"changed_files\":%u}}", rnd(20), rnd(40),
	    1 + rnd(9), rnd(3000), rnd(900), 1 + rnd(40));
	end(day, 1);
}

static void
push(const char *full, const char *login, unsigned uid)
{
	unsigned n = 1 + (rnd(4) ? 0 : rnd(6));

	start("PushEvent", login, uid, full, 1000 + rnd(800000000));
	out("{\"repository_id\":%u,\"push_id\":%u,\"size\":%u,"
	    "\"distinct_size\":%u,\"ref\":\"refs/heads/main\",\"head\":\"",
	    rnd(800000000), rnd(2000000000), n, n);
	sha();
	out("\",\"before\":\"");
	sha();
	out("\",\"commits\":[");
	for (unsigned i = 0; i < n; i++) {
		out("%s{\"sha\":\"", i ? "," : "");
		sha();
		out("\",\"author\":{\"email\":\"%08x@example.com\",\"name\":"
		    "\"%s\"},\"message\":\"", (unsigned)rnd64(), login);
		text(4 + rnd(rnd(5) ? 20 : 120), 0);
		out("\",\"distinct\":true,\"url\":\"https://api.github.com/"
		    "repos/%s/commits/", full);
		sha();
		out("\"}");
	}
	out("]}");
	end("2024-06-04", rnd(3) == 0);
}

static void
comment(const char *full, const char *login, unsigned uid, int quote)
{
	unsigned number = 1 + rnd(30000);

	start("IssueCommentEvent", login, uid, full, 1000 + rnd(800000000));
	out("{\"action\":\"created\",\"issue\":{\"url\":\"https://api.github"
	    ".com/repos/%s/issues/%u\",\"repository_url\":\"https://api.github"
	    ".com/repos/%s\",\"html_url\":\"https://github.com/%s/issues/%u\","
	    "\"id\":%u,\"number\":%u,\"title\":\"", full, number, full, full,
	    number, rnd(2000000000), number);
	text(4 + rnd(8), 0);
	out("\",\"user\":");
	user(login, uid);
	out(",\"labels\":[],\"state\":\"open\",\"locked\":false,"
	    "\"comments\":%u,\"created_at\":\"2024-06-01T08:00:00Z\","
	    "\"author_association\":\"NONE\",\"body\":\"", rnd(30));
	text(20 + rnd(150), 0);
	out("\"},\"comment\":{\"url\":\"https://api.github.com/repos/%s/"
	    "issues/comments/%u\",\"id\":%u,\"user\":", full, rnd(2000000000),
	    rnd(2000000000));
	user(login, uid);
	out(",\"body\":\"");
	if (quote)		/* text that looks like what the prefilter wants */
		out("see {\\\"type\\\":\\\"PullRequestEvent\\\",\\\"repo\\\":"
		    "{\\\"name\\\":\\\"vllm-project/vllm\\\"}} and "
		    "https://github.com/NVIDIA/cutlass/pull/1 ");
	text(5 + rnd(80), 0);
	out("\"}}");
	end("2024-06-04", 0);
}

static void
small(const char *type, const char *full, const char *login, unsigned uid)
{
	start(type, login, uid, full, 1000 + rnd(800000000));
	if (strcmp(type, "CreateEvent") == 0)
		out("{\"ref\":\"topic-%u\",\"ref_type\":\"branch\","
		    "\"master_branch\":\"main\",\"description\":null,"
		    "\"pusher_type\":\"user\"}", rnd(99));
	else if (strcmp(type, "WatchEvent") == 0)
		out("{\"action\":\"started\"}");
	else if (strcmp(type, "DeleteEvent") == 0)
		out("{\"ref\":\"topic-%u\",\"ref_type\":\"branch\","
		    "\"pusher_type\":\"user\"}", rnd(99));
	else {
		out("{\"action\":\"created\",\"review\":{\"id\":%u,\"user\":",
		    rnd(2000000000));
		user(login, uid);
		out(",\"body\":\"");
		text(rnd(40), 0);
		out("\",\"state\":\"commented\"}}");
	}
	end("2024-06-04", rnd(3) == 0);
}

/* Everything that decides the bytes of the next event, to replay one. */
struct snap {
	uint64_t state;
	unsigned long long event_id;
	long long seq;
	const char *repo;
	int trimmed;
};

int
main(int argc, char **argv)
{
	static char buf[1 << 20];
	unsigned long long want = 1ULL << 20, seed = 1;
	unsigned trim = 10;
	struct snap last = { 0, 0, 0, NULL, 0 };
	int c;

	while ((c = getopt(argc, argv, "m:s:t:")) != -1) {
		switch (c) {
		case 'm':
			want = strtoull(optarg, NULL, 10) << 20;
			break;
		case 's':
			seed = strtoull(optarg, NULL, 10);
			break;
		case 't':
			trim = (unsigned)strtoul(optarg, NULL, 10);
			break;
		default:
			fputs("usage: gen-gharchive [-m MB] [-s SEED] "
			    "[-t PERCENT]\n", stderr);
			return 2;
		}
	}
	state = 0x9e3779b97f4a7c15ULL ^ (seed * 0xbf58476d1ce4e5b9ULL);
	if (state == 0)
		state = 1;
	event_id = 26000000000ULL + seed * 100000000ULL;	/* apart per seed */
	setvbuf(stdout, buf, _IOFBF, sizeof buf);
	while (written < want) {
		unsigned k = rnd(10000), uid = 1 + rnd(90000000);
		char login[32], full[160];
		const char *t = targets[rnd(sizeof targets / sizeof *targets)];
		int trimmed = rnd(100) < trim;

		login_of(uid, login, sizeof login);
		random_repo(full, sizeof full);
		if (k < 50) {
			/* Remember how this one was made, to repeat it later. */
			last.state = state;
			last.event_id = event_id;
			last.seq = seq;
			last.repo = t;
			last.trimmed = trimmed;
			pull_request(t, "closed", 1, trimmed);
		} else if (k < 60) {
			pull_request(t, "closed", 0, trimmed);
		} else if (k < 80) {
			pull_request(t, rnd(2) ? "opened" : "labeled", 0,
			    trimmed);
		} else if (k < 85) {
			if (last.state) {	/* the same line again */
				struct snap now = { state, event_id, seq, t, 0 };

				state = last.state;
				event_id = last.event_id;
				seq = last.seq;
				pull_request(last.repo, "closed", 1, last.trimmed);
				state = now.state;
				event_id = now.event_id;
				seq = now.seq;
			}
		} else if (k < 150) {
			comment(t, login, uid, 0);	/* other events there */
		} else if (k < 200) {
			comment(full, login, uid, 1);
		} else if (k < 900) {
			int closed = rnd(3) == 0;

			pull_request(full, closed ? "closed" : "opened",
			    closed && rnd(3) != 0, rnd(100) < trim);
		} else if (k < 1500) {
			comment(full, login, uid, 0);
		} else if (k < 6800) {
			push(rnd(200) ? full : t, login, uid);
		} else if (k < 7900) {
			small("CreateEvent", full, login, uid);
		} else if (k < 8800) {
			small("WatchEvent", full, login, uid);
		} else if (k < 9200) {
			small("DeleteEvent", full, login, uid);
		} else {
			small("PullRequestReviewEvent", full, login, uid);
		}
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
