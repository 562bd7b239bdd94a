/* progress.c - a line on standard error while a long input is read:
 * bytes read of its size where it is known, and the rate.  Shown only
 * when standard error is a terminal and the reading has gone on for a
 * second (--progress: always, at once; --no-progress: never), redrawn
 * at most ten times a second, and erased when the reading ends, so that
 * no diagnostic or output is mixed with it. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"
#include "out.h"
#include "text.h"

#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static struct {
	int active, shown;
	size_t width; /* of standard error's terminal; 0: not known */
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

/* Output on the terminal that shows the line: the line goes, for good
 * (the rows are then the sign of life, and a line drawn among them would
 * break one). */
static void out_of_the_way(void)
{
	cli_progress_end();
}

void cli_progress_begin(const cli *c, const char *path, uint64_t size)
{
	struct winsize ws;
	/* off: nothing touched, as the threads reading many inputs at once
	 * need (bar is zero since the last end) */
	if (c->progress < 0 || (c->progress == 0 && !isatty(STDERR_FILENO)))
		return;
	memset(&bar, 0, sizeof bar);
	bar.active = 1;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		bar.width = (size_t)ws.ws_col - 1;
	if (isatty(STDOUT_FILENO))
		out_before_write = out_of_the_way;
	bar.prog = c->prog;
	bar.path = cli_name(path);
	bar.size = size;
	bar.start = now();
	/* --progress: the first step draws it; else a second goes first */
	bar.last = c->progress > 0 ? bar.start - 1 : bar.start + 0.9;
}

static void draw(uint64_t bytes, double t)
{
	cgi_buf line = CGI_BUF_INIT;
	char figures[128];
	double mb = (double)bytes / 1e6, secs = t - bar.start;
	double rate = secs > 0 ? mb / secs : 0;
	if (bar.size > 0)
		snprintf(figures, sizeof figures,
		         ": %.1f of %.1f MB (%d%%), %.1f MB/s", mb,
		         (double)bar.size / 1e6,
		         /* a file that grew while read: no more than all */
		         bytes >= bar.size
		             ? 100
		             : (int)(100.0 * (double)bytes / (double)bar.size),
		         rate);
	else
		snprintf(figures, sizeof figures, ": %.1f MB, %.1f MB/s", mb,
		         rate);
	cgi_buf_puts(&line, bar.prog);
	cgi_buf_puts(&line, ": ");
	text_escaped(&line, (cg_str){bar.path, strlen(bar.path)}, 0);
	cgi_buf_puts(&line, figures);
	/* within one row of the terminal, or the erase would leave the rest */
	if (bar.width > 0)
		line.len = text_cut(line.ptr, line.len, bar.width);
	if (!line.failed) {
		fprintf(stderr, "\r%.*s\033[K", (int)line.len, line.ptr);
		fflush(stderr);
		bar.shown = 1;
	}
	cgi_buf_free(&line);
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
	if (!bar.active)
		return;
	out_before_write = NULL;
	if (bar.shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	memset(&bar, 0, sizeof bar);
}
