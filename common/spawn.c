/* spawn.c: run a program with a fixed argument vector, never a shell */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kh.h"

extern char **environ;

int
kh_spawn(char *const argv[], char *const env[], struct kh_child *c)
{
	posix_spawn_file_actions_t fa;
	char **envp = environ;
	size_t ne = 0, nx = 0;
	int p[2], rc;

	if (env) {
		while (environ[ne])
			ne++;
		while (env[nx])
			nx++;
		envp = kh_calloc(ne + nx + 1, sizeof *envp);
		memcpy(envp, env, nx * sizeof *envp);	/* first wins */
		memcpy(envp + nx, environ, ne * sizeof *envp);
	}
	if (pipe(p) < 0)
		return -1;
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[1]);
	rc = posix_spawnp(&c->pid, argv[0], &fa, NULL, argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	if (envp != environ)
		free(envp);
	close(p[1]);
	if (rc != 0) {
		close(p[0]);
		errno = rc;
		return -1;
	}
	c->out = p[0];
	return 0;
}

int
kh_wait(struct kh_child *c)
{
	int st;

	if (c->out >= 0)
		close(c->out);
	c->out = -1;
	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}
