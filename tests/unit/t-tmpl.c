/* t-tmpl: the template engine: variables, sections, errors, escaping */
#include <stdlib.h>

#include "kh.h"
#include "tap.h"

static const char data_json[] =
    "{\"name\":\"Ada\",\"n\":3,\"f\":1.5,\"yes\":true,\"no\":false,"
    "\"nul\":null,\"empty\":\"\",\"none\":[],\"obj\":{\"a\":\"x\",\"b\":{\"c\":\"deep\"}},"
    "\"list\":[{\"t\":\"one\"},{\"t\":\"two\",\"u\":\"U\"}],"
    "\"words\":[\"a\",\"b\"],\"evil\":\"line1\\r\\nFrom x\\u0000y\","
    "\"md\":\"# *x* [l](u) <b>|_`\"}";

struct row {
	const char *tmpl, *want, *name;
};

static const struct row ok_rows[] = {
	{ "Hi {{name}}.", "Hi Ada.", "variable" },
	{ "{{ name }}", "Ada", "spaces inside the tag" },
	{ "{{n}} {{f}}", "3 1.5", "numbers exactly" },
	{ "{{yes}}", "true", "a boolean" },
	{ "{{obj.a}}/{{obj.b.c}}", "x/deep", "dotted paths" },
	{ "{{#obj}}{{a}}{{name}}{{/obj}}", "xAda", "object section, outer lookup" },
	{ "{{#list}}[{{t}}]{{/list}}", "[one][two]", "list section" },
	{ "{{#words}}{{.}},{{/words}}", "a,b,", "list of strings with {{.}}" },
	{ "{{#yes}}y{{/yes}}{{#no}}n{{/no}}", "y", "conditional on true/false" },
	{ "{{#missing}}m{{/missing}}{{^missing}}absent{{/missing}}", "absent",
	  "absent field: section skipped, inverted shown" },
	{ "{{#nul}}a{{/nul}}{{#empty}}b{{/empty}}{{#none}}c{{/none}}", "",
	  "null, empty string and empty list are absent" },
	{ "{{^none}}no list{{/none}}", "no list", "inverted on empty list" },
	{ "a{{! a comment }}b", "ab", "comment" },
	{ "a\n{{! a comment\n  on two lines }}\nb", "a\nb",
	  "a comment may span lines" },
	{ "x\n{{#list}}\n- {{t}}\n{{/list}}\ny\n", "x\n- one\n- two\ny\n",
	  "standalone tags take their lines" },
	{ "  {{#yes}}  \nin\n  {{/yes}}\nout", "in\nout",
	  "standalone with indentation" },
	{ "a {{#yes}}b{{/yes}} c\n", "a b c\n", "inline section keeps text" },
	{ "{{#list}}{{#u}}<{{u}}>{{/u}}{{/list}}", "<U>", "nested presence" },
	{ "{{evil}}", "line1 From x", "text escape: CR/LF to one space" },
	{ "no tags at all\n", "no tags at all\n", "plain text" },
	{ "", "", "empty template" },
	{ "{ {name} }", "{ {name} }", "single braces are text" },
};

static const struct row err_rows[] = {
	{ "{{gone}}", "template 't' line 1: missing field 'gone'", "missing" },
	{ "a\n\n{{obj.z}}", "template 't' line 3: missing field 'obj.z'",
	  "missing dotted, line number" },
	{ "{{nul}}", "template 't' line 1: null field 'nul'", "null" },
	{ "{{empty}}", "template 't' line 1: empty field 'empty'", "empty" },
	{ "{{obj}}", "template 't' line 1: field 'obj' is an object, not text",
	  "object as text" },
	{ "{{words}}", "template 't' line 1: field 'words' is a list, not text",
	  "list as text" },
	{ "{{#list}}{{u}}{{/list}}", "template 't' line 1: missing field 'u'",
	  "missing in the first element" },
};

static const struct row syntax_rows[] = {
	{ "x {{name", "template 't' line 1: unclosed tag '{{'", "unclosed" },
	{ "{{na\nme}}", "template 't' line 1: unclosed tag '{{'",
	  "tag across lines" },
	{ "{{#a}}x", "template 't' line 1: section 'a' is never closed",
	  "unclosed section" },
	{ "\n{{/a}}", "template 't' line 2: '{{/a}}' closes no section",
	  "stray close" },
	{ "{{#a}}\n{{/b}}",
	  "template 't' line 2: '{{/b}}' does not close 'a' of line 1",
	  "mismatched close" },
	{ "{{}}", "template 't' line 1: bad field name ''", "empty name" },
	{ "{{{raw}}}", "template 't' line 1: bad field name '{raw'",
	  "no unescaped output" },
	{ "{{&raw}}", "template 't' line 1: bad field name '&raw'",
	  "no unescaped output (&)" },
	{ "{{a..b}}", "template 't' line 1: bad field name 'a..b'",
	  "empty path part" },
};

