#!/usr/bin/python3
"""Rooflines from the weaver's roofline-inputs.json: one per chapter that declares kernels, a
hierarchical one beside it where ncu counted L2 and L1 traffic, and one for the whole book.

    figures/roofline.py WOVEN/roofline-inputs.json OUT_DIR

writes OUT_DIR/roofline-<figure id>.svg (and roofline-<id>-levels.svg), roofline-book.svg (and
roofline-book-levels.svg). A figure id is a chapter's id ("3.1") or a chapter's named figure
("4.1-rungs": the kernels its front matter lists with figure: rungs, other chapters' included). Each kernel is a numbered marker at (FLOP per DRAM byte, FLOP/s): its
intensity is the chapter's FLOPs over the DRAM bytes ncu counted (filled marker), or, where no
count was recorded, over the chapter's model bytes (hollow marker, said in the legend). The numbers
match the key table the weaver puts beside the figure. Roofs: the theoretical DRAM bandwidth
(2 x memory clock x bus width / 8, dashed), the measured B_read and B_copy streams, the measured
FP32 and BF16 rates; each is labelled with its value in the legend. The range is fitted to the
chapter's points. In the levels figure each kernel with an L2 count has up to four points at its
FLOP/s, joined: per DRAM byte, per L2 byte, per global/local byte through L1 (l1tex__t_bytes, no
shared memory) and per shared-memory byte (128 B for each wavefront of the LSU's shared pipe: an
upper bound of the bytes, exactly the pipe's work in B_smem's units), under the DRAM roofs, B_L2
(appendix A's measured L2 bandwidth) and B_smem (the L1's data path, which
global, local and shared bytes all pass). A kernel the weaver marks lsu_unseen_bytes (TMA, wgmma:
traffic neither counter sees) has no L1 or shared point, and the legend says so. Log-log.

Woven for a GPU other than the book's reference, the input names the reference ("reference": its
gpu and ceilings) and each figure its reference_points (book_reference_points for the book's): the
reference's last rung of each ladder, placed by the weaver on the reference's own record. The
chapter's and the book's rooflines then draw them faintly beside this GPU's (roofline_beside.py):
the reference's measured roofs dashed and pale, its last rungs as hollow diamonds dotted to this
GPU's markers of the same kernels, and the legend names which GPU is solid and which faint; the
levels figures draw its measured roofs (DRAM, B_L2, B_smem, compute) the same way. Woven
for the reference, there is no second set and the figure is byte for byte as before.

Byte-identical output for identical inputs (a fixed SVG hash salt, no date in the metadata), and
made only when its inputs changed: beside each SVG, <name>.svg.sha256 holds the digest of what it
was drawn from (its data, this script, matplotlib's version); matplotlib is not even imported when
every figure is current.

The input (extra fields are ignored; a ceiling may be a number, {"value": ...} or {"median": ...}):
    {"ceilings": {"copy_bandwidth": B/s, "fp32_fma_rate": FLOP/s, optional: "dram_theoretical",
                  "read_bandwidth", "l2_bandwidth", "shared_bandwidth", "bf16_tensor_rate"},
     "chapters": [{"id": "3.1" (the figure), "chapter": "3.1" (optional: whose figure), "title": "...",
                   "ceilings": {...optional, overrides...},
                   "kernels": [{"name": "reduce/v1_naive@268435456", "flops": ..., "bytes": ...,
                                "time": s, "flop_rate": FLOP/s, "number": n, optional counts:
                                "dram_bytes", "l2_bytes", "l1_bytes", "shared_wavefronts",
                                "lsu_unseen_bytes", "in_book": false where
                                the book's figure leaves it out (another chapter's, or shown
                                in another figure of this one)}, ...]}]}
("chapters" may also be an object keyed by chapter id.)
A kernel with no time and no flop_rate (null: not measured yet) is left off, with a note.
Exit status: 0 done, 2 the input is wrong (the message names it), 1 anything else."""
import hashlib
import json
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from roofline_draw import draw, draw_levels  # noqa: E402  (the drawing half)
import roofline_beside  # noqa: E402  (the reference GPU beside this one's)

REQUIRED_CEILINGS = ('copy_bandwidth', 'fp32_fma_rate')
SHARED_BYTES_PER_WAVEFRONT = 128   # 32 banks x 4 bytes: at most what one wavefront moves


