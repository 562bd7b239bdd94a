/* flame-script.c - the style and script of cg-flame's SVG, as C strings.
 *
 * A profile is untrusted input and this script runs beside its names: it
 * reads them only as text (textContent) and writes them only as text
 * (textContent, setAttribute of numbers and colours); it never builds
 * markup from a string. */
#include "flame.h"

#include <stddef.h>

const char flame_style[] =
    "text { font-family: Verdana, 'DejaVu Sans', sans-serif; "
    "font-size: 12px; }\n"
    "#title { text-anchor: middle; font-size: 17px; }\n"
    "#subtitle { text-anchor: middle; fill: #555; }\n"
    "#search, #matched { text-anchor: end; }\n"
    "#search, #reset { cursor: pointer; text-decoration: underline; }\n"
    "#reset.off { display: none; }\n"
    ".f { cursor: pointer; }\n"
    ".f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
    ".f text { pointer-events: none; }\n"
    ".f.gone rect { stroke: #333; stroke-width: 0.8; stroke-dasharray: 3 2; }\n"
    ".f.up rect { opacity: 0.55; }\n"
    ".f.hide { display: none; }\n";

const char *const flame_script[] = {
    "\"use strict\";\n", "(function () {\n",
    "var FONT = 12 * 0.59, PAD = 10;\n",
    "var frames = [], byId = {}, plotW = 0, zoomed = null, term = null;\n",
    "var details, matched, reset;\n",
    "function el(id) { return document.getElementById(id); }\n",
    /* the name is the first line of the title, read as text */
    "function nameOf(g) {\n",
    "  var t = g.getElementsByTagName('title')[0].textContent;\n",
    "  var i = t.indexOf('\\n');\n", "  return i < 0 ? t : t.slice(0, i);\n",
    "}\n",
    /* the label that fits w pixels, in code points, as cg-flame cuts it */
    "function fit(name, w) {\n",
    "  var cps = Array.from(name), n = Math.floor((w - 6) / FONT);\n",
    "  if (n < 3) return '';\n", "  if (cps.length <= n) return name;\n",
    "  return cps.slice(0, n - 2).join('') + '..';\n", "}\n",
    "function place(f, x, w) {\n", "  f.r.setAttribute('x', x.toFixed(2));\n",
    "  f.r.setAttribute('width', w.toFixed(2));\n",
    "  f.t.setAttribute('x', (x + 3).toFixed(2));\n",
    "  f.t.textContent = fit(f.name, w);\n", "}\n",
    "function isAbove(a, b) {\n" /* a is b or one of b's ancestors */
    "  for (; b; b = b.parent) if (a === b) return true;\n",
    "  return false;\n", "}\n", "function zoom(f) {\n", "  zoomed = f;\n",
    "  var scale = plotW / f.w0;\n", "  frames.forEach(function (g) {\n",
    "    var up = isAbove(g, f) && g !== f, down = isAbove(f, g);\n",
    "    g.g.classList.toggle('hide', !up && !down);\n",
    "    g.g.classList.toggle('up', up);\n",
    "    if (up) place(g, PAD, plotW);\n",
    "    else if (down) place(g, PAD + (g.x0 - f.x0) * scale, g.w0 * scale);\n",
    "  });\n", "  showReset();\n", "}\n", "function unzoom() {\n",
    "  zoomed = null;\n", "  frames.forEach(function (g) {\n",
    "    g.g.classList.remove('hide', 'up');\n", "    place(g, g.x0, g.w0);\n",
    "  });\n", "}\n",
    /* matches are highlighted; the share counts a match once, not again
     * for the matches above it */
    "function search(re) {\n", "  term = re;\n", "  var sum = 0;\n",
    "  frames.forEach(function (f) {\n",
    "    f.hit = re !== null && re.test(f.name);\n",
    "    f.r.setAttribute('fill', f.hit ? 'rgb(230,0,230)' : f.fill);\n",
    "    f.t.setAttribute('fill', f.hit ? '#fff' : f.ink);\n", "  });\n",
    "  frames.forEach(function (f) {\n", "    var p = f.parent;\n",
    "    while (p && !p.hit) p = p.parent;\n",
    "    if (f.hit && !p) sum += f.w0;\n", "  });\n",
    "  matched.textContent = re === null ? '' :\n",
    "    'Matched: ' + (100 * sum / frames[0].w0).toFixed(2) + '%';\n",
    "  showReset();\n", "}\n", "function showReset() {\n",
    "  reset.classList.toggle('off', zoomed === null && term === null);\n",
    "}\n", "function regex(s) {\n",
    "  try { return new RegExp(s); } catch (e) { return null; }\n", "}\n",
    /* the state in the fragment: #z=ID&s=REGEX (URI-encoded) */
    "function save() {\n", "  var h = [];\n",
    "  if (zoomed) h.push('z=' + zoomed.g.id.slice(1));\n",
    "  if (term) h.push('s=' + encodeURIComponent(term.source));\n",
    "  try { history.replaceState(null, '', h.length ? '#' + h.join('&') :",
    " location.pathname + location.search); } catch (e) {}\n", "}\n",
    "function restore() {\n", "  var z = null, s = null;\n",
    "  location.hash.slice(1).split('&').forEach(function (kv) {\n",
    "    var i = kv.indexOf('='), k = kv.slice(0, i), v = kv.slice(i + 1);\n",
    "    try { v = decodeURIComponent(v); } catch (e) { return; }\n",
    /* z=N or z=fN, the frame's element id as the SVG names it */
    "    var id = v.charAt(0) === 'f' ? v : 'f' + v;\n",
    "    if (k === 'z' && Object.prototype.hasOwnProperty.call(byId, id))",
    " z = byId[id];\n", "    if (k === 's' && v !== '') s = regex(v);\n",
    "  });\n", "  unzoom();\n", "  if (z && z !== frames[0]) zoom(z);\n",
    "  search(s);\n", "}\n", "function init() {\n",
    "  details = el('details'); matched = el('matched'); reset = el('reset');\n",
    "  var gs = el('frames').getElementsByTagName('g');\n",
    "  for (var i = 0; i < gs.length; i++) {\n",
    "    var g = gs[i], r = g.getElementsByTagName('rect')[0];\n",
    "    var p = g.getAttribute('data-p');\n",
    "    var f = {g: g, r: r, t: g.getElementsByTagName('text')[0],\n",
    "      name: nameOf(g), x0: +r.getAttribute('x'),\n",
    "      w0: +r.getAttribute('width'), fill: r.getAttribute('fill'),\n",
    "      parent: p === '' ? null : byId['f' + p], hit: false};\n",
    "    f.ink = f.t.getAttribute('fill');\n", "    frames.push(f);\n",
    "    byId[g.id] = f;\n",
    "    g.addEventListener('click', (function (f) { return function () {\n",
    "      if (f === frames[0]) unzoom(); else zoom(f);\n",
    "      showReset(); save();\n", "    }; })(f));\n",
    "    g.addEventListener('mouseover', (function (f) { return function () {\n",
    "      details.textContent = f.g.getElementsByTagName('title')[0]",
    ".textContent.replace(/\\n/g, '  |  ');\n", "    }; })(f));\n",
    "    g.addEventListener('mouseout', function () {",
    " details.textContent = ' '; });\n", "  }\n",
    "  if (!frames.length) return;\n", "  plotW = frames[0].w0;\n",
    "  el('search').addEventListener('click', function () {\n",
    "    var s = prompt('Search for a regular expression:',",
    " term ? term.source : '');\n", "    if (s === null) return;\n",
    "    search(s === '' ? null : regex(s));\n", "    save();\n", "  });\n",
    "  reset.addEventListener('click', function () {\n",
    "    unzoom(); search(null); save();\n", "  });\n",
    "  document.addEventListener('keydown', function (e) {\n",
    "    if (e.key === 'Escape') { unzoom(); search(null); save(); }\n",
    "  });\n", "  window.addEventListener('hashchange', restore);\n",
    "  restore();\n",
    "  document.documentElement.setAttribute('data-ready', '1');\n", "}\n",
    "window.addEventListener('load', init);\n", "})();\n", NULL};
