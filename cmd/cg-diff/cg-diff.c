/* cg-diff - what changed per function between two profiles, or per
 * profile between two folders of them, and a gate on the growth of
 * totals for Makefiles and CI. */
#define _DEFAULT_SOURCE
#include "diff.h"
#include "out.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* clang-format off */
static const char synopsis[] =
    "usage: cg-diff [-aHT] [-e EV[,EV...]] [-s KEY] [-t PCT | -m MIN] [-n N]\n"
    "               " CLI_RENAME_USAGE "\n"
    "               [--fail-above [FN:]EV=PCT]... [--tsv] [--no-cycles]\n"
    "               " CLI_COMMON_USAGE " OLD NEW\n"
    "       cg-diff [-aHT] [-e EV[,EV...]] [-t PCT | -m MIN]\n"
    "               " CLI_RENAME_USAGE "\n"
    "               [--fail-above [FN:]EV=PCT]... [--fail-unpaired] [--tsv]\n"
    "               [--no-cycles]\n"
    "               " CLI_COMMON_USAGE " OLD_DIR NEW_DIR\n";

static const char help[] =
    "Compare two profiles function by function (- is standard input),\n"
    "or the profiles of two folders, paired by their paths, by totals.\n"
    "  -a, --all          also print functions that did not change\n"
    "  -e, --events EV[,EV...]\n"
    "                     only these events, in this order\n"
    "  -H, --no-header    do not print the header row\n"
    "  -m, --min MIN      keep rows whose sort delta is at least MIN\n"
    "  -n, --top N        print only the first N rows\n"
    "  -s, --sort KEY     sort by the size of a delta column (EV:delta,\n"
    "                     EV:incl:delta, called:delta)\n"
    "  -T, --totals       print only the totals of each event\n"
    "  -t, --threshold PCT  keep rows whose sort delta is at least PCT%\n"
    "                     of the event's old total\n"
    CLI_RENAME_HELP
    "  --fail-above EV=PCT  exit 3 when the total of EV grows by more\n"
    "                     than PCT percent\n"
    "  --fail-above FN:EV=PCT  exit 3 when the inclusive cost of EV of\n"
    "                     the functions named FN grows by more than PCT%\n"
    "  --fail-unpaired    (folders) exit 3 when a profile has no pair\n"
    CLI_TSV_HELP
    CLI_NO_CYCLES_HELP
    CLI_COMMON_HELP
    CLI_ANY_SIZE_HELP
    "Columns: status ob fl fn called:old called:new, then per event\n"
    "EV:old EV:new EV:delta EV:pct EV:incl:old EV:incl:new\n"
    "EV:incl:delta EV:incl:pct.\n"
    "Rows of address-only names (0x...) sort after the named ones.\n"
    "Two folders: every file below each but the hidden ones is a profile\n"
    "(links to folders are not followed), paired by its path below its\n"
    "folder, a trailing .gz left out.  One row a pair, in the byte order\n"
    "of the names: status (changed, same, added, removed) name, then per\n"
    "event EV:old EV:new EV:delta EV:pct of the totals, as -T has them;\n"
    "last their sum, status total and name /.  A gate holds for every\n"
    "pair; each that fails is listed on stderr.  -s, -n: two profiles.\n";
/* clang-format on */

/* Exit statuses in words of its own (cli_print_exit_help). */
static const cli_meaning statuses[] = {
    {0, "every gate holds"}, {3, "a gate fails"}, {0, NULL}};

enum { OPT_FAIL = OPT_OWN, OPT_TSV, OPT_UNPAIRED };