class InputError(Exception):
    pass


def number(value):
    if isinstance(value, dict):  # the weaver writes {"value": ..., "unit": ...}; records say "median"
        value = value.get('value', value.get('median'))
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None


def load(path):
    """[(id, title, ceilings, [point])] for chapters that declare kernels; a point is a dict:
    number, label, intensity, counted, rate, and l2/l1 intensities where counted."""
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise InputError('%s: cannot read it: %s' % (path, e.strerror))
    except ValueError as e:
        raise InputError('%s: not valid JSON: %s' % (path, e))
    chapters = data.get('chapters', [])
    if isinstance(chapters, dict):
        chapters = [dict(v, id=k) for k, v in chapters.items()]
    shared = data.get('ceilings') or {}
    result = []
    for chapter in chapters:
        kernels = chapter.get('kernels') or []
        if not kernels:
            continue
        cid = str(chapter.get('id', '?'))
        ceilings = {k: number(v) for k, v in dict(shared, **(chapter.get('ceilings') or {})).items()}
        missing = [k for k in REQUIRED_CEILINGS if not ceilings.get(k)]
        if missing:
            raise InputError('%s: chapter %s declares kernels but has no measured ceiling %s; '
                             'run `make measure` on a GPU so machine.json records it'
                             % (path, cid, ' or '.join(missing)))
        points = []
        for kernel in kernels:
            point = kernel_point(path, cid, kernel)
            if point:
                point['number'] = int(kernel.get('number') or len(points) + 1)
                point['size'] = kernel.get('name', '').partition('@')[2]
                # The book's figure shows each kernel once, in its own chapter (absent: shown).
                point['in_book'] = kernel.get('in_book', True) is not False
                points.append(point)
        labels = [p['label'] for p in points]
        for p in points:       # a kernel measured at two sizes is named with its size, as in the key
            if labels.count(p['label']) > 1 and p['size']:
                p['label'] += '@' + power_of_two(p['size'])
        result.append((cid, str(chapter.get('chapter', cid)), chapter.get('title', ''), ceilings, points))
    return result


def load_reference(path):
    """The reference GPU's side of every figure (roofline_beside.load), or None: woven for the
    reference itself, or an older input without one."""
    with open(path) as f:
        data = json.load(f)
    if not isinstance(data, dict):
        return None
    return roofline_beside.load(data, number)


def book_series(chapters):
    """[(chapter id, title, [point])]: the points the book's figure shows, each chapter's figures
    (one entry each in the input, "4.1" and "4.1-rungs") merged under the chapter, in input order."""
    series = []
    for _, chapter, title, _, points in chapters:
        shown = [p for p in points if p.get('in_book', True)]
        if series and series[-1][0] == chapter:
            series[-1][2].extend(shown)
        else:
            series.append((chapter, title, shown))
    return [s for s in series if s[2]]


def kernel_point(path, cid, kernel):
    """Placed by counted DRAM bytes where the record has them, else by the chapter's model bytes."""
    name = kernel.get('name', '?')
    flops, nbytes, time = number(kernel.get('flops')), number(kernel.get('bytes')), number(kernel.get('time'))
    dram = number(kernel.get('dram_bytes'))
    model = number(kernel.get('model_intensity')) or (flops / nbytes if flops and nbytes else None)
    if model is None and 'model_intensity' not in kernel:   # an older input: "intensity" was the model's
        model = number(kernel.get('intensity'))
    intensity = flops / dram if flops and dram else model
    rate = (number(kernel.get('flop_rate')) or number(kernel.get('achieved_flop_rate'))
            or (flops / time if flops and time else None))
    if intensity and not rate and kernel.get('time') is None and kernel.get('flop_rate') is None:
        print('figures/roofline.py: chapter %s, kernel %s: not measured yet, left off its roofline'
              % (cid, name), file=sys.stderr)
        return None
    if not intensity or not rate:
        raise InputError('%s: chapter %s, kernel %s: needs flops and bytes or dram_bytes (or intensity) and a '
                         'time (or flop_rate), all positive' % (path, cid, name))
    point = {'label': short_label(name), 'chapter': cid, 'intensity': intensity, 'counted': bool(flops and dram),
             'rate': rate}
    for level in ('l2', 'l1'):
        counted = number(kernel.get(level + '_bytes'))
        if flops and counted:
            point[level] = flops / counted
    wavefronts = number(kernel.get('shared_wavefronts'))
    if flops and wavefronts:
        point['smem'] = flops / (SHARED_BYTES_PER_WAVEFRONT * wavefronts)
    if number(kernel.get('lsu_unseen_bytes')):
        # The weaver found L2 traffic that neither the L1's tag stage nor the shared pipe counted
        # (TMA, wgmma): those two levels would be placed by a part of the traffic only.
        point['unseen'] = True
        point.pop('l1', None)
        point.pop('smem', None)
    return point


