/* flame.h - the style and script that cg-flame writes into each SVG. */
#ifndef CGPROF_FLAME_H
#define CGPROF_FLAME_H

/* CSS for the SVG's <style>, and the ECMAScript of its <script>: zoom on
 * a click, search, reset, the details line, and the state in the URL
 * fragment (#z=ID&s=REGEX), in pieces under C's 4095-byte string
 * literal.  Neither contains "]]>" (both go in CDATA). */
extern const char flame_style[];
extern const char *const flame_script[]; /* pieces, NULL last */

#endif
