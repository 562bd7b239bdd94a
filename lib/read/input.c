/* input.c - collecting an input in chunks under the byte cap.  Checking
 * waits for the whole input, so any split gives the same verdict. */
#include "internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (64 * 1024)

struct cgi_input {
	char *data;
	size_t size, cap;
	uint64_t limit;
	int refused;
};

/* The one message of an input over the cap, whenever it is found. */
static cg_kind over_cap(cg_error *err, uint64_t cap)
{
	return cgi_fail_limit(err, 0, "input size", "input", cap);
}

cg_kind cgi_input_new(uint64_t cap, uint64_t size_hint, cgi_input **out,
                      cg_error *err)
{
	cgi_input *in;
	*out = NULL;
	if (size_hint > cap)
		return over_cap(err, cap);
	if ((in = cg_calloc(1, sizeof *in)) == NULL)
		return cgi_fail_memory(err, 0);
	in->limit = cap;
	/* one byte more than the file, to see it grow without a realloc; a
	 * failure here only costs the preallocation */
	if (size_hint > 0 && size_hint < SIZE_MAX)
		(void)cgi_grow((void **)&in->data, &in->cap,
		               (size_t)size_hint + 1, 1);
	*out = in;
	return CG_OK;
}

/* Room for need bytes, growing by at least a chunk. */
static int reserve(cgi_input *in, size_t need)
{
	return cgi_grow((void **)&in->data, &in->cap,
	                need < CHUNK && in->cap < CHUNK ? CHUNK : need, 1);
}

cg_kind cgi_input_feed(cgi_input *in, const void *bytes, size_t n,
                       cg_error *err)
{
	if (in->refused || (uint64_t)n > in->limit - in->size) {
		in->refused = 1;
		return over_cap(err, in->limit);
	}
	if (n == 0)
		return CG_OK;
	if (reserve(in, in->size + n) != 0) {
		in->refused = 1;
		return cgi_fail_memory(err, 0);
	}
	memcpy(in->data + in->size, bytes, n);
	in->size += n;
	return CG_OK;
}

cg_kind cgi_input_read_fd(cgi_input *in, int fd, cg_error *err)
{
	for (;;) {
		ssize_t got;
		size_t room;
		if (in->refused)
			return over_cap(err, in->limit);
		if (in->size == in->cap && reserve(in, in->size + CHUNK) != 0) {
			in->refused = 1;
			return cgi_fail_memory(err, 0);
		}
		/* read straight into the buffer, never more than a chunk */
		room = in->cap - in->size;
		got =
		    read(fd, in->data + in->size, room < CHUNK ? room : CHUNK);
		if (got < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			cgi_fail(err, CG_IO, 0, "%s", strerror(e));
			if (err != NULL)
				err->errnum = e;
			return CG_IO;
		}
		if (got == 0)
			return CG_OK;
		if ((uint64_t)got > in->limit - in->size) {
			in->refused = 1;
			return over_cap(err, in->limit);
		}
		in->size += (size_t)got;
	}
}

const char *cgi_input_data(const cgi_input *in)
{
	return in->data != NULL ? in->data : "";
}

size_t cgi_input_size(const cgi_input *in)
{
	return in->size;
}

void cgi_input_free(cgi_input *in)
{
	if (in == NULL)
		return;
	cg_free(in->data);
	cg_free(in);
}
