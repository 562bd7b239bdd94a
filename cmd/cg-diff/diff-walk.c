/* diff-walk.c - the profiles under two folders, paired by their paths
 * below them.  Every file is a profile but a hidden one: an entry whose
 * name starts with '.' (an editor's, a VCS's, a command's temporary
 * file) is left out, a folder of that name with all it holds.  A symbolic
 * link to a file is read as the file; one to a folder is not followed, so
 * that no link leads the walk in a loop or out of the folder; a link to
 * nothing, a FIFO, a device or a socket is no profile.  A profile's name
 * is its path below its folder with a trailing .gz left out, so that
 * x.out.gz pairs with x.out; names are in byte order, whatever order the
 * folders list them in. */
#define _POSIX_C_SOURCE 200809L
#include "diff.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A profile found: its name and its path. */
typedef struct found {
	char *name, *path;
} found;

typedef struct list {
	found *v;
	size_t n, cap;
} list;

/* The names of a folder's entries. */
typedef struct names {
	char **v;
	size_t n, cap;
} names;

/* a "/" b, without a second '/' when a ends with one; NULL out of
 * memory. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = la > 0 && a[la - 1] != '/';
	char *s = malloc(la + (size_t)slash + lb + 1);
	if (s == NULL)
		return NULL;
	memcpy(s, a, la);
	if (slash)
		s[la] = '/';
	memcpy(s + la + (size_t)slash, b, lb + 1);
	return s;
}

static void names_free(names *d)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		free(d->v[i]);
	free(d->v);
}

static void list_free(list *l)
{
	size_t i;
	for (i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].path);
	}
	free(l->v);
}

/* The entries of folder path but the hidden ones, read whole before the
 * walk goes down, so that it holds one folder open at a time: 0, or -1
 * after saying why. */
static int list_folder(cli *c, const char *path, names *d)
{
	DIR *dir = opendir(path);
	struct dirent *e;
	int oom = 0, failed = 0;
	if (dir == NULL) {
		cli_trouble(c, path, strerror(errno));
		return -1;
	}
	for (errno = 0; !oom && (e = readdir(dir)) != NULL; errno = 0) {
		if (e->d_name[0] == '.')
			continue;
		if (cli_grow((void **)&d->v, &d->cap, d->n + 1, sizeof *d->v) ||
		    (d->v[d->n] = strdup(e->d_name)) == NULL)
			oom = 1;
		else
			d->n++;
	}
	if (oom)
		cli_oom(c, path);
	else if ((failed = errno) != 0)
		cli_trouble(c, path, strerror(failed));
	closedir(dir);
	return oom || failed ? -1 : 0;
}

