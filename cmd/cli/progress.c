/* progress.c - a line on standard error while a long input is read:
 * bytes read of its size where it is known, and the rate.  Shown only
 * when standard error is a terminal and the reading has gone on for a
 * second (--progress: always, at once; --no-progress: never), redrawn
 * at most ten times a second, and erased when the reading ends, so that
 * no diagnostic or output is mixed with it. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "text.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct {
	int active, shown;
	const char *prog, *path;
	uint64_t size; /* 0: not known */
	double start, last;
} bar;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void cli_progress_begin(const cli *c, const char *path, uint64_t size)
{
	memset(&bar, 0, sizeof bar);
	if (c->progress < 0 || (c->progress == 0 && !isatty(STDERR_FILENO)))
		return;
	bar.active = 1;
	bar.prog = c->prog;
	bar.path = cli_name(path);
	bar.size = size;
	bar.start = now();
	/* --progress: the first step draws it; else a second goes first */
	bar.last = c->progress > 0 ? bar.start - 1 : bar.start + 0.9;
}

static void draw(uint64_t bytes, double t)
{
	cg_buf name = CG_BUF_INIT;
	double mb = (double)bytes / 1e6, secs = t - bar.start;
	double rate = secs > 0 ? mb / secs : 0;
	text_escaped(&name, (cg_str){bar.path, strlen(bar.path)}, 0);
	if (name.failed) {
		cg_buf_free(&name);
		return;
	}
	if (bar.size > 0)
		fprintf(stderr, "\r%s: %.*s: %.1f of %.1f MB (%d%%), %.1f MB/s\033[K",
		        bar.prog, (int)name.len, name.ptr, mb,
		        (double)bar.size / 1e6,
		        (int)(100.0 * (double)bytes / (double)bar.size), rate);
	else
		fprintf(stderr, "\r%s: %.*s: %.1f MB, %.1f MB/s\033[K", bar.prog,
		        (int)name.len, name.ptr, mb, rate);
	fflush(stderr);
	bar.shown = 1;
	cg_buf_free(&name);
}

void cli_progress_step(uint64_t bytes)
{
	double t;
	if (!bar.active)
		return;
	t = now();
	if (t - bar.last < 0.1)
		return;
	bar.last = t;
	draw(bytes, t);
}

void cli_progress_end(void)
{
	if (bar.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	memset(&bar, 0, sizeof bar);
}
