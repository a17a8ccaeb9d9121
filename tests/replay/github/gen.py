#!/usr/bin/env python3
"""tests/replay/github/gen.py: writes the replay scenario api/ used by the
kh-fetch github tests (python3 gen.py, from this directory; the output is
committed, so the tests never run this).

The objects keep GitHub's field names, nesting and value types as in the
real recordings (a pull-request list item has no merged/merged_by/additions;
the single-PR answer has them; search items are issues with a
pull_request object and a repository_url), trimmed of fields kh ignores.
The headers are those of modern api.github.com answers: ETag (weak),
x-ratelimit-* with resource, x-github-api-version-selected, Link with
/repositories/{id}/ page URLs in varying rel order.
"""
import hashlib
import json
import os
import shutil

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "api")
API = "https://api.github.com"
ROUTES = []
KH_NOW = 1751241600  # 2025-06-30T00:00:00Z: the search tests set KH_NOW to it


def user(login, uid, typ="User"):
    return {"login": login, "id": uid, "node_id": "MDQ6VXNlcj%d" % uid,
            "avatar_url": "https://avatars.githubusercontent.com/u/%d?v=4" % uid,
            "gravatar_id": "", "url": API + "/users/" + login,
            "html_url": "https://github.com/" + login, "type": typ,
            "site_admin": False}


USERS = {
    "alice": user("alice", 5001), "bob": user("bob", 5002),
    "carol": user("carol", 5003), "dave": user("dave", 5004),
    "maint": user("maint", 5010),
    "dependabot[bot]": user("dependabot[bot]", 49699333, "Bot"),
    "acme": user("acme", 9000, "Organization"),
}


def repo(full, rid, fork=False, owner=None):
    o = owner or full.split("/")[0]
    return {"id": rid, "node_id": "R_%d" % rid, "name": full.split("/")[1],
            "full_name": full, "private": False,
            "owner": USERS.get(o, user(o, 7000 + rid % 1000)),
            "html_url": "https://github.com/" + full, "description": None,
            "fork": fork, "url": API + "/repos/" + full,
            "created_at": "2023-01-05T10:00:00Z",
            "updated_at": "2025-05-01T10:00:00Z",
            "pushed_at": "2025-05-01T09:00:00Z",
            "stargazers_count": 0, "watchers_count": 0, "language": "Cuda",
            "forks_count": 0, "open_issues_count": 0, "default_branch": "main"}


BASE = repo("acme/kernels", 4242, owner="acme")
BASE["stargazers_count"] = 1234


def label(name, lid):
    return {"id": lid, "node_id": "LA_%d" % lid,
            "url": API + "/repos/acme/kernels/labels/" + name, "name": name,
            "color": "0e8a16", "default": False, "description": None}


def pr(n, login, title, body, created, closed, merged, head_full,
       labels=(), updated=None, head_fork=True, merged_by="maint",
       adds=10, dels=2, files=1):
    """A list item and the single-PR answer for pull request n."""
    u = USERS[login] if login else None
    head_repo = None
    if head_full:
        head_repo = repo(head_full, 6000 + n, fork=head_fork)
    item = {
        "url": API + "/repos/acme/kernels/pulls/%d" % n,
        "id": 1800000000 + n, "node_id": "PR_kwDO%d" % n,
        "html_url": "https://github.com/acme/kernels/pull/%d" % n,
        "diff_url": "https://github.com/acme/kernels/pull/%d.diff" % n,
        "patch_url": "https://github.com/acme/kernels/pull/%d.patch" % n,
        "issue_url": API + "/repos/acme/kernels/issues/%d" % n,
        "number": n, "state": "closed", "locked": False, "title": title,
        "user": u, "body": body, "created_at": created,
        "updated_at": updated or closed, "closed_at": closed,
        "merged_at": closed if merged else None,
        "merge_commit_sha": hashlib.sha1(b"m%d" % n).hexdigest(),
        "assignee": None, "assignees": [], "requested_reviewers": [],
        "requested_teams": [], "labels": list(labels), "milestone": None,
        "draft": False,
        "head": {"label": "%s:feature-%d" % (head_full.split("/")[0] if head_full else "unknown", n),
                 "ref": "feature-%d" % n,
                 "sha": hashlib.sha1(b"h%d" % n).hexdigest(),
                 "user": u, "repo": head_repo},
        "base": {"label": "acme:main", "ref": "main",
                 "sha": hashlib.sha1(b"b%d" % n).hexdigest(),
                 "user": USERS["acme"], "repo": BASE},
        "author_association": "CONTRIBUTOR", "auto_merge": None,
        "active_lock_reason": None,
    }
    single = dict(item)
    single.update({
        "merged": bool(merged), "mergeable": None, "rebaseable": None,
        "mergeable_state": "unknown",
        "merged_by": USERS[merged_by] if merged else None,
        "comments": 1, "review_comments": 0, "maintainer_can_modify": False,
        "commits": 1, "additions": adds, "deletions": dels,
        "changed_files": files,
    })
    return item, single


