#!/bin/sh
# hostile.sh FILE - write a valid profile whose function names attack
# whatever draws them: markup and script, quotes, control characters,
# non-characters, ; and % (cg-fold's separators) and UTF-8 beyond ASCII.
# main calls each of them.  A script that runs sets data-pwned on the
# document: the browser test looks for it.
set -eu
pwn="document.documentElement.setAttribute('data-pwned','yes')"
set -- "$1" \
    "</script><script>$pwn</script>" \
    "<img src=x onerror=\"$pwn\">" \
    "<svg onload=\"$pwn\"/>" \
    "]]><script>$pwn</script><![CDATA[" \
    "a \"quoted\" 'single' & <b>bold</b> &amp;" \
    "$(printf 'ctl\001\033\177end')" \
    "$(printf 'caf\303\251 \360\237\224\245 \357\277\276 \342\200\256rtl')" \
    "semi;colon 100%25 %3B" \
    "javascript:$pwn"
out=$1
shift
{
    printf 'events: Ir\nfn=main\n1 10\n'
    n=0
    for name in "$@"; do
        n=$((n + 1))
        printf 'cfn=%s\ncalls=1 1\n%d %d\n' "$name" "$n" "$((n * 100))"
    done
    n=0
    for name in "$@"; do
        n=$((n + 1))
        printf 'fn=%s\n%d %d\n' "$name" "$n" "$((n * 100))"
    done
} > "$out"
