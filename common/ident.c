/* ident.c: normalising the names, emails and logins people appear under */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kh.h"

/* GitHub logins: letters, digits and single inner hyphens, at most 39. */
static int
login_ok(const char *s, size_t n)
{
	if (n == 0 || n > 39 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-')
			return 0;
	return 1;
}

char *
kh_login_norm(const char *login)
{
	size_t n;
	char *s;

	if (login == NULL)
		return NULL;
	while (*login == '@' || *login == ' ')
		login++;
	n = strlen(login);
	while (n > 0 && login[n - 1] == ' ')
		n--;
	/* "dependabot[bot]": GitHub's apps carry a suffix outside the rules */
	if (n == 0 || (!login_ok(login, n) && !(n > 5 &&
	    memcmp(login + n - 5, "[bot]", 5) == 0 &&
	    login_ok(login, n - 5))))
		return NULL;
	s = kh_strndup(login, n);
	for (char *p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	/* GitHub's stand-in for deleted accounts, and its own committer */
	if (strcmp(s, "ghost") == 0 || strcmp(s, "web-flow") == 0)
		return free(s), NULL;
	return s;
}

char *
kh_email_norm(const char *email)
{
	const char *at;
	size_t n;
	char *s;

	if (email == NULL)
		return NULL;
	while (*email == ' ' || *email == '<')
		email++;
	n = strlen(email);
	while (n > 0 && (email[n - 1] == ' ' || email[n - 1] == '>'))
		n--;
	at = memchr(email, '@', n);
	/* an address has something on both sides of one '@' */
	if (at == NULL || at == email || at == email + n - 1 ||
	    memchr(at + 1, '@', n - (size_t)(at + 1 - email)) != NULL)
		return NULL;
	s = kh_strndup(email, n);
	for (char *p = s; *p; p++) {
		if (*p == ' ')
			return free(s), NULL;
		*p = (char)tolower((unsigned char)*p);
	}
	return s;
}

/*
 * GitHub's two noreply forms: "login@users.noreply.github.com" (before
 * July 2017) and "ID+login@users.noreply.github.com" (since).
 */
int
kh_noreply(const char *email, char **login, char **id)
{
	static const char dom[] = "@users.noreply.github.com";
	const char *at, *plus, *user;
	size_t n;

	*login = NULL;
	if (id)
		*id = NULL;
	if (email == NULL || (at = strchr(email, '@')) == NULL ||
	    strcmp(at, dom) != 0)
		return 0;
	user = email;
	plus = memchr(email, '+', (size_t)(at - email));
	if (plus) {
		for (const char *p = email; p < plus; p++)
			if (!isdigit((unsigned char)*p))
				return 0;
		if (plus == email)
			return 0;
		user = plus + 1;
	}
	n = (size_t)(at - user);
	if (!login_ok(user, n) && !(n > 5 && memcmp(at - 5, "[bot]", 5) == 0))
		return 0;
	*login = kh_strndup(user, n);
	for (char *p = *login; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (id && plus)
		*id = kh_strndup(email, (size_t)(plus - email));
	return 1;
}

/* Exact local parts shared by machines, not people. */
static const char *const generic_local[] = {
	"root", "ubuntu", "admin", "administrator", "user", "nobody",
	"unknown", "none", "test", "noreply", "no-reply", "jenkins", "build",
	"builder", "ci", "git", "you", "your.email", "your_email",
	"youremail", "email", "me", "dev", "developer", "runner", "docker",
	"ec2-user", "centos", "pi", "vagrant", NULL
};

/* Domains no one in particular owns. */
static const char *const generic_domain[] = {
	"localhost", "localhost.localdomain", "example.com", "example.org",
	"example.net", "email.com", "domain.com", "none", "(none)", NULL
};

static int
in_list(const char *const *list, const char *s, size_t n)
{
	for (; *list; list++)
		if (strlen(*list) == n && strncmp(*list, s, n) == 0)
			return 1;
	return 0;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

int
kh_email_generic(const char *email)
{
	const char *at = email ? strchr(email, '@') : NULL;

	if (at == NULL)
		return 1;
	if (strcmp(email, "noreply@github.com") == 0 ||
	    in_list(generic_local, email, (size_t)(at - email)) ||
	    in_list(generic_domain, at + 1, strlen(at + 1)))
		return 1;
	/* host-local names a machine invents: "alice@alice-laptop.local" */
	return ends_with(at, ".local") || ends_with(at, ".localdomain") ||
	    ends_with(at, ".lan") || ends_with(at, ".internal") ||
	    ends_with(at, ".(none)") || strchr(at + 1, '.') == NULL;
}

char *
kh_name_norm(const char *name)
{
	struct kh_buf b = { 0 };
	int space = 0;

	if (name == NULL)
		return NULL;
	for (const char *p = name; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = b.len > 0;
			continue;
		}
		if (space)
			kh_buf_addc(&b, ' ');
		space = 0;
		kh_buf_addc(&b, c < 0x80 ? tolower(c) : c);
	}
	if (b.len == 0)
		return NULL;
	return kh_buf_detach(&b);
}

static const char *const generic_name[] = {
	"root", "ubuntu", "unknown", "admin", "administrator", "user",
	"nobody", "none", "test", "github", "git", "jenkins", "builder",
	"build", "ci", "bot", "your name", "name", "developer", "dev",
	"default", "runner", "docker", "localhost", "(none)", "anonymous",
	"github action", "github actions", "github-actions", "web-flow",
	"automation", "ghost", NULL
};

int
kh_name_generic(const char *norm)
{
	return norm == NULL || *norm == '\0' ||
	    in_list(generic_name, norm, strlen(norm));
}

int
kh_name_specific(const char *norm)
{
	int words = 0, letters = 0, short_word = 0;

	if (kh_name_generic(norm))
		return 0;
	for (const char *p = norm;; p++) {
		if (*p == ' ' || *p == '\0') {
			if (letters > 0) {
				words++;
				if (letters < 2)
					short_word = 1;
			}
			letters = 0;
			if (*p == '\0')
				break;
		} else if (*p != '.' && *p != '-')
			letters++;
	}
	/* "J. Smith" is two words but one is an initial: not enough */
	return words >= 2 && !short_word;
}

/* Mail services anyone can sign up to: a name there says nothing of an employer. */
static const char *const personal_domain[] = {
	"gmail.com", "googlemail.com", "outlook.com", "hotmail.com",
	"live.com", "msn.com", "yahoo.com", "icloud.com", "me.com",
	"mac.com", "protonmail.com", "proton.me", "pm.me", "qq.com",
	"foxmail.com", "163.com", "126.com", "sina.com", "aliyun.com",
	"yandex.ru", "mail.ru", "gmx.de", "gmx.net", "web.de", "naver.com",
	"hanmail.net", "fastmail.com", "zoho.com", "aol.com",
	"users.noreply.github.com", NULL
};

int
kh_email_personal(const char *email)
{
	const char *at = email ? strchr(email, '@') : NULL;

	return at && in_list(personal_domain, at + 1, strlen(at + 1));
}
