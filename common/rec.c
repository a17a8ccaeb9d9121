/* rec.c: the bounded line reader, the record loop and its bad-line policy */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kh.h"

#define CHUNK (64 * 1024)
#define MAX_BAD_MSGS 20

struct kh_reader {
	const char *name;
	kh_read_fn fn;
	void *h;
	char *buf;		/* CHUNK bytes; lines are cut in place */
	size_t start, end;
	int eof;
	struct kh_buf line;	/* a line that spans two chunks */
	unsigned long lineno;
};

static unsigned long n_in, n_out, n_skipped, n_bad_msgs;
static int fail_code;

static ssize_t
fd_read(void *h, char *buf, size_t n)
{
	return read(*(int *)h, buf, n);
}

struct kh_reader *
kh_reader_new(const char *name, kh_read_fn fn, void *h)
{
	struct kh_reader *r = kh_calloc(1, sizeof *r);

	r->name = name;
	r->fn = fn;
	r->h = h;
	r->buf = kh_malloc(CHUNK);
	return r;
}

struct kh_reader *
kh_reader_fd(const char *name, int fd)
{
	int *h = kh_malloc(sizeof *h);
	struct kh_reader *r;

	*h = fd;
	r = kh_reader_new(name, fd_read, h);
	return r;
}

void
kh_reader_free(struct kh_reader *r)
{
	if (r == NULL)
		return;
	if (r->fn == fd_read)
		free(r->h);
	free(r->buf);
	kh_buf_free(&r->line);
	free(r);
}

unsigned long
kh_reader_lineno(const struct kh_reader *r)
{
	return r->lineno;
}

static void
strip_cr(char **line, size_t *len)
{
	if (*len > 0 && (*line)[*len - 1] == '\r')
		(*line)[--*len] = '\0';
}

int
kh_getline(struct kh_reader *r, size_t max, char **line, size_t *len)
{
	size_t total = 0;
	int over = 0;

	kh_buf_reset(&r->line);
	for (;;) {
		char *s, *nl;
		size_t avail, take;

		if (r->start == r->end) {
			ssize_t n;

			if (r->eof) {
				if (total == 0)
					return 0;
				break;	/* a last line without "\n" */
			}
			n = r->fn(r->h, r->buf, CHUNK);
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return -2;
			}
			if (n == 0)
				r->eof = 1;
			r->start = 0;
			r->end = (size_t)n;
			continue;
		}
		s = r->buf + r->start;
		avail = r->end - r->start;
		nl = memchr(s, '\n', avail);
		take = nl ? (size_t)(nl - s) : avail;
		if (!over && total + take > max)
			over = 1;
		if (nl && total == 0 && !over) {
			/* The whole line is in the chunk: no copy. */
			*nl = '\0';
			r->start += take + 1;
			r->lineno++;
			*line = s;
			*len = take;
			strip_cr(line, len);
			return 1;
		}
		if (!over)
			kh_buf_add(&r->line, s, take);
		total += take;
		r->start += take + (nl ? 1 : 0);
		if (nl)
			break;
	}
	r->lineno++;
	if (over) {
		*len = total;
		return -1;
	}
	*line = r->line.p;
	*len = r->line.len;
	strip_cr(line, len);
	return 1;
}

void
kh_bad(const struct kh_pos *pos, const char *fmt, ...)
{
	va_list ap;

	n_skipped++;
	if (!kh_opt.quiet || kh_opt.strict) {
		n_bad_msgs++;
		if (n_bad_msgs <= MAX_BAD_MSGS || kh_opt.strict) {
			fflush(stdout);
			fprintf(stderr, "%s: %s:%lu:", kh_prog, pos->file,
			    pos->line);
			if (pos->col)
				fprintf(stderr, "%lu:", pos->col);
			fputc(' ', stderr);
			va_start(ap, fmt);
			vfprintf(stderr, fmt, ap);
			va_end(ap);
			fputc('\n', stderr);
		} else if (n_bad_msgs == MAX_BAD_MSGS + 1)
			kh_err("further bad-record messages suppressed");
	}
	if (kh_opt.strict) {
		fflush(stdout);
		exit(KH_DATA);
	}
}

static const char *
json_kind(const cJSON *j)
{
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsBool(j))
		return "a boolean";
	return "null";
}