def etag(data):
    return 'W/"%s"' % hashlib.sha256(data.encode()).hexdigest()


def write(name, body, status="200 OK", link=None, extra=(), resource="core",
          remaining=4987, tag=True):
    """A response file: status line, headers, blank line, body."""
    if not isinstance(body, str):
        body = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    h = ["HTTP/1.1 " + status, "Server: GitHub.com", "Date: {{DATE}}",
         "Content-Type: application/json; charset=utf-8",
         "Cache-Control: private, max-age=60, s-maxage=60",
         "Vary: Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding, Accept, X-Requested-With"]
    if tag and status.startswith("200"):
        h.append("ETag: " + etag(body))
        h.append("Last-Modified: Thu, 01 May 2025 10:00:00 GMT")
    if link:
        h.append("Link: " + link)
    h += ["x-github-api-version-selected: 2022-11-28",
          "X-RateLimit-Limit: %d" % (30 if resource == "search" else 5000),
          "X-RateLimit-Remaining: %d" % remaining,
          "X-RateLimit-Reset: {{NOW+3600}}",
          "X-RateLimit-Used: %d" % (5000 - remaining if resource == "core" else 1),
          "X-RateLimit-Resource: " + resource]
    h += list(extra)
    h.append("X-GitHub-Request-Id: 0000:%04X:0000:0000:00000000" % (len(ROUTES) + 1))
    with open(os.path.join(OUT, name), "w") as f:
        f.write("\n".join(h) + "\n\n" + body)


def route(target, *files):
    ROUTES.append("%s %s" % (target, " ".join(files)))


