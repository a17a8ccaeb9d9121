/* git.c: kh-fetch git, commit evidence from local clones (placeholder) */
#include "fetch.h"

int
fetch_git(int argc, char **argv)
{
	kh_usage("git: not built yet");
}
