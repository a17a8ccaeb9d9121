/* t-ident: identity normalisation (common/ident.c) */
#include <stdlib.h>

#include "kh.h"
#include "tap.h"

static void
check_str(char *got, const char *want, const char *name)
{
	is_str(got, want, name);
	free(got);
}

int
main(void)
{
	static const struct { const char *in, *want; } emails[] = {
		{ "Alice@Example.ORG", "alice@example.org" },
		{ " <bob@nvidia.com> ", "bob@nvidia.com" },
		{ "no-at-sign", NULL },
		{ "@nouser.com", NULL },
		{ "nodomain@", NULL },
		{ "two@at@signs.com", NULL },
		{ "with space@x.com", NULL },
		{ NULL, NULL },
	};
	static const struct { const char *in; int generic; } gen[] = {
		{ "root@localhost", 1 },
		{ "ubuntu@ip-10-0-0-1.ec2.internal", 1 },
		{ "noreply@github.com", 1 },
		{ "alice@alice-laptop.local", 1 },
		{ "alice@mybox", 1 },
		{ "you@example.com", 1 },
		{ "root@nvidia.com", 1 },
		{ "alice@nvidia.com", 0 },
		{ "noreply@anthropic.com", 1 },
		{ "123+alice@users.noreply.github.com", 0 },
	};
	static const struct { const char *in, *want; } names[] = {
		{ "  Tri   Dao ", "tri dao" },
		{ "ROOT", "root" },
		{ "Zoë\tX", "zo\xc3\xab x" },
		{ "   ", NULL },
	};
	static const struct { const char *in; int specific; } spec[] = {
		{ "tri dao", 1 },
		{ "tridao", 0 },
		{ "j. smith", 0 },
		{ "root", 0 },
		{ "your name", 0 },
		{ "wei zhang", 1 },
		{ "mary-jane o'neil", 1 },
	};
	char *login, *id;
	size_t i;

	for (i = 0; i < sizeof emails / sizeof *emails; i++)
		check_str(kh_email_norm(emails[i].in), emails[i].want,
		    emails[i].in ? emails[i].in : "(null)");
	for (i = 0; i < sizeof gen / sizeof *gen; i++)
		ok(kh_email_generic(gen[i].in) == gen[i].generic, gen[i].in);
	for (i = 0; i < sizeof names / sizeof *names; i++)
		check_str(kh_name_norm(names[i].in), names[i].want, names[i].in);
	for (i = 0; i < sizeof spec / sizeof *spec; i++)
		ok(kh_name_specific(spec[i].in) == spec[i].specific, spec[i].in);

	ok(kh_noreply("12345+alice-b@users.noreply.github.com", &login, &id),
	    "noreply with id");
	check_str(login, "alice-b", "noreply id form: login");
	check_str(id, "12345", "noreply id form: id");
	ok(kh_noreply("alice@users.noreply.github.com", &login, &id),
	    "noreply without id");
	check_str(login, "alice", "old noreply form: login");
	ok(id == NULL, "old noreply form: no id");
	ok(kh_noreply("49699333+dependabot[bot]@users.noreply.github.com",
	    &login, NULL), "bot noreply");
	check_str(login, "dependabot[bot]", "bot noreply login");
	ok(!kh_noreply("noreply@github.com", &login, &id), "GitHub itself");
	ok(!kh_noreply("x1+alice@users.noreply.github.com", &login, &id),
	    "id must be digits");
	ok(!kh_noreply("alice@users.noreply.github.com.evil.org", &login, &id),
	    "domain must end the address");

	check_str(kh_login_norm("@TriDao"), "tridao", "login lower-cased");
	check_str(kh_login_norm("renovate[bot]"), "renovate[bot]", "bot login");
	check_str(kh_login_norm("Tri Dao"), NULL, "a name is not a login");
	check_str(kh_login_norm("-x"), NULL, "leading hyphen");
	check_str(kh_login_norm("ghost"), NULL, "deleted account");
	check_str(kh_login_norm("web-flow"), NULL, "GitHub's committer");
	ok(kh_email_personal("a@gmail.com") && !kh_email_personal("a@amd.com"),
	    "personal mail domains");
	return done_testing();
}