cJSON *
kh_parse_line(const char *line, size_t len, const struct kh_pos *pos)
{
	struct kh_pos at = *pos;
	const char *end = NULL, *nul;
	cJSON *j;

	if ((nul = memchr(line, '\0', len)) != NULL) {
		at.col = (unsigned long)(nul - line) + 1;
		kh_bad(&at, "invalid JSON: NUL byte in line");
		return NULL;
	}
	/* The length counts the NUL, as require_null_terminated wants. */
	j = cJSON_ParseWithLengthOpts(line, len + 1, &end, 1);
	if (j == NULL) {
		size_t off = end && end >= line ? (size_t)(end - line) : 0;

		at.col = (unsigned long)off + 1;
		if (off >= len)
			kh_bad(&at, "invalid JSON: unexpected end of line");
		else if ((unsigned char)line[off] >= 0x20 &&
		    (unsigned char)line[off] < 0x7f)
			kh_bad(&at, "invalid JSON: unexpected '%c'", line[off]);
		else
			kh_bad(&at, "invalid JSON: unexpected byte 0x%02x",
			    (unsigned char)line[off]);
		return NULL;
	}
	if (!cJSON_IsObject(j)) {
		kh_bad(pos, "record is %s, expected an object", json_kind(j));
		cJSON_Delete(j);
		return NULL;
	}
	return j;
}

static int
blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

void
kh_loop_reader(struct kh_reader *r, kh_handler fn, void *ctx)
{
	struct kh_pos pos = { r->name, 0, 0 };
	char *line;
	size_t len;
	int rc;

	while ((rc = kh_getline(r, kh_opt.max_line, &line, &len)) != 0) {
		cJSON *rec;

		pos.line = r->lineno;
		if (rc == -2) {
			kh_err("cannot read '%s': %s", r->name, strerror(errno));
			kh_fail(KH_SYS);
			return;
		}
		if (rc == 1 && blank(line, len))
			continue;
		n_in++;
		if (rc == -1) {
			kh_bad(&pos, "line longer than %zu bytes, skipped",
			    kh_opt.max_line);
			continue;
		}
		if ((rec = kh_parse_line(line, len, &pos)) == NULL)
			continue;
		if (!cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rec,
		    "type")))
			kh_bad(&pos, "missing required field 'type'");
		else
			fn(rec, &pos, ctx);
		cJSON_Delete(rec);
	}
}

void
kh_loop_text(kh_text_fn fn, void *ctx)
{
	struct kh_reader *r = kh_reader_fd("<stdin>", 0);
	struct kh_pos pos = { "<stdin>", 0, 0 };
	char *line;
	size_t len;
	int rc;

	while ((rc = kh_getline(r, kh_opt.max_line, &line, &len)) != 0) {
		pos.line = r->lineno;
		if (rc == -2) {
			kh_err("cannot read '<stdin>': %s", strerror(errno));
			kh_fail(KH_SYS);
			break;
		}
		if (rc == -1) {
			kh_count_in();
			kh_bad(&pos, "line longer than %zu bytes, skipped",
			    kh_opt.max_line);
			continue;
		}
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t'))
			line[--len] = '\0';
		line += strspn(line, " \t");
		if (*line == '\0' || *line == '#')
			continue;
		fn(line, &pos, ctx);
	}
	kh_reader_free(r);
}

void
kh_loop(int argc, char **argv, kh_handler fn, void *ctx)
{
	static char dashs[] = "-";
	char *dash[] = { dashs, NULL };

	if (argc == 0) {
		argc = 1;
		argv = dash;
	}
	for (int i = 0; i < argc; i++) {
		int stdin_ = strcmp(argv[i], "-") == 0;
		int fd = stdin_ ? 0 : open(argv[i], O_RDONLY | O_CLOEXEC);
		struct kh_reader *r;

		if (fd < 0) {
			kh_err("cannot open '%s': %s", argv[i], strerror(errno));
			kh_fail(KH_SYS);
			continue;
		}
		r = kh_reader_fd(stdin_ ? "<stdin>" : argv[i], fd);
		kh_loop_reader(r, fn, ctx);
		kh_reader_free(r);
		if (!stdin_)
			close(fd);
	}
}

void
kh_emit(const cJSON *rec)
{
	static struct kh_buf out;

	kh_buf_reset(&out);
	kh_json_write(&out, rec);
	kh_buf_addc(&out, '\n');
	if (fwrite(out.p, 1, out.len, stdout) != out.len ||
	    (kh_opt.unbuffered && fflush(stdout) == EOF))
		kh_die(KH_SYS, "cannot write to standard output: %s",
		    strerror(errno));
	n_out++;
}

void
kh_count_in(void)
{
	n_in++;
}

void
kh_fail(int code)
{
	if (code > fail_code)
		fail_code = code;
}

int
kh_finish(void)
{
	if (fflush(stdout) == EOF || ferror(stdout)) {
		kh_err("cannot write to standard output: %s", strerror(errno));
		kh_fail(KH_SYS);
	}
	if (n_skipped)
		kh_warn("%lu of %lu records skipped", n_skipped, n_in);
	kh_note("%lu in, %lu out, %lu skipped", n_in, n_out, n_skipped);
	if (fail_code)
		return fail_code;
	return n_skipped ? KH_PARTIAL : KH_OK;
}