/* name: rel with a trailing .gz left out. */
static char *profile_name(const char *rel)
{
	size_t n = strlen(rel);
	char *s;
	if (n > 3 && strcmp(rel + n - 3, ".gz") == 0)
		n -= 3;
	if ((s = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(s, rel, n);
	s[n] = '\0';
	return s;
}

/* Keep the file at path (rel below the folder): 0, or -1 out of memory. */
static int add_profile(cli *c, list *l, const char *rel, char *path)
{
	found *f;
	if (cli_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v)) {
		cli_oom(c, NULL);
		return -1;
	}
	f = &l->v[l->n];
	if ((f->name = profile_name(rel)) == NULL) {
		cli_oom(c, NULL);
		return -1;
	}
	f->path = path;
	l->n++;
	return 0;
}

static int walk(cli *c, const char *root, const char *rel, list *l);

/* Entry rel of the folder root: a folder walked, a file kept, a link to
 * a file kept; anything else left out.  0, or -1 after saying why. */
static int visit(cli *c, const char *root, const char *rel, list *l)
{
	struct stat st;
	char *path = join(root, rel);
	int r = 0;
	if (path == NULL) {
		cli_oom(c, NULL);
		return -1;
	}
	if (lstat(path, &st) != 0) {
		cli_trouble(c, path, strerror(errno));
		r = -1;
	} else if (S_ISDIR(st.st_mode))
		r = walk(c, root, rel, l);
	else if (S_ISREG(st.st_mode) ||
	         (S_ISLNK(st.st_mode) && stat(path, &st) == 0 &&
	          S_ISREG(st.st_mode))) {
		if (add_profile(c, l, rel, path) == 0)
			return 0; /* the list holds path */
		r = -1;
	}
	free(path);
	return r;
}

/* The profiles of the folder rel below root (rel NULL: root itself). */
static int walk(cli *c, const char *root, const char *rel, list *l)
{
	names d = {NULL, 0, 0};
	char *path = rel != NULL ? join(root, rel) : NULL;
	size_t i;
	int r;
	if (rel != NULL && path == NULL) {
		cli_oom(c, NULL);
		return -1;
	}
	r = list_folder(c, path != NULL ? path : root, &d);
	free(path);
	for (i = 0; r == 0 && i < d.n; i++) {
		char *child = rel != NULL ? join(rel, d.v[i]) : strdup(d.v[i]);
		if (child == NULL) {
			cli_oom(c, NULL);
			r = -1;
			break;
		}
		r = visit(c, root, child, l);
		free(child);
	}
	names_free(&d);
	return r;
}

static int by_name(const void *pa, const void *pb)
{
	const found *a = pa, *b = pb;
	int r = strcmp(a->name, b->name);
	return r != 0 ? r : strcmp(a->path, b->path);
}

/* The side's profiles in the order of their names; two of one name
 * (x.out and x.out.gz) are trouble: which to compare is not ours to
 * guess. */
static int sort_side(cli *c, list *l)
{
	size_t i;
	if (l->n > 1)
		qsort(l->v, l->n, sizeof *l->v, by_name);
	for (i = 1; i < l->n; i++)
		if (strcmp(l->v[i - 1].name, l->v[i].name) == 0) {
			fprintf(stderr,
			        "%s: %s and %s: two profiles of one name (a "
			        "trailing .gz is left out of it)\n",
			        c->prog, l->v[i - 1].path, l->v[i].path);
			cli_status(c, EXIT_TROUBLE);
			return -1;
		}
	return 0;
}

/* The two sorted sides merged into pairs; the pairs take the strings. */
static int merge(cli *c, list side[2], diff_pair **out, size_t *n)
{
	size_t i[2] = {0, 0}, cap = 0;
	*out = NULL;
	*n = 0;
	while (i[0] < side[0].n || i[1] < side[1].n) {
		found *f[2] = {NULL, NULL};
		diff_pair *p;
		int s, cmp = i[0] == side[0].n   ? 1
		             : i[1] == side[1].n ? -1
		                                 : strcmp(side[0].v[i[0]].name,
		                                          side[1].v[i[1]].name);
		if (cli_grow((void **)out, &cap, *n + 1, sizeof **out)) {
			cli_oom(c, NULL);
			return -1;
		}
		if (cmp <= 0)
			f[0] = &side[0].v[i[0]++];
		if (cmp >= 0)
			f[1] = &side[1].v[i[1]++];
		p = &(*out)[(*n)++];
		for (s = 0; s < 2; s++) {
			p->path[s] = f[s] != NULL ? f[s]->path : NULL;
			if (f[s] != NULL)
				f[s]->path = NULL;
		}
		p->name = f[0] != NULL ? f[0]->name : f[1]->name;
		(f[0] != NULL ? f[0] : f[1])->name = NULL;
	}
	return 0;
}

int diff_walk(cli *c, char *const dirs[2], diff_pair **pairs, size_t *n)
{
	list side[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
	int r = -1;
	*pairs = NULL;
	*n = 0;
	if (walk(c, dirs[0], NULL, &side[0]) == 0 &&
	    walk(c, dirs[1], NULL, &side[1]) == 0 &&
	    sort_side(c, &side[0]) == 0 && sort_side(c, &side[1]) == 0)
		r = merge(c, side, pairs, n);
	list_free(&side[0]);
	list_free(&side[1]);
	if (r != 0) {
		diff_pairs_free(*pairs, *n);
		*pairs = NULL;
		*n = 0;
	}
	return r;
}

void diff_pairs_free(diff_pair *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(p[i].name);
		free(p[i].path[0]);
		free(p[i].path[1]);
	}
	free(p);
}