def power_of_two(size):
    """'268435456' -> '2^28' (the weaver's key table writes sizes the same way)."""
    if size.isdigit() and int(size) > 1 and int(size) & (int(size) - 1) == 0:
        return '2^%d' % (int(size).bit_length() - 1)
    return size


def short_label(name):
    """'reduce/v3_sequential@268435456' -> 'v3_sequential'."""
    return name.split('@')[0].split('/')[-1]


def has_levels(points):
    return any('l2' in p for p in points)


def figure_digest(payload):
    """Of the figure's data, the three files of this script and matplotlib's version."""
    folder = os.path.dirname(os.path.abspath(__file__))
    here = b''.join(open(os.path.join(folder, name), 'rb').read() for name in ('roofline.py', 'roofline_draw.py', 'roofline_beside.py'))
    try:
        from importlib.metadata import version
        mpl = version('matplotlib')
    except Exception:
        mpl = '?'
    text = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(b'%s\0%s\0%s' % (text.encode(), here, mpl.encode())).hexdigest()


def write_if_changed(target, payload, make):
    """Runs make() unless target exists and was drawn from the same payload; returns True if drawn."""
    stamp = target + '.sha256'
    want = figure_digest(payload)
    try:
        if os.path.exists(target) and open(stamp).read().strip() == want:
            return False
    except OSError:
        pass
    make()
    with open(stamp + '.new', 'w') as f:
        f.write(want + '\n')
    os.replace(stamp + '.new', stamp)
    return True


def main(argv):
    if len(argv) != 2:
        print('usage: figures/roofline.py ROOFLINE_INPUTS_JSON OUT_DIR', file=sys.stderr)
        return 2
    inputs, out_dir = argv
    try:
        chapters = load(inputs)
        reference = load_reference(inputs)
    except InputError as e:
        print('figures/roofline.py: %s' % e, file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    drawn = []

    def figure(name, payload, make):
        target = os.path.join(out_dir, name)
        if write_if_changed(target, payload, lambda: make(target)):
            drawn.append(name)

    def beside(payload, side):   # as before when woven for the reference: no redraw
        return payload + [side] if side else payload

    for cid, _, title, ceilings, points in chapters:
        side = roofline_beside.for_figure(reference, cid)
        figure('roofline-%s.svg' % cid, beside([cid, ceilings, points], side),
               lambda target: draw([(None, points)], ceilings, target, side=side))
        if has_levels(points):
            figure('roofline-%s-levels.svg' % cid, beside(['levels', cid, ceilings, points], side),
                   lambda target: draw_levels(points, ceilings, target, side=side))
    if chapters:
        book_ceilings = chapters[0][3]
        series, count = [], 0
        for cid, title, points in book_series(chapters):   # numbered through the book, as the weaver's key
            name = title if len(title) <= 34 else title[:33].rstrip(' ,:;') + '…'
            series.append(('%s %s' % (cid, name), [dict(p, number=count + n + 1) for n, p in enumerate(points)]))
            count += len(points)
        side = roofline_beside.for_figure(reference, 'book')
        figure('roofline-book.svg', beside(['book', book_ceilings, series], side),
               lambda target: draw(series, book_ceilings, target, 'Every kernel of the book on the roofline', side))
        every = [p for _, pts in series for p in pts]
        if has_levels(every):
            figure('roofline-book-levels.svg', beside(['book-levels', book_ceilings, every], side),
                   lambda target: draw_levels(every, book_ceilings, target, 'Every kernel, level by level', side))
    if drawn:
        print('figures: drew %s' % ', '.join(drawn))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
