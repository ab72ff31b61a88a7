#!/usr/bin/python3
"""Rooflines from the weaver's roofline-inputs.json: one per chapter that declares kernels, and one
for the whole book.

    figures/roofline.py WOVEN/roofline-inputs.json OUT_DIR

writes OUT_DIR/roofline-<chapter id>.svg and OUT_DIR/roofline-book.svg. The roofs are the ceilings
the harness measured (copy bandwidth, FP32 FMA rate, cuBLAS BF16 rate), not the datasheet's; each
kernel version is a labelled point at (FLOP per byte, FLOP/s), the versions of a chapter joined in
order so the figure shows the ladder climbing. Log-log.

Byte-identical output for identical inputs (a fixed SVG hash salt, no date in the metadata), and
made only when its inputs changed: beside each SVG, <name>.svg.sha256 holds the digest of what it
was drawn from (its data, this script, matplotlib's version); matplotlib is not even imported when
every figure is current.

The input (extra fields are ignored; a ceiling may be a number, {"value": ...} or {"median": ...}):
    {"ceilings": {"copy_bandwidth": B/s, "fp32_fma_rate": FLOP/s, "bf16_tensor_rate": FLOP/s},
     "chapters": [{"id": "3.1", "title": "...", "ceilings": {...optional, overrides...},
                   "kernels": [{"name": "reduce/v1_naive@268435456", "flops": ..., "bytes": ...,
                                "time": s, "flop_rate": FLOP/s, "intensity": FLOP/B}, ...]}]}
("chapters" may also be an object keyed by chapter id.)
A kernel with no time and no flop_rate (null: not measured yet) is left off, with a note.
Exit status: 0 done, 2 the input is wrong (the message names it), 1 anything else."""
import hashlib
import json
import math
import os
import sys

REQUIRED_CEILINGS = ('copy_bandwidth', 'fp32_fma_rate')
SALT = 'kernels-and-the-machine'


class InputError(Exception):
    pass


def number(value):
    if isinstance(value, dict):  # the weaver writes {"value": ..., "unit": ...}; records say "median"
        value = value.get('value', value.get('median'))
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def load(path):
    """[(id, title, ceilings, [(label, intensity, flop_rate)])] for chapters that declare kernels."""
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
        points = [p for p in (kernel_point(path, cid, k) for k in kernels) if p]
        result.append((cid, chapter.get('title', ''), ceilings, points))
    return result


def kernel_point(path, cid, kernel):
    name = kernel.get('name', '?')
    flops, nbytes, time = number(kernel.get('flops')), number(kernel.get('bytes')), number(kernel.get('time'))
    intensity = number(kernel.get('intensity')) or (flops / nbytes if flops and nbytes else None)
    rate = (number(kernel.get('flop_rate')) or number(kernel.get('achieved_flop_rate'))
            or (flops / time if flops and time else None))
    if intensity and not rate and kernel.get('time') is None and kernel.get('flop_rate') is None:
        print('figures/roofline.py: chapter %s, kernel %s: not measured yet, left off its roofline'
              % (cid, name), file=sys.stderr)
        return None
    if not intensity or not rate:
        raise InputError('%s: chapter %s, kernel %s: needs flops and bytes (or intensity) and a time '
                         '(or flop_rate), all positive' % (path, cid, name))
    return short_label(name), intensity, rate


def short_label(name):
    """'reduce/v3_sequential@268435456' -> 'v3_sequential'."""
    return name.split('@')[0].split('/')[-1]


def figure_digest(payload):
    here = open(os.path.abspath(__file__), 'rb').read()
    try:
        from importlib.metadata import version
        mpl = version('matplotlib')
    except Exception:
        mpl = '?'
    text = json.dumps(payload, sort_keys=True)
    return hashlib.sha256(b'%s\0%s\0%s' % (text.encode(), here, mpl.encode())).hexdigest()


def si(value, unit):
    for factor, prefix in ((1e15, 'P'), (1e12, 'T'), (1e9, 'G'), (1e6, 'M'), (1e3, 'k'), (1, '')):
        if value >= factor:
            return '%.3g %s%s' % (value / factor, prefix, unit)
    return '%.3g %s' % (value, unit)


