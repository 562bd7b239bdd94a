/* annotate-source.c - the source files a profile names, found and read
 * with care: the names come from untrusted input, so only a regular file
 * is read (a FIFO or a device named by a hostile profile must neither
 * hang the command nor be read), and only up to SOURCE_MAX bytes. */
#define _POSIX_C_SOURCE 200809L
#include "annotate.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void refuse(source *s, const char *path, const char *why)
{
	if (s->why[0] == '\0')
		snprintf(s->why, sizeof s->why, "%.100s: %s", path, why);
}

/* Read the whole regular file at fd into s; 0, -1 after refuse, or -2
 * out of memory. */
static int read_all(source *s, int fd, const char *path)
{
	struct stat st;
	size_t cap;
	if (fstat(fd, &st) != 0) {
		refuse(s, path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse(s, path, "not a regular file: not read");
		return -1;
	}
	if (st.st_size < 0 || (uint64_t)st.st_size > SOURCE_MAX) {
		refuse(s, path,
		       "over the 16 MiB a source file may hold: not read");
		return -1;
	}
	/* the size may change while it is read: the cap holds whatever */
	cap = (size_t)st.st_size + 1;
	if ((s->data = malloc(cap)) == NULL)
		return -2;
	for (;;) {
		ssize_t got;
		if (s->size == cap) {
			char *p;
			if (cap > SOURCE_MAX) {
				refuse(s, path,
				       "grew over 16 MiB while read: not read");
				return -1;
			}
			cap = cap * 2 > (size_t)SOURCE_MAX + 1
			          ? (size_t)SOURCE_MAX + 1
			          : cap * 2;
			if ((p = realloc(s->data, cap)) == NULL)
				return -2;
			s->data = p;
		}
		got = read(fd, s->data + s->size, cap - s->size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			refuse(s, path, strerror(errno));
			return -1;
		}
		if (got == 0)
			break;
		s->size += (size_t)got;
	}
	s->mtime = st.st_mtim;
	return 0;
}

/* Try one candidate: SOURCE_FOUND, SOURCE_MISSING, SOURCE_REFUSED or
 * SOURCE_NOMEM. */
static int try_path(source *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	const char *p, *end;
	int r;
	if (fd < 0) {
		if (errno == ENOENT || errno == ENOTDIR ||
		    errno == ENAMETOOLONG)
			return SOURCE_MISSING;
		refuse(s, path, strerror(errno));
		return SOURCE_REFUSED;
	}
	if ((r = read_all(s, fd, path)) != 0) {
		close(fd);
		free(s->data);
		s->data = NULL;
		s->size = 0;
		return r == -2 ? SOURCE_NOMEM : SOURCE_REFUSED;
	}
	close(fd);
	if ((s->path = strdup(path)) == NULL)
		return SOURCE_NOMEM;
	/* lines: a last line without a line ending is one */
	for (p = s->data, end = s->data + s->size; p < end; s->lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		p = nl != NULL ? nl + 1 : end;
	}
	s->at_line = 1;
	s->at_off = 0;
	return SOURCE_FOUND;
}

/* dir/tail into t (a path the OS takes: no NUL in a profile's names). */
static void join(cgi_buf *t, const char *dir, const char *tail, size_t n)
{
	text_clear(t);
	if (dir != NULL) {
		cgi_buf_puts(t, dir);
		if (t->len > 0 && t->ptr[t->len - 1] != '/')
			cgi_buf_put(t, "/", 1);
	}
	cgi_buf_put(t, tail, n);
}

int source_find(cg_str name, const char *const *dirs, size_t ndirs, source *s)
{
	cgi_buf t = CGI_BUF_INIT;
	int ret = SOURCE_MISSING, r;
	size_t d, i;
	memset(s, 0, sizeof *s);
	if (name.len == 0)
		return SOURCE_MISSING;
	join(&t, NULL, name.ptr, name.len);
	r = t.failed ? SOURCE_NOMEM : try_path(s, t.ptr);
	if (r == SOURCE_FOUND || r == SOURCE_NOMEM)
		goto out;
	ret = r;
	for (d = 0; d < ndirs; d++)
		/* the name, then each tail after a '/', longest first */
		for (i = 0; i < name.len; i++) {
			if (i > 0 && name.ptr[i - 1] != '/')
				continue;
			if (name.ptr[i] == '/')
				continue;
			join(&t, dirs[d], name.ptr + i, name.len - i);
			if (t.failed) {
				r = SOURCE_NOMEM;
				goto out;
			}
			if ((r = try_path(s, t.ptr)) == SOURCE_FOUND ||
			    r == SOURCE_NOMEM)
				goto out;
			if (r == SOURCE_REFUSED)
				ret = r;
		}
	r = ret;
out:
	cgi_buf_free(&t);
	return r;
}

cg_str source_line(source *s, uint64_t n)
{
	const char *end = s->data + s->size;
	cg_str line;
	const char *nl;
	if (n < s->at_line) {
		s->at_line = 1;
		s->at_off = 0;
	}
	while (s->at_line < n) {
		nl = memchr(s->data + s->at_off, '\n', s->size - s->at_off);
		s->at_off = nl != NULL ? (size_t)(nl + 1 - s->data) : s->size;
		s->at_line++;
	}
	line.ptr = s->data + s->at_off;
	nl = memchr(line.ptr, '\n', (size_t)(end - line.ptr));
	line.len = (size_t)((nl != NULL ? nl : end) - line.ptr);
	if (line.len > 0 && line.ptr[line.len - 1] == '\r')
		line.len--;
	return line;
}

void source_free(source *s)
{
	free(s->path);
	free(s->data);
	s->path = s->data = NULL;
}
