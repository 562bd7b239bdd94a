#!/usr/bin/env python3
"""browser.py BINDIR SRCDIR - cg-flame's SVG in headless Chromium.

  - the example's graph renders: its screenshot is not blank;
  - a search (#s=hanoi) highlights frames: the search colour appears,
    which it does nowhere before;
  - a zoom (#z=ID of main) widens main's frame to the whole width: the
    pixel at the right end of main's row takes main's fill; #z=fID, the
    element's id, shows the same;
  - the hostile names stay labels: the document's own script runs (it
    marks the root data-ready) and none of the profile's (they would
    mark it data-pwned); a control SVG with a real script of that kind
    is seen marked, so the check can fail.
Exits 0, 1 with what failed, or 77 (skipped) without Chromium.  Only the
standard library: PNGs are decoded here with zlib.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
SEARCH_RGB = (230, 0, 230)
WIDTH = 1200


def chromium():
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_browser(browser, tmp, url, what, height):
    """A screenshot (what='png', its path) or the DOM (what='dom')."""
    args = [browser, '--headless', '--no-sandbox', '--disable-gpu',
            '--hide-scrollbars', '--no-first-run', '--disable-extensions',
            '--user-data-dir=' + os.path.join(tmp, 'profile'),
            '--window-size=%d,%d' % (WIDTH, height)]
    if what == 'png':
        out = os.path.join(tmp, 'shot%d.png' % len(os.listdir(tmp)))
        args.append('--screenshot=' + out)
    else:
        args.append('--dump-dom')
    args.append(url)
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    if what == 'png':
        if not os.path.exists(out):
            raise RuntimeError('no screenshot: ' + p.stderr.decode()[-500:])
        return out
    return p.stdout.decode('utf-8', 'replace')


def png_pixels(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB/RGBA PNG."""
    with open(path, 'rb') as f:
        data = f.read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and ctype in (2, 6), 'PNG type %d' % ctype
        elif kind == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], None
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        up = prev or bytearray(stride)
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = up[i]
            c = up[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 255
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, bpp)])
        prev = line
    return w, h, rows


def main(bindir, srcdir):
    browser = chromium()
    if browser is None:
        print('chromium is not installed (apt-get install chromium): '
              'the browser test is skipped')
        return 77
    failures = []
    tmp = tempfile.mkdtemp(prefix='cgflame.')
    shots = tempfile.mkdtemp(prefix='shots.', dir=tmp)
    try:
        svg = os.path.join(tmp, 'hanoi.svg')
        with open(svg, 'wb') as out:
            subprocess.run([os.path.join(bindir, 'cg-flame'),
                            os.path.join(srcdir, 'examples/hanoi.callgrind')],
                           stdout=out, check=True)
        root = ET.parse(svg).getroot()
        height = int(root.get('height'))
        main_rect = None
        for g in root.iter(NS + 'g'):
            title = g.find(NS + 'title')
            if title is not None and title.text.split('\n')[0] == 'main':
                main_id, main_rect = g.get('id')[1:], g.find(NS + 'rect')
                break
        url = 'file://' + svg
        shot = {}
        for key, frag in (('plain', ''), ('search', '#s=hanoi'),
                          ('zoom', '#z=' + main_id), ('zoomf', '#z=f' + main_id)):
            shot[key] = png_pixels(run_browser(browser, shots, url + frag,
                                               'png', height))
        w, h, rows = shot['plain']
        colours = {px for row in rows for px in row}
        background = max(colours, key=lambda c: sum(r.count(c) for r in rows))
        drawn = sum(1 for row in rows for px in row if px != background)
        if len(colours) < 20 or drawn < w * h // 10:
            failures.append('blank: %d colours, %d of %d pixels drawn'
                            % (len(colours), drawn, w * h))

        def count(rgb, key):
            return sum(row.count(rgb) for row in shot[key][2])
        if count(SEARCH_RGB, 'plain') != 0 or count(SEARCH_RGB, 'search') < 500:
            failures.append('search: %d highlighted pixels before, %d after'
                            % (count(SEARCH_RGB, 'plain'),
                               count(SEARCH_RGB, 'search')))
        fill = tuple(int(v) for v in re.findall(r'\d+', main_rect.get('fill')))
        y = int(float(main_rect.get('y'))) + 7
        x = WIDTH - 20
        if shot['plain'][2][y][x] == fill or shot['zoom'][2][y][x] != fill:
            failures.append('zoom: pixel (%d,%d) %r before, %r after, main %r'
                            % (x, y, shot['plain'][2][y][x],
                               shot['zoom'][2][y][x], fill))

        if shot['zoomf'] != shot['zoom']:
            failures.append('zoom: #z=f%s shows other than #z=%s' % (main_id, main_id))

        # the hostile names: only the document's own script runs
        cg = os.path.join(tmp, 'hostile.cg')
        subprocess.run(['sh', os.path.join(srcdir, 'tests/flame/hostile.sh'),
                        cg], check=True)
        hsvg = os.path.join(tmp, 'hostile.svg')
        with open(hsvg, 'wb') as out:
            subprocess.run([os.path.join(bindir, 'cg-flame'), '--minwidth',
                            '0', cg], stdout=out, check=True)
        for frag in ('', '#s=script', '#z=1&s=%3Cimg'):
            dom = run_browser(browser, shots, 'file://' + hsvg + frag, 'dom',
                              200)
            if 'data-ready="1"' not in dom or 'data-pwned="' in dom:
                failures.append('hostile%s: ready %s, pwned %s' % (
                    frag, 'data-ready="1"' in dom, 'data-pwned="' in dom))
        control = os.path.join(tmp, 'control.svg')
        with open(hsvg, encoding='utf-8') as f:
            text = f.read()
        with open(control, 'w', encoding='utf-8') as f:
            f.write(text.replace('<g id="frames">', '<script><![CDATA['
                                 "document.documentElement.setAttribute("
                                 "'data-pwned','yes')]]></script>"
                                 '<g id="frames">', 1))
        dom = run_browser(browser, shots, 'file://' + control, 'dom', 200)
        if 'data-pwned="yes"' not in dom:
            failures.append('control: an injected script was not seen')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print(f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
