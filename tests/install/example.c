/* The function with the greatest inclusive cost of a profile's first
 * event, and the total: cgprof(3)'s EXAMPLES, built against an installed
 * prefix by the tests. */
#define _POSIX_C_SOURCE 200809L
#include <cgprof.h>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	cgi_input *in = NULL;
	cg_funcs *f = NULL;
	cg_error err;
	cg_func best, fn;
	size_t i;
	int fd, status = 1;

	if (argc != 2 || (fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "usage: example FILE\n");
		return 2;
	}
	if (cgi_input_new(32u << 20, 0, &in, &err) != CG_OK ||
	    cgi_input_read_fd(in, fd, &err) != CG_OK ||
	    cg_funcs_new(&f, &err) != CG_OK ||
	    cgi_funcs_add(f, cgi_input_data(in), cgi_input_size(in), NULL, 0,
	                 &err) != CG_OK ||
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
	cgi_input_free(in);
	close(fd);
	return status;
}
