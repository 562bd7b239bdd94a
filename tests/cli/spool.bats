#!/usr/bin/env bats
# cg-tsv and cg-normalize write nothing of an input before it is accepted,
# without holding it: a file is read twice, a pipe copied to a temporary
# file (unlinked at once) and read twice.  The same bytes, diagnostics and
# status from a file and from a pipe; no temporary file left; a file that
# changes between the readings is said to; memory follows the names.
load common

tsv=$CG_BINDIR/cg-tsv
norm=$CG_BINDIR/cg-normalize

setup() {
    T=$BATS_TEST_TMPDIR
    export TMPDIR=$T/tmp
    mkdir -p "$TMPDIR"
    write_profile "$T/good.cg"
    # a fault on the last line, after every record
    { cat "$T/good.cg"; printf 'fn=(1)\n1 x\n'; } > "$T/late.cg"
    printf 'events: A\nfl=caf\351.c\nfn=f\n1 1\n' > "$T/latin1.cg"
}

# same COMMAND ARGS... FILE: the command on a pipe of FILE prints what it
# prints for FILE (its name read <stdin>), with the same status.
same() { same_on_pipe cat "$@"; }

@test "cg-tsv: a pipe and a file give the same rows, no temporary file left" {
    same "$tsv" "$T/good.cg"
    [ "$status" -eq 0 ]
    [ "${#lines[@]}" -eq 6 ]
    same "$tsv" -k call -f fn,cfn,calls "$T/good.cg"
    [ "$output" = "$(printf 'fn\tcfn\tcalls\nmain\thelper\t2')" ]
    same "$tsv" --compat "$T/latin1.cg"
    [[ "$stderr" == "<stdin>:2: warning: "* ]]
    no_temp_in "$TMPDIR"
}

@test "cg-normalize: a pipe and a file give the same text, no temporary file left" {
    same "$norm" "$T/good.cg"
    [ "$status" -eq 0 ]
    [ "${lines[0]}" = "version: 1" ]
    same "$norm" -i "$T/good.cg"
    same "$norm" --compat "$T/latin1.cg"
    [[ "$output" == *"café.c"* ]]
    no_temp_in "$TMPDIR"
}

@test "cg-tsv reads several pipes and files in one run" {
    run -0 "$tsv" "$T/good.cg" "$T/good.cg"
    want=$output
    run -0 bash -c '"$2" "$1" <(cat "$1") | sed "s#^/dev/fd/[0-9]*#$1#"' _ "$T/good.cg" "$tsv"
    [ "$output" = "$want" ]
    no_temp_in "$TMPDIR"
}

@test "a fault on the last line: nothing written, from a file or a pipe" {
    last=$(wc -l < "$T/late.cg")
    for cmd in "$tsv" "$norm"; do
        same "$cmd" "$T/late.cg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [[ "$stderr" == "<stdin>:$last: syntax: "* ]]
    done
    # with a valid input before it, cg-tsv writes that input's rows only
    run -1 --separate-stderr bash -c 'cat "$2" | "$CG_BINDIR/cg-tsv" -H "$1" -' _ "$T/good.cg" "$T/late.cg"
    [ "${#lines[@]}" -eq 5 ]
    [[ "$stderr" == "<stdin>:$last: syntax: "* ]]
    # -o leaves no output and no temporary file beside it
    run -1 bash -c 'cat "$1" | "$CG_BINDIR/cg-normalize" -o "$2"' _ "$T/late.cg" "$T/out.cg"
    [ ! -e "$T/out.cg" ]
    no_temp_in "$T"
    no_temp_in "$TMPDIR"
}

@test "the byte cap: a file over it refused unread, a pipe once it passes it" {
    # 64 GiB of holes: read, it would take minutes
    truncate -s 64G "$T/huge.cg"
    for cmd in "$tsv" "$norm"; do
        run -1 --separate-stderr timeout 10 "$cmd" "$T/huge.cg"
        [ "$stderr" = "$T/huge.cg:0: resource: input size over the input limit of 33554432 (raise it with --limit input=N or --no-limits)" ]
        # an endless pipe ends at the cap, its copy with it
        run -1 --separate-stderr timeout 10 bash -c 'yes | "$@"' _ "$cmd" --limit input=1M
        [ "$stderr" = "<stdin>:0: resource: input size over the input limit of 1048576 (raise it with --limit input=N or --no-limits)" ]
        [ -z "$output" ]
    done
    no_temp_in "$TMPDIR"
}

