#!/bin/sh
# run.sh FUZZDIR SECONDS - run each libFuzzer target of a -DCGPROF_FUZZ=ON
# build (FUZZDIR: its tests/fuzz folder) for SECONDS, seeded with the
# conformance cases, the shipped corpus and the regressions, with the
# format's dictionary (fuzz_mlton: its own seeds, tests/fuzz/mlton;
# fuzz_folded: cg-fold's output, tests/fuzz/folded, no dictionary;
# fuzz_pego: the pego examples and tests/fuzz/regressions-pego, no
# dictionary).  A crash leaves its input in FUZZDIR/crash-TARGET-* (add it
# to the target's regressions or seed folder).  Prints "N passed, M failed".
dir=$1 seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
# fuzz TARGET ARG...: run one target over its own corpus and the seeds
# and options given
fuzz() {
    t=$1
    shift
    corpus=$dir/corpus-$t
    mkdir -p "$corpus"
    if "$dir/$t" -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$dir/crash-$t-" "$corpus" "$@" > "$dir/$t.log" 2>&1; then
        passed=$((passed + 1))
        echo "$t: $(grep -E '^stat::number_of_executed_units' "$dir/$t.log" | awk '{print $2}') runs, corpus $(find "$corpus" -type f | wc -l) inputs"
    else
        failed=$((failed + 1))
        echo "FAIL $t:"
        grep -E 'ERROR|SUMMARY|Test unit written' "$dir/$t.log" | head -5
    fi
}
for t in fuzz_parse fuzz_roundtrip fuzz_chunks fuzz_funcs fuzz_lines fuzz_reader fuzz_merge; do
    fuzz "$t" -dict="$here/cgprof.dict" "$here/../conformance/cases" \
        "$here/../corpus/thirdparty" "$here/regressions"
done
fuzz fuzz_mlton -dict="$here/cgprof.dict" "$here/mlton"
fuzz fuzz_folded "$here/folded"
fuzz fuzz_pego "$here/../import/pego" "$here/regressions-pego"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
