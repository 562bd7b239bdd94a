/* whole.c - the library's whole-input calls on one file, for counting
 * their instructions:
 *
 *   whole parse|funcs|lines|model FILE
 *
 * reads FILE into memory, then cgi_parse (no handler), cgi_funcs_add and
 * cg_funcs_finish, cgi_lines_add and cgi_lines_finish, or cgi_model_read,
 * with the limits lifted, and prints the verdict and a count.  Built by
 * hand against a build's library:
 *
 *   cc -O2 -Ilib -Ibuild/include bench/whole.c build/libcgprof.a -o whole
 */
#include <cgprof.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	if (f == NULL)
		return NULL;
	do {
		if (n == cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 1 << 16);
			if (b == NULL) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	cg_limits lim;
	cg_error err;
	cg_kind k = CG_OK;
	size_t len = 0, count = 0;
	char *buf;
	if (argc != 3 || (buf = slurp(argv[2], &len)) == NULL) {
		fprintf(stderr, "usage: whole parse|funcs|lines|model FILE\n");
		return 2;
	}
	cgi_limits_lift(&lim);
	if (strcmp(argv[1], "parse") == 0) {
		cg_stats st;
		k = cgi_parse(buf, len, &lim, 0, NULL, NULL, &st, &err);
		count = (size_t)st.records;
	} else if (strcmp(argv[1], "funcs") == 0) {
		cg_funcs *f = NULL;
		if ((k = cg_funcs_new(&f, &err)) == CG_OK &&
		    (k = cgi_funcs_add(f, buf, len, &lim, 0, &err)) == CG_OK &&
		    (k = cg_funcs_finish(f, CG_FUNCS_CYCLES, &err)) == CG_OK)
			count = cg_funcs_count(f);
		cg_funcs_free(f);
	} else if (strcmp(argv[1], "lines") == 0) {
		cgi_lines *l = NULL;
		if ((k = cgi_lines_new(&l, &err)) == CG_OK &&
		    (k = cgi_lines_add(l, buf, len, &lim, 0, &err)) == CG_OK &&
		    (k = cgi_lines_finish(l, &err)) == CG_OK)
			count = cgi_lines_count(l);
		cgi_lines_free(l);
	} else if (strcmp(argv[1], "model") == 0) {
		cgi_model *m = NULL;
		if ((k = cgi_model_read(buf, len, &lim, 0, &m, &err)) == CG_OK)
			count = cgi_model_record_count(m);
		cgi_model_free(m);
	} else {
		fprintf(stderr, "whole: unknown call %s\n", argv[1]);
		free(buf);
		return 2;
	}
	free(buf);
	if (k != CG_OK) {
		fprintf(stderr, "%s:%llu: %s: %s\n", argv[2],
		        (unsigned long long)err.line, cg_kind_name(k),
		        err.message);
		return 1;
	}
	printf("%s %zu\n", argv[1], count);
	return 0;
}