def links(*pairs):
    return ", ".join('<%s>; rel="%s"' % (API + u, r) for u, r in pairs)


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)

    long_body = ("Fused the epilogue into the GEMM main loop. " * 180 +
                 "Résumé: ünïcödé ✓ " * 40)
    prs = [
        pr(105, "alice", "Add FP8 grouped GEMM for Hopper",
           "Uses wgmma and TMA.\r\n\r\nBenchmarks in the thread.",
           "2025-02-20T08:00:00Z", "2025-03-01T12:30:00Z", True,
           "alice/kernels", [label("perf", 1), label("cuda", 2)],
           updated="2025-03-02T09:00:00Z", adds=420, dels=37, files=3),
        pr(104, "bob", "Try a split-K variant", None,
           "2025-01-10T08:00:00Z", "2025-01-20T16:00:00Z", False,
           "bob/kernels"),
        pr(103, "dependabot[bot]", "Bump pytest from 8.0.0 to 8.1.0",
           "Bumps pytest.", "2025-02-09T01:00:00Z",
           "2025-02-10T07:45:00Z", True, "acme/kernels", head_fork=False,
           adds=1, dels=1, files=1),
        pr(102, None, "Fix an off-by-one in the softmax tail",
           "From an account since deleted.", "2024-11-01T10:00:00Z",
           "2024-11-03T10:00:00Z", True, None, updated="2024-11-03T10:00:00Z"),
        pr(101, "carol", "Vectorise the layernorm loads", "",
           "2024-10-01T10:00:00Z", "2024-10-05T10:00:00Z", True, None,
           updated="2024-10-05T10:00:00Z"),
        pr(100, "alice", "Tune block sizes for sm_90a", "Small change.",
           "2024-09-01T10:00:00Z", "2024-09-02T10:00:00Z", True,
           "acme/kernels", head_fork=False, updated="2024-09-02T10:00:00Z"),
        pr(99, "dave", "Write up the kernel design", long_body,
           "2024-08-01T10:00:00Z", "2024-08-02T10:00:00Z", True,
           "dave/kernels", updated="2024-08-02T10:00:00Z"),
    ]
    items = {p[0]["number"]: p for p in prs}
    q = "state=closed&sort=created&direction=desc&per_page=100"
    first = "/repos/acme/kernels/pulls?" + q
    page = "/repositories/4242/pulls?" + q + "&page=%d"
    # three pages, rels in odd orders, never a rel="last"
    write("pulls-p1.http", [items[n][0] for n in (105, 104, 103)],
          link=links((page % 2, "next")))
    write("pulls-p2.http", [items[n][0] for n in (102, 101)],
          link=links((page % 1, "first"), (page % 3, "next"), (page % 1, "prev")))
    write("pulls-p3.http", [items[n][0] for n in (100, 99)],
          link=links((page % 2, "prev"), (page % 1, "first")))
    route(first, "pulls-p1.http")
    route(page % 2, "pulls-p2.http")
    route(page % 3, "pulls-p3.http")
    # the repository renamed: old/kernels answers 301 to /repositories/4242
    write("redirect-301.http", {
        "message": "Moved Permanently", "url": API + "/repositories/4242/pulls?" + q,
        "documentation_url": "https://docs.github.com/v3/#http-redirects"},
        status="301 Moved Permanently",
        extra=["Location: " + API + "/repositories/4242/pulls?" + q], tag=False)
    route("/repos/old/kernels/pulls?" + q, "redirect-301.http")
    route("/repositories/4242/pulls?" + q, "pulls-p1.http")

    # --since: by update time, newest first; page 2 is all older, page 3
    # must never be asked for
    qs = "state=closed&sort=updated&direction=desc&per_page=100"
    pageu = "/repositories/4242/pulls?" + qs + "&page=%d"
    write("pulls-updated-p1.http", [items[n][0] for n in (105, 103, 104)],
          link=links((pageu % 2, "next"), (pageu % 3, "last")))
    write("pulls-updated-p2.http", [items[n][0] for n in (102, 101)],
          link=links((pageu % 3, "next"), (pageu % 3, "last"), (pageu % 1, "prev")))
    write("pulls-updated-p3.http", [items[n][0] for n in (100, 99)],
          link=links((pageu % 2, "prev")))
    route("/repos/acme/kernels/pulls?" + qs, "pulls-updated-p1.http")
    route(pageu % 2, "pulls-updated-p2.http")
    route(pageu % 3, "pulls-updated-p3.http")

    # a listing whose page 2 names itself as the next page
    loop2 = "/repositories/4545/pulls?" + q + "&page=2"
    write("loop-p1.http", [items[105][0]], link=links((loop2, "next")))
    write("loop-p2.http", [items[103][0]], link=links((loop2, "next"), (page % 1, "first")))
    route("/repos/acme/loop/pulls?" + q, "loop-p1.http")
    route(loop2, "loop-p2.http")

    # single PRs and their files
    for n, (item, single) in items.items():
        write("pull-%d.http" % n, single)
        route("/repos/acme/kernels/pulls/%d" % n, "pull-%d.http" % n)
        fl = []
        for i in range(single["changed_files"]):
            fl.append({
                "sha": hashlib.sha1(b"f%d-%d" % (n, i)).hexdigest(),
                "filename": "csrc/gemm/kernel_%d_%d.cu" % (n, i),
                "status": "modified", "additions": single["additions"] // single["changed_files"] + (single["additions"] % single["changed_files"] if i == 0 else 0),
                "deletions": single["deletions"] if i == 0 else 0,
                "changes": 0,
                "blob_url": "https://github.com/acme/kernels/blob/x/f",
                "raw_url": "https://github.com/acme/kernels/raw/x/f",
                "contents_url": API + "/repos/acme/kernels/contents/f?ref=x",
                "patch": "@@ -1,2 +1,3 @@\n // wgmma in a comment\n+  asm volatile(\"wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16\");\n+  int x = 1;"})
        for f in fl:
            f["changes"] = f["additions"] + f["deletions"]
        fq = "/repos/acme/kernels/pulls/%d/files?per_page=100" % n
        if n == 105:  # two pages of files
            nxt = "/repositories/4242/pulls/105/files?per_page=100&page=2"
            write("files-105-p1.http", fl[:2], link=links((nxt, "next"), (nxt, "last")))
            write("files-105-p2.http", fl[2:], link=links(
                ("/repositories/4242/pulls/105/files?per_page=100&page=1", "prev"),
                ("/repositories/4242/pulls/105/files?per_page=100&page=1", "first")))
            route(fq, "files-105-p1.http")
            route(nxt, "files-105-p2.http")
        else:
            write("files-%d.http" % n, fl)
            route(fq, "files-%d.http" % n)

    # a PR with GitHub's 3,000-file cap: 30 pages of 100
    big_item, big = pr(7, "alice", "Regenerate every kernel", "Generated.",
                       "2025-04-01T00:00:00Z", "2025-04-02T00:00:00Z", True,
                       "alice/kernels", adds=5000, dels=0, files=3400)
    for k in ("url", "html_url", "issue_url"):
        big[k] = big[k].replace("acme/kernels", "acme/huge")
        big_item[k] = big_item[k].replace("acme/kernels", "acme/huge")
    hb = repo("acme/huge", 4343, owner="acme")
    big["base"] = dict(big["base"], repo=hb)
    big_item["base"] = dict(big_item["base"], repo=hb)
    write("huge-pulls.http", [big_item])
    route("/repos/acme/huge/pulls?" + q, "huge-pulls.http")
    write("huge-pull-7.http", big)
    route("/repos/acme/huge/pulls/7", "huge-pull-7.http")
    for p in range(1, 31):
        fl = [{"sha": "%040x" % (p * 1000 + i), "filename": "gen/k%04d.cu" % ((p - 1) * 100 + i),
               "status": "added", "additions": 1, "deletions": 0, "changes": 1}
              for i in range(100)]
        tgt = "/repos/acme/huge/pulls/7/files?per_page=100" if p == 1 else \
            "/repositories/4343/pulls/7/files?per_page=100&page=%d" % p
        ln = None
        if p < 30:
            ln = links(("/repositories/4343/pulls/7/files?per_page=100&page=%d" % (p + 1), "next"),
                       ("/repositories/4343/pulls/7/files?per_page=100&page=30", "last"))
        write("huge-files-p%d.http" % p, fl, link=ln)
        route(tgt, "huge-files-p%d.http" % p)

    # a big listing with rel="last": pages 2..6 are fetched in parallel
    pagew = "/repositories/4444/pulls?" + q + "&page=%d"
    for p in range(1, 7):
        its = []
        for i in range(5):
            n = 1000 - (p - 1) * 5 - i
            it, _ = pr(n, ["alice", "bob", "carol"][n % 3], "Change %d" % n,
                       "Body %d." % n, "2025-01-01T00:00:00Z",
                       "2025-01-%02dT00:00:00Z" % (1 + n % 28), n % 4 != 0,
                       "x/wide", head_fork=True)
            for k in ("url", "html_url", "issue_url"):
                it[k] = it[k].replace("acme/kernels", "acme/wide")
            it["base"] = dict(it["base"], repo=repo("acme/wide", 4444, owner="acme"))
            its.append(it)
        ln = [(pagew % 1, "first")] if p > 1 else []
        if p < 6:
            ln = [(pagew % (p + 1), "next"), (pagew % 6, "last")] + ln
        write("wide-p%d.http" % p, its, link=links(*ln))
        route("/repos/acme/wide/pulls?" + q if p == 1 else pagew % p, "wide-p%d.http" % p)

    # users
    prof = dict(USERS["alice"])
    prof.update({"name": "Alice Liddell", "company": "@acme", "blog": "",
                 "location": "Zürich", "email": "alice@example.org",
                 "hireable": True, "bio": "CUDA kernels, mostly GEMM.",
                 "twitter_username": None, "public_repos": 3,
                 "public_gists": 0, "followers": 321, "following": 4,
                 "created_at": "2015-04-01T12:00:00Z",
                 "updated_at": "2025-05-20T08:00:00Z"})
    write("user-alice.http", prof)
    route("/users/alice", "user-alice.http")
    prof = dict(USERS["bob"])
    prof.update({"name": None, "company": None, "blog": "https://bob.example",
                 "location": None, "email": None, "hireable": None,
                 "bio": None, "twitter_username": "bobk", "public_repos": 0,
                 "public_gists": 0, "followers": 0, "following": 0,
                 "created_at": "2020-01-01T00:00:00Z",
                 "updated_at": "2024-01-01T00:00:00Z"})
    write("user-bob.http", prof)
    route("/users/bob", "user-bob.http")
    write("user-404.http", {"message": "Not Found",
                            "documentation_url": "https://docs.github.com/rest/users/users#get-a-user",
                            "status": "404"}, status="404 Not Found")
    route("/users/nobody", "user-404.http")

    # the failure modes, one login each (ok: what a retry finally gets)
    carol = dict(prof, login="carol", id=5003, html_url="https://github.com/carol")
    write("user-ok.http", carol)
    route("/users/carol", "user-ok.http")
    dave = dict(carol, login="dave", id=5004, html_url="https://github.com/dave",
                name="Dave", blog="", twitter_username=None)
    write("user-dave.http", dave)
    route("/users/dave", "user-dave.http")
    write("primary-403.http", {"message": "API rate limit exceeded for user ID 5001.",
                               "documentation_url": "https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"},
          status="403 Forbidden", remaining=0, extra=[], tag=False)
    with open(os.path.join(OUT, "primary-403.http")) as f:
        s = f.read().replace("X-RateLimit-Reset: {{NOW+3600}}", "X-RateLimit-Reset: {{NOW+2}}")
    with open(os.path.join(OUT, "primary-403.http"), "w") as f:
        f.write(s)
    route("/users/ratelimited", "primary-403.http", "user-ok.http")
    # a 200 that used the window's last request
    with open(os.path.join(OUT, "user-dave.http")) as f:
        s = f.read().replace("X-RateLimit-Remaining: 4987", "X-RateLimit-Remaining: 0")
    with open(os.path.join(OUT, "lastcall.http"), "w") as f:
        f.write(s.replace("X-RateLimit-Reset: {{NOW+3600}}", "X-RateLimit-Reset: {{NOW+2}}"))
    route("/users/lastcall", "lastcall.http")
    write("secondary-403.http", {"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID 0000:0000.",
                                 "documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
                                 "status": "403"},
          status="403 Forbidden", extra=["Retry-After: 1"], tag=False)
    route("/users/secondary", "secondary-403.http", "user-ok.http")
    write("secondary-noretry.http", {"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
                                     "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
                                     "status": "403"}, status="403 Forbidden", tag=False)
    route("/users/secondary2", "secondary-noretry.http", "user-ok.http")
    write("429.http", {"message": "You have exceeded a secondary rate limit.",
                       "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
                       "status": "429"}, status="429 Too Many Requests",
          extra=["Retry-After: 1"], tag=False)
    route("/users/toomany", "429.http", "user-ok.http")
    write("502.http", '{\n  "message": "Server Error"\n}\n', status="502 Bad Gateway", tag=False)
    route("/users/flaky", "502.http", "user-ok.http")
    route("/users/down", "502.http")
    with open(os.path.join(OUT, "user-ok.http")) as f:
        ok = f.read()
    head, body = ok.split("\n\n", 1)
    with open(os.path.join(OUT, "stall.http"), "w") as f:
        f.write(head + "\nX-Replay-Stall: 3\n\n" + body)
    route("/users/stall", "stall.http")
    with open(os.path.join(OUT, "truncated.http"), "w") as f:
        f.write(head + "\nX-Replay-Truncate: 40\n\n" + body)
    route("/users/truncated", "truncated.http", "user-ok.http")
    with open(os.path.join(OUT, "garbled.http"), "w") as f:
        f.write(head.replace("ETag:", "X-Old-ETag:") + "\n\n" + body[:-20] + ",,}")
    route("/users/garbled", "garbled.http", "user-ok.http")
    route("/users/forbidden", "403-plain.http")
    write("403-plain.http", {"message": "Resource not accessible by integration",
                             "documentation_url": "https://docs.github.com/rest",
                             "status": "403"}, status="403 Forbidden", tag=False)

    # a user's repositories: two pages, forks need their parent
    r1 = repo("alice/kernels", 6105, fork=True)
    r2 = repo("alice/notes", 6200)
    r2["stargazers_count"] = 7
    r3 = repo("alice/triton", 6300, fork=True)
    nxt = "/user/5001/repos?type=owner&sort=full_name&per_page=100&page=2"
    write("repos-alice-p1.http", [r1, r2], link=links((nxt, "next"), (nxt, "last")))
    write("repos-alice-p2.http", [r3], link=links(
        ("/user/5001/repos?type=owner&sort=full_name&per_page=100&page=1", "first"),
        ("/user/5001/repos?type=owner&sort=full_name&per_page=100&page=1", "prev")))
    route("/users/alice/repos?type=owner&sort=full_name&per_page=100", "repos-alice-p1.http")
    route(nxt, "repos-alice-p2.http")
    for r, parent in ((r1, "acme/kernels"), (r3, "triton-lang/triton")):
        full = dict(r)
        prepo = repo(parent, 4242 if parent == "acme/kernels" else 4800)
        full.update({"parent": prepo, "source": prepo, "network_count": 10,
                     "subscribers_count": 1})
        write("repo-%s.http" % r["name"], full)
        route("/repos/" + r["full_name"], "repo-%s.http" % r["name"])
    write("repo-acme-kernels.http", dict(BASE, network_count=10, subscribers_count=40))
    route("/repos/acme/kernels", "repo-acme-kernels.http")
    write("repos-bob.http", [])
    route("/users/bob/repos?type=owner&sort=full_name&per_page=100", "repos-bob.http")

    # commits (claims)
    for full, sha, login in (("acme/kernels", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678", "alice"),
                             ("alice/kernels", "0f0e0d0c0b0a09080706050403020100f0e0d0c0", "alice")):
        c = {"sha": sha, "node_id": "C_" + sha[:8],
             "commit": {"author": {"name": "Alice Liddell", "email": "alice@example.org",
                                   "date": "2025-03-01T12:00:00Z"},
                        "committer": {"name": "GitHub", "email": "noreply@github.com",
                                      "date": "2025-03-01T12:30:00Z"},
                        "message": "Add FP8 grouped GEMM for Hopper (#105)\n\nUses wgmma.\n\nCo-authored-by: Bob <bob@example.org>",
                        "tree": {"sha": "1" * 40, "url": API + "/repos/%s/git/trees/%s" % (full, "1" * 40)},
                        "url": API + "/repos/%s/git/commits/%s" % (full, sha),
                        "comment_count": 0,
                        "verification": {"verified": True, "reason": "valid", "signature": None, "payload": None}},
             "url": API + "/repos/%s/commits/%s" % (full, sha),
             "html_url": "https://github.com/%s/commit/%s" % (full, sha),
             "author": USERS[login], "committer": {"login": "web-flow", "id": 19864447, "type": "User"},
             "parents": [{"sha": "2" * 40, "url": "", "html_url": ""}],
             "stats": {"total": 457, "additions": 420, "deletions": 37},
             "files": [{"sha": "3" * 40, "filename": "csrc/gemm/grouped.cu", "status": "added",
                        "additions": 400, "deletions": 0, "changes": 400},
                       {"sha": "4" * 40, "filename": "csrc/gemm/dispatch.h", "status": "modified",
                        "additions": 20, "deletions": 37, "changes": 57}]}
        write("commit-%s.http" % sha[:7], c)
        route("/repos/%s/commits/%s" % (full, sha), "commit-%s.http" % sha[:7])

    # search
    def sitem(n, login, repo_full, merged_at):
        it = {"url": API + "/repos/%s/issues/%d" % (repo_full, n),
              "repository_url": API + "/repos/" + repo_full,
              "html_url": "https://github.com/%s/pull/%d" % (repo_full, n),
              "id": 2100000000 + n, "node_id": "PR_s%d" % n, "number": n,
              "title": "Search hit %d" % n, "user": USERS.get(login, user(login, 8000)),
              "labels": [], "state": "closed", "locked": False,
              "assignee": None, "assignees": [], "milestone": None,
              "comments": 0, "created_at": "2025-01-01T00:00:00Z",
              "updated_at": merged_at, "closed_at": merged_at,
              "author_association": "CONTRIBUTOR", "draft": False,
              "pull_request": {"url": API + "/repos/%s/pulls/%d" % (repo_full, n),
                               "html_url": "https://github.com/%s/pull/%d" % (repo_full, n),
                               "diff_url": "", "patch_url": "", "merged_at": merged_at},
              "body": "Found by search.", "reactions": {"total_count": 0},
              "performed_via_github_app": None, "state_reason": None, "score": 1.0}
        return it

    def squery(qs):
        import urllib.parse
        return "/search/issues?q=%s&per_page=100" % urllib.parse.quote(qs, safe="-._~")

    repos_q = "repo:acme/kernels repo:acme/compiler"
    write("search-alice.http", {"total_count": 2, "incomplete_results": False,
                                "items": [sitem(105, "alice", "acme/kernels", "2025-03-01T12:30:00Z"),
                                          sitem(17, "alice", "acme/compiler", "2025-02-01T00:00:00Z")]},
          resource="search", remaining=29)
    route(squery("is:pr is:merged author:alice " + repos_q), "search-alice.http")
    write("search-slow.http", {"total_count": 1, "incomplete_results": True,
                               "items": [sitem(18, "slowdev", "acme/compiler", "2025-01-15T00:00:00Z")]},
          resource="search", remaining=28)
    route(squery("is:pr is:merged author:slowdev " + repos_q), "search-slow.http")
    write("search-422.http", {"message": "Validation Failed", "errors": [{
        "message": "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
        "resource": "Search", "field": "q", "code": "invalid"}],
        "documentation_url": "https://docs.github.com/v3/search/", "status": "422"},
        status="422 Unprocessable Entity", resource="search", tag=False)
    route(squery("is:pr is:merged author:hidden " + repos_q), "search-422.http")
    # 1,500 results: split into two date ranges that fit
    lo, hi = 13879, KH_NOW // 86400
    mid = lo + (hi - lo) // 2
    import datetime
    d = lambda n: (datetime.date(1970, 1, 1) + datetime.timedelta(days=n)).isoformat()
    write("search-big.http", {"total_count": 1500, "incomplete_results": False,
                              "items": [sitem(30, "bigdev", "acme/kernels", "2025-01-01T00:00:00Z")]},
          resource="search")
    route(squery("is:pr is:merged author:bigdev " + repos_q), "search-big.http")
    write("search-big-a.http", {"total_count": 600, "incomplete_results": False,
                                "items": [sitem(20, "bigdev", "acme/kernels", "2019-01-01T00:00:00Z")]},
          resource="search")
    route(squery("is:pr is:merged author:bigdev merged:%s..%s %s" % (d(lo), d(mid), repos_q)), "search-big-a.http")
    write("search-big-b.http", {"total_count": 900, "incomplete_results": False,
                                "items": [sitem(30, "bigdev", "acme/kernels", "2025-01-01T00:00:00Z"),
                                          sitem(31, "bigdev", "acme/compiler", "2025-02-01T00:00:00Z")]},
          resource="search")
    route(squery("is:pr is:merged author:bigdev merged:%s..%s %s" % (d(mid + 1), d(hi), repos_q)), "search-big-b.http")
    # exactly 1,000: ten pages, each naming a next; page 11 would be a 422
    base_q = squery("is:pr is:merged author:prolific " + repos_q)
    for p in range(1, 11):
        nxt = base_q + "&page=%d" % (p + 1)
        write("search-1000-p%d.http" % p, {"total_count": 1000, "incomplete_results": False,
                                          "items": [sitem(500 + p, "prolific", "acme/kernels", "2025-01-%02dT00:00:00Z" % p)]},
              resource="search", link=links((nxt, "next"), (base_q + "&page=34", "last")))
        route(base_q if p == 1 else base_q + "&page=%d" % p, "search-1000-p%d.http" % p)
    write("search-past-1000.http", {"message": "Only the first 1000 search results are available",
                                    "documentation_url": "https://docs.github.com/v3/search/",
                                    "status": "422"}, status="422 Unprocessable Entity",
          resource="search", tag=False)
    route(base_q + "&page=11", "search-past-1000.http")

    with open(os.path.join(OUT, "routes"), "w") as f:
        f.write("# written by ../gen.py: the kh-fetch github test scenario\n")
        f.write("\n".join(ROUTES) + "\n")


if __name__ == "__main__":
    main()
