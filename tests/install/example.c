/* The function with the greatest inclusive cost of a profile's first
 * event, and the total: cgprof(3)'s EXAMPLES, built against an installed
 * prefix by the tests. */
#define _POSIX_C_SOURCE 200809L
#include <cgprof.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Feed the file at fd to a reader whose records go to f. */
static cg_kind add(cg_funcs *f, int fd, cg_error *err)
{
	cg_read_options opt = {0};
	cg_reader *r = NULL;
	cg_handler h;
	void *ctx;
	char buf[65536];
	ssize_t n;
	cg_kind k;

	cg_funcs_begin(f, &opt, &h, &ctx);
	k = cg_reader_new(&opt, &h, ctx, &r, err);
	while (k == CG_OK && (n = read(fd, buf, sizeof buf)) > 0)
		k = cg_reader_feed(r, buf, (size_t)n, err);
	if (k == CG_OK && n < 0) {
		err->kind = k = CG_IO;
		err->line = 0;
		snprintf(err->message, sizeof err->message, "%s",
		         strerror(errno));
	} else if (k == CG_OK)
		k = cg_reader_finish(r, err);
	cg_reader_free(r);
	return cg_funcs_end(f, k, err);
}

int main(int argc, char **argv)
{
	cg_funcs *f = NULL;
	cg_error err;
	cg_func best, fn;
	size_t i;
	int fd, status = 1;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: example FILE\n");
		return 2;
	}
	if (cg_funcs_new(&f, &err) != CG_OK || add(f, fd, &err) != CG_OK ||
	    cg_funcs_finish(f, CG_FUNCS_CYCLES, &err) != CG_OK) {
		fprintf(stderr, "%s:%llu: %s: %s\n", argv[1],
		        (unsigned long long)err.line, cg_kind_name(err.kind),
		        err.message);
		goto out;
	}
	if (cg_funcs_count(f) == 0 || cg_funcs_event_count(f) == 0)
		goto out;
	cg_funcs_get(f, 0, &best);
	for (i = 1; i < cg_funcs_count(f); i++) {
		cg_funcs_get(f, i, &fn);
		if (fn.incl[0] > best.incl[0])
			best = fn;
	}
	printf("%.*s %llu of %llu %.*s\n", (int)best.fn.len, best.fn.ptr,
	       (unsigned long long)best.incl[0],
	       (unsigned long long)cg_funcs_totals(f)[0],
	       (int)cg_funcs_event(f, 0).len, cg_funcs_event(f, 0).ptr);
	status = 0;
out:
	cg_funcs_free(f);
	close(fd);
	return status;
}
