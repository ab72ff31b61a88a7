#!/usr/bin/python3
"""Chapter 1.4's timeline: fifty dependent tiny kernels on the GPU's clock, from the stream and from a graph.

    figures/plots/launch-timeline.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.4.json (a record written by make measure) and writes OUT_DIR/launch-timeline.svg:
two rows, launch/timeline_stream@50 and launch/timeline_graph@50, each kernel a bar from its counter
kNN_start to kNN_end (seconds after the first kernel's start; the medians over the repetitions), on one
time axis in microseconds. Exit status 2: the record is unreadable or lacks the timelines (the message
says which). Without the record, a panel says it is not measured; figures/plotlib.py, the half every
figure script shares, says how (byte-identical SVG)."""
import os
import re
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

ROWS = [('launch/timeline_stream@50', 'stream launches'), ('launch/timeline_graph@50', 'CUDA graph')]


def kernels(quantities, key):
    """[(start s, end s)] in kernel order, from the counters kNN_start and kNN_end."""
    spans = {}
    for name, value in quantities.items():
        match = re.fullmatch(r'k(\d+)_(start|end)', name)
        if match:
            spans.setdefault(int(match.group(1)), {})[match.group(2)] = value['median']
    if not spans:
        raise ValueError('%s has no kNN_start / kNN_end counters' % key)
    bars = []
    for k in sorted(spans):
        if set(spans[k]) != {'start', 'end'}:
            raise ValueError('%s: kernel %d lacks its start or its end' % (key, k))
        bars.append((spans[k]['start'], spans[k]['end']))
    return bars


def read(data, records):
    results = data.get('results', {})
    missing = [key for key, _ in ROWS if key not in results]
    if missing:
        raise ValueError('no timeline results (%s)' % ', '.join(missing))
    return [(label, kernels(results[key], key)) for key, label in ROWS]


def draw(plt, data, what):
    rows = what
    fig, ax = plt.subplots(figsize=(plotlib.WIDTH, 2.6))
    colors = ['#1f77b4', '#2ca02c']
    end_us = 0.0
    for row, ((label, bars), color) in enumerate(zip(rows, colors)):
        y = len(rows) - 1 - row
        spans = [(s * 1e6, max(e - s, 0.0) * 1e6) for s, e in bars]
        # An outline of the bar's own colour keeps a sub-microsecond kernel visible at this scale.
        ax.broken_barh(spans, (y - 0.35, 0.7), facecolors=color, edgecolor=color, linewidth=0.6)
        last = max(s + w for s, w in spans)
        end_us = max(end_us, last)
        ax.text(last, y, '  %d kernels, %.0f µs' % (len(bars), last), va='center')
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _ in reversed(rows)])
    ax.set_xlim(0, end_us * 1.75)   # room for the text after the last bar
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel('time after the first kernel starts\n(µs, GPU global timer)')
    ax.grid(True, axis='x', linewidth=0.3, alpha=0.6)
    return plotlib.finish(fig, data, 'A step of dependent tiny kernels')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.4', 'launch-timeline.svg', read, draw))