def draw(series, ceilings, title, target, label_every_point=True):
    """series: [(legend or None, [(label, intensity, rate)])]; writes an SVG to target. The book-wide
    figure labels only each ladder's last point: its legend names the chapters."""
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams.update({'svg.hashsalt': SALT, 'svg.fonttype': 'path', 'font.size': 9,
                                'font.family': 'DejaVu Sans', 'axes.titlesize': 10})
    import matplotlib.pyplot as plt

    bandwidth = ceilings['copy_bandwidth']
    roofs = [('FP32 FMA', ceilings['fp32_fma_rate'], '-')]
    if ceilings.get('bf16_tensor_rate'):
        roofs.append(('BF16 tensor (cuBLAS)', ceilings['bf16_tensor_rate'], '--'))
    intensities = [p[1] for _, points in series for p in points] or [1.0]   # none measured yet: roofs only
    ridge = max(rate for _, rate, _ in roofs) / bandwidth
    lo = min(min(intensities), 1.0) / 4
    hi = max(max(intensities), ridge) * 4

    fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=100)
    ax.set_xscale('log')
    ax.set_yscale('log')
    for label, rate, style in roofs:
        knee = rate / bandwidth
        xs = [lo, knee, hi] if lo < knee < hi else [lo, hi]
        ax.plot(xs, [min(bandwidth * x, rate) for x in xs], style, color='#444444', linewidth=1.4)
        ax.annotate('%s %s' % (label, si(rate, 'FLOP/s')), (hi, rate), xytext=(-4, 4), textcoords='offset points',
                    ha='right', va='bottom', fontsize=8, color='#444444')
    label_x = ceilings['fp32_fma_rate'] / bandwidth / 10       # on the slope, well left of the knee
    ax.annotate('copy %s' % si(bandwidth, 'B/s'), (label_x, bandwidth * label_x), xytext=(-8, 8),
                textcoords='offset points', ha='right', fontsize=8, color='#444444')
    labels = []   # (label, intensity, rate, colour), placed once the axes' limits are final
    colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf']
    for n, (legend, points) in enumerate(series):
        colour = colours[n % len(colours)]
        if not points:
            continue
        ax.plot([p[1] for p in points], [p[2] for p in points], '-o', color=colour, markersize=5,
                linewidth=1.2, label=legend)
        shown = points if label_every_point else points[-1:]
        labels.extend((label, x, y, colour) for label, x, y in shown)
    ax.set_xlim(lo, hi)
    top = max(rate for _, rate, _ in roofs)
    bottom = min([p[2] for _, pts in series for p in pts] + [bandwidth * lo]) / 3
    ax.set_ylim(bottom, top * 3)
    place_labels(ax, labels)
    ax.set_xlabel('arithmetic intensity (FLOP per byte of DRAM traffic)')
    ax.set_ylabel('achieved FLOP/s')
    ax.set_title(title)
    ax.grid(True, which='major', linewidth=0.4, color='#cccccc')
    if any(legend and points for legend, points in series):
        ax.legend(loc='lower right', fontsize=7, frameon=False)
    fig.tight_layout()
    fresh = target + '.new'
    fig.savefig(fresh, format='svg', metadata={'Date': None})
    plt.close(fig)
    os.replace(fresh, target)


def place_labels(ax, labels):
    """Each label just below and right of its point; points close together (rungs that change
    only the arithmetic's schedule, say) get their labels as one column to the right of the
    group, in the order of their heights, so they do not print over one another."""
    line = 9.0                                                  # pixels between stacked labels
    columns = []                                                # [[(label, x, y, colour), ...]]
    for entry in labels:
        for column in columns:
            if any(abs(math.log10(member[1] / entry[1])) < 0.15 and
                   abs(math.log10(member[2] / entry[2])) < 0.3 for member in column):
                column.append(entry)
                break
        else:
            columns.append([entry])
    for column in columns:
        if len(column) == 1:
            label, x, y, colour = column[0]
            ax.annotate(label, (x, y), xytext=(5, -10), textcoords='offset points', fontsize=7,
                        color=colour)
            continue
        column.sort(key=lambda entry: -entry[2])
        anchors = [ax.transData.transform((x, y)) for _, x, y, _ in column]
        right = max(px for px, _ in anchors)
        top = sum(py for _, py in anchors) / len(anchors) + line * (len(column) - 1) / 2
        for i, ((label, x, y, colour), (px, py)) in enumerate(zip(column, anchors)):
            ax.annotate(label, (x, y), xytext=(right - px + 8, top - i * line - py - 3),
                        textcoords='offset pixels', fontsize=7, color=colour)


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
    except InputError as e:
        print('figures/roofline.py: %s' % e, file=sys.stderr)
        return 2
    os.makedirs(out_dir, exist_ok=True)
    drawn = []
    for cid, title, ceilings, points in chapters:
        target = os.path.join(out_dir, 'roofline-%s.svg' % cid)
        heading = '%s %s on the roofline' % (cid, title) if title else 'Chapter %s on the roofline' % cid
        if write_if_changed(target, [cid, title, ceilings, points],
                            lambda: draw([(None, points)], ceilings, heading, target)):
            drawn.append(os.path.basename(target))
    if chapters:
        book_ceilings = chapters[0][2]
        series = [('%s %s' % (cid, title), points) for cid, title, _, points in chapters]
        target = os.path.join(out_dir, 'roofline-book.svg')
        if write_if_changed(target, ['book', book_ceilings, series],
                            lambda: draw(series, book_ceilings, 'Every kernel of the book on the roofline', target,
                                         label_every_point=False)):
            drawn.append(os.path.basename(target))
    if drawn:
        print('figures: drew %s' % ', '.join(drawn))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