static void parse_options(cli *c, options *o, int argc, char **argv)
{
	static const struct option longopts[] = {
	    CLI_LONG_OPTIONS,
	    {"all", no_argument, NULL, 'a'},
	    {"events", required_argument, NULL, 'e'},
	    {"no-header", no_argument, NULL, 'H'},
	    {"min", required_argument, NULL, 'm'},
	    {"top", required_argument, NULL, 'n'},
	    {"sort", required_argument, NULL, 's'},
	    {"totals", no_argument, NULL, 'T'},
	    {"threshold", required_argument, NULL, 't'},
	    CLI_RENAME_OPTIONS,
	    {"fail-above", required_argument, NULL, OPT_FAIL},
	    {"fail-unpaired", no_argument, NULL, OPT_UNPAIRED},
	    {"tsv", no_argument, NULL, OPT_TSV},
	    CLI_NO_CYCLES_OPTION,
	    {NULL, 0, NULL, 0}};
	int ch;
	while ((ch = getopt_long(argc, argv, "hVj:ae:Hm:n:s:Tt:", longopts,
	                         NULL)) != -1) {
		switch (ch) {
		case 'a':
			o->all = 1;
			break;
		case 'e':
			o->events = optarg;
			break;
		case 'H':
			o->header = 0;
			break;
		case 's':
			o->sort = optarg;
			break;
		case 'T':
			o->totals = 1;
			break;
		case 'n':
			o->has_top = 1;
			cli_parse_count(c, "-n", optarg,
			                "expected a number of rows", &o->top);
			break;
		case 'm':
			o->has_min = 1;
			cli_parse_count(c, "-m", optarg,
			                "expected a whole number", &o->min);
			break;
		case 't':
			o->has_pct = 1;
			cli_parse_percent(c, "-t", optarg, 1, &o->pct_num,
			                  &o->pct_scale);
			break;
		case OPT_FAIL:
			diff_add_gate(c, o, optarg);
			break;
		case OPT_UNPAIRED:
			o->fail_unpaired = 1;
			break;
		case OPT_TSV:
			o->tsv = 1;
			break;
		default:
			cli_common_option(c, ch, optarg);
		}
	}
	if (o->has_min && o->has_pct)
		cli_usage(c, "-t and -m go one at a time");
}

/* 1 if path names a folder (- never does). */
static int is_folder(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 &&
	       S_ISDIR(st.st_mode);
}

/* Two folders, or two profiles: the options the other mode has not are
 * usage errors.  1 for two folders. */
static int pick_mode(cli *c, const options *o, char **operands)
{
	int dirs = is_folder(operands[0]) + is_folder(operands[1]);
	if (dirs == 1)
		cli_usage(c,
		          "%s is a folder and %s is not: compare two profiles "
		          "or two folders",
		          is_folder(operands[0]) ? operands[0] : operands[1],
		          is_folder(operands[0]) ? operands[1] : operands[0]);
	if (dirs == 0) {
		if (o->fail_unpaired)
			cli_usage(c, "--fail-unpaired: only with two folders");
		if (strcmp(operands[0], "-") == 0 &&
		    strcmp(operands[1], "-") == 0)
			cli_usage(c,
			          "OLD and NEW cannot both be standard input");
		return 0;
	}
	if (o->sort != NULL)
		cli_usage(c, "-s: the rows of two folders are in the order of "
		             "their names");
	if (o->has_top)
		cli_usage(c,
		          "-n: two folders have one row a pair, and their sum");
	return 1;
}

int main(int argc, char **argv)
{
	options o;
	cli c;
	int dirs;

	memset(&o, 0, sizeof o);
	o.header = 1;
	cli_init(&c, "cg-diff", synopsis, help);
	c.statuses = statuses;
	cli_read_any_size(&c);
	parse_options(&c, &o, argc, argv);
	argc -= optind;
	argv += optind;
	if (argc != 2)
		cli_usage(&c,
		          "expected two profiles, OLD and NEW, or two folders");
	dirs = pick_mode(&c, &o, argv);

	/* on a terminal the rows aligned: status ob fl fn are text, ob and fl
	 * paths (with -T: event; of two folders: status and name) */
	{
		out_shape sh = {0, 15, 2, 4, 0};
		sh.header = o.header;
		if (o.totals)
			sh.text = 1, sh.objects = sh.files = 0;
		if (dirs)
			sh.text = 3, sh.objects = sh.files = 0;
		cli_table(o.tsv, &sh);
	}
	cli_status(&c,
	           dirs ? diff_dirs(&c, &o, argv) : diff_files(&c, &o, argv));
	free(o.gates);
	return cli_exit_status(&c);
}
