/* replay.c - runs a fuzz target over files and folders without libFuzzer,
 * so that every build replays the seeds and the regressions found. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t n = 0, cap = 0, got;
	if (f == NULL) {
		perror(path);
		return 1;
	}
	do {
		if (n + 65536 > cap) {
			cap = (n + 65536) * 2;
			p = realloc(p, cap);
			if (p == NULL)
				abort();
		}
		got = fread(p + n, 1, 65536, f);
		n += got;
	} while (got > 0);
	fclose(f);
	LLVMFuzzerTestOneInput(p, n);
	free(p);
	return 0;
}

static int run_path(const char *path, int *files)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	int bad = 0;
	if (stat(path, &st) != 0) {
		perror(path);
		return 1;
	}
	if (!S_ISDIR(st.st_mode)) {
		(*files)++;
		return run_file(path);
	}
	d = opendir(path);
	if (d == NULL) {
		perror(path);
		return 1;
	}
	while ((e = readdir(d)) != NULL) {
		char sub[4096];
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
		bad |= run_path(sub, files);
	}
	closedir(d);
	return bad;
}

int main(int argc, char **argv)
{
	int i, bad = 0, files = 0;
	for (i = 1; i < argc; i++)
		bad |= run_path(argv[i], &files);
	printf("%d inputs replayed\n", files);
	return bad || files == 0;
}