static void
seen_count(const cJSON *v, void *arg)
{
	(void)v;
	(*(int *)arg)++;
}

static int
collect(const char *text, unsigned line, void *arg)
{
	kh_buf_addf(arg, "%u:%s|", line, text);
	return 0;
}

int
main(void)
{
	cJSON *data = cJSON_Parse(data_json);
	struct kh_buf b = { 0 };
	struct kh_tmpl *t;
	char *err;
	int seen;

	ok(data != NULL, "test data parses");
	for (size_t i = 0; i < sizeof ok_rows / sizeof *ok_rows; i++) {
		t = kh_tmpl_parse("t", ok_rows[i].tmpl, &err);
		kh_buf_reset(&b);
		if (!ok(t != NULL, ok_rows[i].name))
			printf("#   %s\n", err);
		else if (kh_tmpl_render(t, data, kh_tmpl_esc_text, NULL, NULL,
		    &b, &err) < 0)
			printf("#   %s\n", err);
		is_str(b.p, ok_rows[i].want, ok_rows[i].name);
		free(err);
		kh_tmpl_free(t);
	}
	for (size_t i = 0; i < sizeof err_rows / sizeof *err_rows; i++) {
		t = kh_tmpl_parse("t", err_rows[i].tmpl, &err);
		kh_buf_reset(&b);
		ok(t && kh_tmpl_render(t, data, kh_tmpl_esc_text, NULL, NULL,
		    &b, &err) == -1, err_rows[i].name);
		is_str(err, err_rows[i].want, err_rows[i].name);
		free(err);
		kh_tmpl_free(t);
	}
	for (size_t i = 0; i < sizeof syntax_rows / sizeof *syntax_rows; i++) {
		t = kh_tmpl_parse("t", syntax_rows[i].tmpl, &err);
		ok(t == NULL, syntax_rows[i].name);
		is_str(err, syntax_rows[i].want, syntax_rows[i].name);
		free(err);
		kh_tmpl_free(t);
	}

	/* escaping per format */
	t = kh_tmpl_parse("t", "{{md}}", &err);
	kh_buf_reset(&b);
	kh_tmpl_render(t, data, kh_tmpl_esc_md, NULL, NULL, &b, &err);
	is_str(b.p, "\\# \\*x\\* \\[l\\](u) \\<b\\>\\|\\_\\`", "markdown escape");
	kh_tmpl_free(t);

	kh_buf_reset(&b);
	kh_tmpl_esc_text(&b, "  a\xff b \xe2\x80\xae" "c\xe2\x80\xa8" "d\t ", 17);
	is_str(b.p, "a\xef\xbf\xbd b c d", "text: bad UTF-8 repaired, bidi "
	    "control dropped, separators blank, ends trimmed");
	kh_buf_reset(&b);
	kh_tmpl_esc_text(&b, "x\xe2\x80\xa8y\xc2\x85z", 9);
	is_str(b.p, "x y z", "text: U+2028 and U+0085 are line breaks");

	/* the seen callback is told of every value rendered */
	t = kh_tmpl_parse("t", "{{name}}{{#list}}{{t}}{{/list}}{{#no}}{{n}}{{/no}}",
	    &err);
	seen = 0;
	kh_buf_reset(&b);
	kh_tmpl_render(t, data, kh_tmpl_esc_text, seen_count, &seen, &b, &err);
	ok(seen == 3, "seen: once per rendered value");
	kh_tmpl_free(t);

	/* the literal text, with its lines */
	t = kh_tmpl_parse("t", "Hi {{name}},\n{{#yes}}\nx\n{{/yes}}\nbye", &err);
	kh_buf_reset(&b);
	kh_tmpl_text(t, collect, &b);
	is_str(b.p, "1:Hi |1:,\n|3:x\n|5:bye|", "literal text with lines");
	kh_tmpl_free(t);

	kh_buf_free(&b);
	cJSON_Delete(data);
	return done_testing();
}
