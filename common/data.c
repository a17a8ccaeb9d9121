/* data.c: finding share/kh, reading data files */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kh.h"

#ifndef KH_DATADIR
#define KH_DATADIR "/usr/local/share/kh"
#endif

static int
isdir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The source tree's share/kh when this program is a build-tree binary:
 * TOP/build/bin/kh-x (or TOP/bin/kh-x) with TOP/common/kh.h and
 * TOP/share/kh. An installed program never has that marker beside it.
 */
static char *
build_tree_dir(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	for (int up = 0; up < 3 && (slash = strrchr(exe, '/')) != NULL; up++) {
		char *marker, *dir;
		int ok;

		*slash = '\0';
		if (up == 0)
			continue;	/* the program's own directory */
		marker = kh_asprintf("%s/common/kh.h", exe);
		dir = kh_asprintf("%s/share/kh", exe);
		ok = access(marker, F_OK) == 0 && isdir(dir);
		free(marker);
		if (ok)
			return dir;
		free(dir);
	}
	return NULL;
}

char *
kh_data_path(const char *name)
{
	static char *dir;
	const char *env = getenv("KH_DATADIR");

	if (env && *env)
		return kh_asprintf("%s/%s", env, name);
	if (dir == NULL && (dir = build_tree_dir()) == NULL)
		dir = kh_strdup(KH_DATADIR);
	return kh_asprintf("%s/%s", dir, name);
}

char *
kh_read_file(const char *path, size_t max, size_t *len)
{
	struct kh_buf b = { 0 };
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	b.max = max;
	while ((n = read(fd, chunk, sizeof chunk)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || kh_buf_add(&b, chunk, (size_t)n) < 0) {
			int e = n < 0 ? errno : EFBIG;

			close(fd);
			kh_buf_free(&b);
			errno = e;
			return NULL;
		}
	}
	close(fd);
	if (len)
		*len = b.len;
	return kh_buf_detach(&b);
}

cJSON *
kh_load_json(const char *path)
{
	size_t len;
	const char *end = NULL;
	char *s = kh_read_file(path, (size_t)64 << 20, &len);
	cJSON *j;

	if (s == NULL)
		kh_die(KH_USAGE, "cannot read '%s': %s", path, strerror(errno));
	j = cJSON_ParseWithLengthOpts(s, len + 1, &end, 1);
	if (j == NULL) {
		size_t off = end ? (size_t)(end - s) : 0, line = 1, col = 1;

		for (size_t i = 0; i < off && i < len; i++, col++)
			if (s[i] == '\n')
				line++, col = 0;
		free(s);
		kh_die(KH_USAGE, "%s:%zu:%zu: invalid JSON", path, line, col);
	}
	free(s);
	return j;
}