# copy_open PID: PID has a deleted .cg-tsv.* file of $TMPDIR open.
copy_open() {
    local fd
    for fd in /proc/"$1"/fd/*; do
        case $(readlink "$fd") in
        "$TMPDIR"/.cg-tsv.*" (deleted)") return 0 ;;
        esac
    done
    return 1
}

@test "the copy of a pipe is unlinked as soon as it is made" {
    [ -d /proc/self/fd ] || skip "no /proc to see the open files"
    mkfifo "$T/fifo"
    "$tsv" "$T/fifo" > /dev/null 2>&1 3>&- &
    pid=$!
    exec 5> "$T/fifo"
    head -c 100 "$T/good.cg" >&5
    # the reader is copying: its copy is open, and gone from the folder
    for _ in $(seq 50); do
        copy_open "$pid" && break
        sleep 0.1
    done
    copy_open "$pid"
    no_temp_in "$TMPDIR"
    kill -9 "$pid"
    exec 5>&-
    wait "$pid" || true
    no_temp_in "$TMPDIR"
}

# A profile of N copies of the example, parts of one valid profile.
copies() {
    local i
    for ((i = 0; i < $1; i++)); do cat "$BATS_TEST_DIRNAME/../../examples/hanoi.callgrind"; done
}

@test "cg-tsv: a file changed between its two readings is said to" {
    copies 20 > "$T/big.cg"
    cp "$T/good.cg" "$T/second.cg"
    mkfifo "$T/out"
    # the rows of big.cg fill the pipe: cg-tsv waits there, after both
    # first readings, while second.cg changes
    "$tsv" --no-limits "$T/big.cg" "$T/second.cg" > "$T/out" 2> "$T/err" 3>&- &
    pid=$!
    exec 5< "$T/out"
    # a row written: both first readings are over
    read -r _ <&5
    echo '1 1' >> "$T/second.cg"
    cat <&5 > "$T/rows"
    exec 5<&-
    status=0
    wait "$pid" || status=$?
    [ "$status" -eq 2 ]
    [ "$(cat "$T/err")" = "cg-tsv: $T/second.cg: changed between its two readings" ]
    # nothing of second.cg was written
    run no_line -F "$T/second.cg" "$T/rows"
}

@test "cg-normalize: a file changed while it is written is said to" {
    copies 20 > "$T/big.cg"
    mkfifo "$T/out"
    "$norm" --no-limits "$T/big.cg" > "$T/out" 2> "$T/err" 3>&- &
    pid=$!
    exec 5< "$T/out"
    # a line written: the second reading has begun
    read -r _ <&5
    copies 1 >> "$T/big.cg"
    cat <&5 > /dev/null
    exec 5<&-
    status=0
    wait "$pid" || status=$?
    [ "$status" -eq 2 ]
    [ "$(cat "$T/err")" = "cg-normalize: $T/big.cg: changed between its two readings" ]
}

# bats test_tags=slow
@test "memory follows the names, not the size: peak RSS on a 40 MB input" {
    [ -x /usr/bin/time ] || skip "no /usr/bin/time to measure the peak RSS"
    # ASan's shadow memory and quarantine are no measure of the program's
    if grep -q __asan_init "$tsv"; then
        skip "a sanitized build: peak RSS is measured on a plain one"
    fi
    copies 600 > "$T/big.cg"
    size_kb=$(( $(wc -c < "$T/big.cg") / 1024 ))
    for cmd in tsv normalize; do
        for how in file pipe; do
            if [ "$how" = file ]; then
                /usr/bin/time -o "$T/rss" -f %M "$CG_BINDIR/cg-$cmd" --no-limits "$T/big.cg" > /dev/null
            else
                cat "$T/big.cg" | /usr/bin/time -o "$T/rss" -f %M "$CG_BINDIR/cg-$cmd" --no-limits > /dev/null
            fi
            rss=$(tail -1 "$T/rss")
            echo "cg-$cmd on a $how of $size_kb KB: peak RSS $rss KB"
            [ "$rss" -lt $((size_kb / 4)) ]
        done
    done
    no_temp_in "$TMPDIR"
}
