/* t-mail: headers (injection, RFC 2047, folding), addresses, mbox framing */
#include <stdlib.h>

#include "kh.h"
#include "tap.h"

struct row {
	const char *in, *want, *name;
};

static const struct row headers[] = {
	{ "Your PR #12", "Subject: Your PR #12\n", "plain" },
	{ "a\r\nBcc: x@evil.example", "Subject: a Bcc: x@evil.example\n",
	  "CR/LF cannot start a header" },
	{ "caf\xc3\xa9", "Subject: =?UTF-8?B?Y2Fmw6k=?=\n", "RFC 2047" },
	{ "bad \xff byte", "Subject: =?UTF-8?B?YmFkIO+/vSBieXRl?=\n",
	  "invalid UTF-8 repaired, then encoded" },
	{ "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm "
	  "nnnn oooo pppp",
	  "Subject: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk "
	  "llll mmmm nnnn\n oooo pppp\n", "folded at 78 columns" },
	{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
	  "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x",
	  "Subject: =?UTF-8?B?w6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOpw6nDqcOp"
	  "w6nDqcOpw6nDqcOpw6k=?=\n =?UTF-8?B?w6l4?=\n",
	  "long encoded subject split between characters" },
};

static const struct row addrs[] = {
	{ "ada@example.org", "1", "plain address" },
	{ "a.b+c@mail.example.co", "1", "dots and plus" },
	{ "ada@localhost", "0", "no dot in the domain" },
	{ "ada@@example.org", "0", "two @" },
	{ "ada@example.org\r\nBcc: x@y.z", "0", "CR/LF" },
	{ "Ada <ada@example.org>", "0", "a display name is not an address" },
	{ "ad a@example.org", "0", "space" },
	{ ".ada@example.org", "0", "leading dot" },
	{ "ada@example..org", "0", "double dot" },
	{ "@example.org", "0", "empty local part" },
	{ "ad\xc3\xa4@example.org", "0", "not ASCII" },
	{ "", "0", "empty" },
};

static const struct row bodies[] = {
	{ "a\nFrom here\n>From there\nFrom\nfrom x\n",
	  "a\n>From here\n>>From there\nFrom\nfrom x\n", "mboxrd quoting" },
	{ "no final newline", "no final newline\n", "final newline added" },
	{ "one two three four five six", "one two\nthree\nfour five\nsix\n",
	  "wrapped at spaces" },
	{ "x https://example.org/very/long/url/indeed y",
	  "x\nhttps://example.org/very/long/url/indeed\ny\n",
	  "a long word stays whole" },
	{ "ab cd\n\nabcdefgh From x", "ab cd\n\nabcdefgh\n>From x\n",
	  "wrapped line starting with From is quoted" },
	{ "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9\xc3\xa9 xx",
	  "\xc3\xa9\xc3\xa9\xc3\xa9 \xc3\xa9\xc3\xa9\xc3\xa9\nxx\n",
	  "columns count characters, not bytes" },
};

int
main(void)
{
	struct kh_buf b = { 0 };
	char date[48];

	for (size_t i = 0; i < sizeof headers / sizeof *headers; i++) {
		kh_buf_reset(&b);
		kh_mail_header(&b, "Subject", headers[i].in);
		is_str(b.p, headers[i].want, headers[i].name);
	}
	for (size_t i = 0; i < sizeof addrs / sizeof *addrs; i++)
		ok(kh_mail_addr_ok(addrs[i].in) == (addrs[i].want[0] == '1'),
		    addrs[i].name);

	kh_buf_reset(&b);
	kh_mail_addr_header(&b, "To", "Ada \"The\" Lovelace\r\nBcc: x",
	    "ada@example.org");
	is_str(b.p, "To: \"Ada \\\"The\\\" Lovelace Bcc: x\" <ada@example.org>\n",
	    "display name quoted, CR/LF gone");
	kh_buf_reset(&b);
	kh_mail_addr_header(&b, "To", "Zo\xc3\xab Ng", "z@example.org");
	is_str(b.p, "To: =?UTF-8?B?Wm/DqyBOZw==?=\n <z@example.org>\n",
	    "non-ASCII display name encoded");
	kh_buf_reset(&b);
	kh_mail_addr_header(&b, "To", NULL, "z@example.org");
	is_str(b.p, "To: <z@example.org>\n", "no display name");

	kh_mail_date(1796000255, date);
	is_str(date, "Mon, 30 Nov 2026 00:57:35 +0000", "RFC 5322 date");
	kh_buf_reset(&b);
	kh_mail_from_line(&b, "dana@lattice.example", 1796000255);
	is_str(b.p, "From dana@lattice.example Mon Nov 30 00:57:35 2026\n",
	    "mbox From_ line");
	kh_buf_reset(&b);
	kh_mail_from_line(&b, "d@x.example", 0);
	is_str(b.p, "From d@x.example Thu Jan  1 00:00:00 1970\n",
	    "From_ line pads the day like asctime");

	for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
		kh_buf_reset(&b);
		kh_mail_body(&b, bodies[i].in, i < 2 ? 72 : 9);
		is_str(b.p, bodies[i].want, bodies[i].name);
	}
	kh_buf_free(&b);
	return done_testing();
}
