/* verdicts.h - the verdict table: one input per rule of the profile, its
 * verdict and line, each row naming the seed or decisions sentence it
 * checks.  Shared by test_lib.c (the verdicts) and test_alloc.c (the same
 * inputs with every allocation failing in turn). */
#ifndef CGPROF_TEST_VERDICTS_H
#define CGPROF_TEST_VERDICTS_H

#include "cgprof.h"

enum { OK = CG_OK, SYN = CG_SYNTAX, UNS = CG_UNSUPPORTED, RES = CG_RESOURCE };

typedef struct vcase {
	const char *name;
	const char *input;
	int kind;
	unsigned line;
} vcase;

#define E  "events: A\n"
#define EF "events: A\nfn=f\n"

static const vcase verdicts[] = {
    /* Accepted: version omitted or 1; events once per part; line default */
    {"minimal", EF "1 1\n", OK, 0},
    {"version 1", "version: 1\n" EF "1 1\n", OK, 0},
    {"version 01 and 0x1", "version: 01\nversion: 0x1\n" EF "1 1\n", OK, 0},
    {"version 2", "version: 2\n" EF "1 1\n", UNS, 1},
    {"version dotted", "version: 0.9.6\n" EF, UNS, 1},
    {"version text", "version: abc\n" EF, SYN, 1},
    {"version empty", "version:\n" EF, SYN, 1},
    {"version 21 digits", "version: 000000000000000000001\n" EF, RES, 1},
    {"version in a later header block", EF "1 1\nversion: 1\n" EF "1 1\n", OK,
     0},
    {"version 2 in a later block", EF "1 1\nversion: 2\n" EF, UNS, 4},
    {"events twice", E "events: B\nfn=f\n", SYN, 2},
    {"events empty", "events:\nfn=f\n", SYN, 1},
    {"events duplicate", "events: A B A\n", SYN, 1},
    {"events name any non-blank", "events: Time_(10ns) x:y\nfn=f\n1 1 2\n", OK,
     0},
    {"part without events", "cmd: x\nfn=f\n1 1\n", SYN, 1},
    {"part without events body first", "\n# c\nfn=f\n", SYN, 3},
    {"second part without events", EF "1 1\ncmd: y\nfn=g\n", SYN, 4},
    /* positions */
    {"positions all", "positions: instr bb line\n" EF "1 2 3 4\n", OK, 0},
    {"positions bb", "positions: bb\n" EF "0x10 4\n", OK, 0},
    {"positions order", "positions: line instr\n" E, SYN, 1},
    {"positions repeat", "positions: line line\n" E, SYN, 1},
    {"positions unknown", "positions: addr\n" E, UNS, 1},
    {"positions empty", "positions:\n" E, SYN, 1},
    {"positions twice", "positions: line\npositions: instr\n" E, SYN, 2},
    {"positions case", "positions: Line\n" E, UNS, 1},
    /* numbers */
    {"hex lowercase", EF "0x1f 0xff\n", OK, 0},
    {"hex uppercase digits", EF "0x1F 1\n", SYN, 3},
    {"hex 0X", EF "0X1f 1\n", SYN, 3},
    {"hex empty", EF "0x 1\n", SYN, 3},
    {"cost signed", EF "1 +1\n", SYN, 3},
    {"cost 20 digits", EF "1 18446744073709551615\n", OK, 0},
    {"cost 2^64", EF "1 18446744073709551616\n", RES, 3},
    {"cost 21 digits", EF "1 000000000000000000001\n", RES, 3},
    {"hex 20 digits", EF "1 0x0000ffffffffffffffff\n", OK, 0},
    {"hex 21 digits", EF "1 0x000000000000000000001\n", RES, 3},
    {"hex over", EF "1 0x10000000000000000\n", RES, 3},
    {"cr inside number", EF "1 2\r3\n", SYN, 3},
    /* positions: relative forms */
    {"delta plus minus star", EF "10 1\n+5 1\n-3 1\n* 1\n", OK, 0},
    {"delta negative", EF "1 1\n-2 1\n", RES, 4},
    {"delta overflow", EF "18446744073709551615 1\n+1 1\n", RES, 4},
    {"star with digits", EF "*1 1\n", SYN, 3},
    {"plus alone", EF "+ 1\n", SYN, 3},
    {"bases reset per part", EF "5 1\n" EF "-1 1\n", RES, 6},
    /* costs */
    {"omitted costs", "events: A B C\nfn=f\n1 1\n2\n", OK, 0},
    {"extra cost", EF "1 1 2\n", SYN, 3},
    {"missing position column", "positions: instr line\n" EF "1\n", SYN, 4},
    /* lines */
    {"blank and comments", "# hi\n\n   \n" EF "  # indented comment\n1 1\n", OK,
     0},
    {"leading blank", EF " 1 1\n", SYN, 3},
    {"leading tab header", "\tevents: A\n", SYN, 1},
    {"trailing blanks", "events: A  \t\nfn=f \n1 1 \n", OK, 0},
    {"crlf", "events: A\r\nfn=f\r\n1 1\r\n", OK, 0},
    {"no final newline", EF "1 1", OK, 0},
    {"garbage line", EF "@ 1\n", SYN, 3},
    {"key without colon", EF "fn main\n", SYN, 3},
    {"header with = in value", "cmd:  prog --size=10\n" EF "1 1\n", OK, 0},
    {"case-sensitive header", "Events: A\nfn=f\n", SYN, 1},
    {"case-sensitive directive", EF "FN=g\n", UNS, 3},
    /* directives */
    {"jump", EF "1 1\njump=1 2\n", UNS, 4},
    {"jcnd", EF "jcnd=1/2 3\n", UNS, 3},
    {"unknown directive", EF "xyz=1\n", UNS, 3},
    {"cost before fn", E "fl=a\n1 1\n", SYN, 3},
    {"empty fn counts", E "fn=\n1 1\n", OK, 0},
    {"calls without cfn", EF "calls=1 2\n1 1\n", SYN, 3},
    {"calls before fn", E "cfn=g\ncalls=1 2\n1 1\n", SYN, 3},
    {"cfn cleared by fn", EF "cfn=g\nfn=h\ncalls=1 2\n1 1\n", SYN, 5},
    {"calls target count", EF "cfn=g\ncalls=1\n1 1\n", SYN, 4},
    {"calls too many targets", EF "cfn=g\ncalls=1 2 3\n1 1\n", SYN, 4},
    {"calls count hex", EF "cfn=g\ncalls=0x2 2\n1 1\n", OK, 0},
    {"calls count signed", EF "cfn=g\ncalls=+2 2\n1 1\n", SYN, 4},
    {"calls then directive", EF "cfn=g\ncalls=1 2\nfn=h\n1 1\n", SYN, 5},
    {"calls then header", EF "cfn=g\ncalls=1 2\nevents: B\n", SYN, 5},
    {"calls then jump", EF "cfn=g\ncalls=1 2\njump=1 2\n", SYN, 5},
    {"calls then comment", EF "cfn=g\ncalls=1 2\n# c\n\n1 1\n", OK, 0},
    {"calls at eof", EF "cfn=g\ncalls=1 2\n", SYN, 4},
    {"calls at eof after comment", EF "cfn=g\ncalls=1 2\n# c\n", SYN, 4},
    {"callee reused", EF "cfn=g\ncalls=1 2\n1 1\ncalls=1 2\n1 1\n", OK, 0},
    {"callee not across parts", EF "cfn=g\n" EF "calls=1 2\n1 1\n", SYN, 6},
    /* names */
    {"compressed define and use", E "fn=(1) main\nfn=(1)\n1 1\n", OK, 0},
    {"compressed without blank", E "fn=(1)main\n", SYN, 2},
    {"compressed hex id", E "fn=(0x1) a\n", SYN, 2},
    {"compressed bad id", E "fn=(12x) a\n", SYN, 2},
    {"compressed id 0", E "fn=(0) a\nfn=(0)\n1 1\n", OK, 0},
    {"compressed 01 is 1", E "fn=(1) a\nfn=(01)\n1 1\n", OK, 0},
    {"compressed 21-digit id", E "fn=(000000000000000000001) a\n", RES, 2},
    {"unknown id", E "fn=(3)\n", SYN, 2},
    {"unknown id in override", EF "cob=(4)\n", SYN, 3},
    {"id reference with blanks", E "fn=(1) a\nfn=(1)   \n1 1\n", OK, 0},
    {"paren name is plain", E "fn=(below main)\n1 1\n", OK, 0},
    {"namespaces separate", E "fl=(1) a.c\nfn=(1)\n", SYN, 3},
    {"file aliases share",
     E "fi=(1) a.h\nfn=f\ncfl=(1)\ncfn=g\ncalls=1 1\n1 1\n", OK, 0},
    {"empty names", E "ob=\nfl=\nfi=\nfn=\ncob=\ncfi=\ncfn=\ncalls=1 1\n1 1\n",
     OK, 0},
    {"dictionaries survive parts", E "fn=(1) a\n1 1\n" E "fn=(1)\n1 1\n", OK,
     0},
    /* parts */
    {"header after body starts part", EF "1 1\nevents: B\nfn=g\n1 1\n", OK, 0},
    {"totals trailer", EF "1 1\ntotals: 1\n", OK, 0},
    {"totals in headers", E "summary: 0\ntotals: 0\n", OK, 0},
    {"body after totals", EF "1 1\ntotals: 1\n2 2\n", SYN, 5},
    {"directive after totals", EF "1 1\ntotals: 1\nfn=g\n", SYN, 5},
    {"header after totals new part", EF "totals: 1\n" EF "1 1\n", OK, 0},
    {"totals after totals", EF "totals: 1\ntotals: 1\n", SYN, 4},
    {"totals before events", "totals: 1\n", SYN, 1},
    {"repeated part", "part: 1\n" E "part: 2\n" E, OK, 0},
    {"repeated part no events", "part: 1\npart: 2\n" E, SYN, 1},
    {"no part at all", "# only\n\n", SYN, 0},
    {"empty input", "", SYN, 0},
    /* summary and totals */
    {"summary 1..N", "events: A B\nsummary: 1\nfn=f\n", OK, 0},
    {"summary too many", "events: A\nsummary: 1 2\n", SYN, 2},
    {"summary none", E "summary:\n", SYN, 2},
    {"summary before events", "summary: 1 2\nevents: A B\n", OK, 0},
    {"summary before events too many", "summary: 1 2 3\nevents: A B\n", SYN, 1},
    {"summary bad number", E "summary: x\n", SYN, 2},
    {"summary differs from costs", "events: A\nsummary: 99\nfn=f\n1 1\n", OK,
     0},
    {"totals too many", EF "1 1\ntotals: 1 2\n", SYN, 4},
    {"totals over 2^64", EF "totals: 18446744073709551616\n", RES, 3},
    /* text */
    {"utf8 names", E "fn=caf\xc3\xa9 \xf0\x9f\x98\x80\n1 1\n", OK, 0},
    {"bad utf8", E "fn=\xff\n", SYN, 2},
    {"overlong utf8", E "fn=\xc0\xaf\n", SYN, 2},
    {"surrogate utf8", E "fn=\xed\xa0\x80\n", SYN, 2},
    {"past U+10FFFF", E "fn=\xf4\x90\x80\x80\n", SYN, 2},
    {"truncated utf8 at end", E "fn=\xe2\x82", SYN, 2},
    {"utf8 error wins over parse error", "junk\n" E "fn=\xff\n", SYN, 3},
    {"bom", "\xef\xbb\xbf" E, SYN, 1},
    {"gzip", "\x1f\x8b\x08\x00", UNS, 1},
};

#define NVERDICTS (sizeof verdicts / sizeof verdicts[0])

#endif
