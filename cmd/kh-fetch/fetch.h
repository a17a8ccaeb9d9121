/* fetch.h: the sources of kh-fetch, one file each; main.c dispatches */
#ifndef FETCH_H
#define FETCH_H
#include "kh.h"

/* Each takes argv with argv[0] the source name and returns the exit code. */
int fetch_git(int argc, char **argv);	/* git.c */
int fetch_github(int argc, char **argv);	/* github*.c */
int fetch_registry(int argc, char **argv);	/* registry.c */
int fetch_events(int argc, char **argv);	/* events.c */
int fetch_gpumode(int argc, char **argv);	/* gpumode.c */
int fetch_codeforces(int argc, char **argv);	/* codeforces.c */
int fetch_papers(int argc, char **argv);	/* papers.c */

#endif
