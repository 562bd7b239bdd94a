# listing.awk - read_listing(FILE, INTO): the per-function figures of the
# first event of a callgrind_annotate listing, INTO["FILE:FN"] summed over
# objects (annotate's " [OB]" is dropped, as it prints it only for some
# functions).
function figure(s) { gsub(/,/, "", s); return s + 0 }
function read_listing(file, into,    line, nev, key, v, i, w) {
    nev = 0
    while ((getline line < file) > 0) {
        if (nev == 0) {
            if (line ~ /file:function$/) nev = split(line, w, " ") - 1
            continue
        }
        if (line ~ /^-*$/) continue
        v = line; sub(/^ */, "", v); sub(/ .*/, "", v)
        key = line
        for (i = 0; i < nev; i++)
            sub(/^ *([0-9,]+ \( *[0-9.]+%\)|[0-9,]+|\.)/, "", key)
        sub(/^ +/, "", key)
        sub(/ \[[^]]*\]$/, "", key)
        into[key] += v == "." ? 0 : figure(v)
    }
    close(file)
}
