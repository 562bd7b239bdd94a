#!/usr/bin/env bats
# Per-function totals summed from cg-tsv rows against callgrind_annotate,
# the reader users run today.  Self totals are the cost rows of FILE:FN (FILE
# the line's file, as annotate keys it); inclusive totals add the function's
# call rows.  Every difference must be one of annotate's rules, named by
# tests/annotate/compare.sh: "calls=0" and "callee-sum".
load common

compare() { "$TESTS_DIR/annotate/compare.sh" "$CG_BINDIR" "$@"; }

@test "shipped valgrind corpus: every difference from annotate is explained" {
    n=0
    for f in "$CORPUS"/valgrind/*.callgrind; do
        b=${f%.callgrind}
        validate "$f" 2>/dev/null || continue
        run -0 compare "$f" "$b.annotate-self.txt" "$b.annotate-incl.txt"
        if [[ "$output" == *unexplained* ]]; then
            echo "$f:"; echo "$output" | grep unexplained | head
            false
        fi
        n=$((n + 1))
    done
    [ "$n" -ge 5 ]
}

@test "self totals agree exactly where no calls=0 call is involved" {
    run -0 compare "$CORPUS/valgrind/v07-inline-default.callgrind" \
        "$CORPUS/valgrind/v07-inline-default.annotate-self.txt" \
        "$CORPUS/valgrind/v07-inline-default.annotate-incl.txt"
    no_line '^self' <<< "$output"
}

@test "calls=0: annotate adds the call's cost to the caller's self cost" {
    run -0 compare "$CORPUS/valgrind/v28-inline-dumpbefore-part2.callgrind" \
        "$CORPUS/valgrind/v28-inline-dumpbefore-part2.annotate-self.txt" \
        "$CORPUS/valgrind/v28-inline-dumpbefore-part2.annotate-incl.txt"
    grep '^self' <<< "$output" > "$BATS_TEST_TMPDIR/self"
    [ "$(wc -l < "$BATS_TEST_TMPDIR/self")" -eq 4 ]
    no_line -v 'calls=0$' "$BATS_TEST_TMPDIR/self"
}

# A hand-made profile that shows both rules with numbers one can check.
write_rules() {
    cat > "$1" <<'CG'
events: Ir
fl=a.c
fn=main
1 10
cfn=f
calls=0 5
1 7
cfn=g
calls=1 5
2 100
fn=g
5 60
cfn=g
calls=1 5
5 40
CG
}

@test "both rules on a hand-made profile, against a live callgrind_annotate" {
    command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
    T=$BATS_TEST_TMPDIR
    write_rules "$T/rules.cg"
    callgrind_annotate --auto=no --inclusive=no --threshold=100 "$T/rules.cg" > "$T/self.txt"
    callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$T/rules.cg" > "$T/incl.txt"
    run -0 compare "$T/rules.cg" "$T/self.txt" "$T/incl.txt"
    # main: self 10 (annotate 17: the calls=0 cost 7); g: inclusive 100 (its
    # 60 plus its recursive call's 40), annotate 140 (the calls into g: 100 + 40)
    [ "$output" = "$(printf 'incl\ta.c:g\t100\t140\tcallee-sum\nself\ta.c:main\t10\t17\tcalls=0')" ]
}

# bats test_tags=valgrind
@test "fresh recording: every difference from a live callgrind_annotate is explained" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    T=$BATS_TEST_TMPDIR
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/h.cg" "$T/hanoi" > /dev/null
    # annotate prints file names relative to its working directory: run it
    # where no source file lives
    cd "$T"
    callgrind_annotate --auto=no --inclusive=no --threshold=100 "$T/h.cg" > "$T/self.txt"
    callgrind_annotate --auto=no --inclusive=yes --threshold=100 "$T/h.cg" > "$T/incl.txt"
    run -0 compare "$T/h.cg" "$T/self.txt" "$T/incl.txt"
    no_line unexplained <<< "$output"
    no_line '^self' <<< "$output"
    # valgrind names recursion levels f'2, so main and hanoi agree in full
    no_line $'hanoi.c:main\t' <<< "$output"
    no_line $'hanoi.c:hanoi\t' <<< "$output"
}
