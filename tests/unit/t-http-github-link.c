/* t-http-github-link.c: kh_http_link over Link headers as GitHub sends them */
#include <stdlib.h>

#include "kh.h"
#include "tap.h"

static void
check(const char *link, const char *rel, const char *want, const char *name)
{
	char *got = kh_http_link(link, rel);

	is_str(got, want, name);
	free(got);
}

int
main(void)
{
	/* the order of the docs: prev, next, last, first */
	const char *docs = "<https://api.github.com/repositories/1/issues?page=1>; "
	    "rel=\"prev\", <https://api.github.com/repositories/1/issues?page=3>; "
	    "rel=\"next\", <https://api.github.com/repositories/1/issues?page=5>; "
	    "rel=\"last\", <https://api.github.com/repositories/1/issues?page=1>; "
	    "rel=\"first\"";
	/* contributors p2: first before prev, no next, no last */
	const char *odd = "<https://api.github.com/repositories/2/contributors?page=1>; "
	    "rel=\"first\", <https://api.github.com/repositories/2/contributors?page=1>; "
	    "rel=\"prev\"";
	/* 2013 commits: a cursor, no last */
	const char *cursor = "<https://api.github.com/repos/a/b/commits?per_page=5&"
	    "author=x&top=master&last_sha=748793b>; rel=\"next\", "
	    "<https://api.github.com/repos/a/b/commits?per_page=5&author=x&sha=master>; "
	    "rel=\"first\"";
	/* a comma inside the URL, odd spacing, an unquoted and a listed rel */
	const char *comma = "<https://h/search?q=label:a,b&page=2>;rel=next ,"
	    "  <https://h/search?q=label:a,b&page=9>; rel=\"last first\"";

	check(docs, "next", "https://api.github.com/repositories/1/issues?page=3",
	    "docs order: next");
	check(docs, "last", "https://api.github.com/repositories/1/issues?page=5",
	    "docs order: last");
	check(docs, "first", "https://api.github.com/repositories/1/issues?page=1",
	    "docs order: first");
	check(odd, "next", NULL, "no next on the last page");
	check(odd, "last", NULL, "no last");
	check(odd, "prev", "https://api.github.com/repositories/2/contributors?page=1",
	    "prev after first");
	check(cursor, "next", "https://api.github.com/repos/a/b/commits?per_page=5&"
	    "author=x&top=master&last_sha=748793b", "a cursor URL");
	check(comma, "next", "https://h/search?q=label:a,b&page=2",
	    "a comma in the URL, rel unquoted");
	check(comma, "first", "https://h/search?q=label:a,b&page=9",
	    "one of several rel values");
	check(comma, "las", NULL, "a prefix of a rel is not the rel");
	check("", "next", NULL, "empty header");
	check("<https://h/x>", "next", NULL, "no rel at all");
	check("garbage, <no close", "next", NULL, "an unclosed <");
	return done_testing();
}
