#!/usr/bin/python3
"""Chapter 1.4's timeline of programmatic dependent launch: the graph's kernels with and without PDL.

    figures/plots/launch-timeline-pdl.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.4.json (a record written by make measure) and writes OUT_DIR/launch-timeline-pdl.svg:
two rows on one GPU-clock axis in microseconds, launch/timeline_graph@50 (the plain graph) and
launch/timeline_graph_pdl@50 (the graph with PDL). Each kernel is a bar from its counter kNN_start to
kNN_end (seconds after the first kernel's start); in the PDL row a thin line before each bar is
kNN_wait_time long, the time the kernel's first block was already on an SM, waiting for its
predecessor. A record made before the chapter had the PDL timeline draws a panel that says so.
Exit status 2: the record is unreadable or a timeline lacks a stamp (the message says which). Without
the record, a panel says it is not measured; figures/plotlib.py, the half every figure script shares,
says how (byte-identical SVG)."""
import os
import re
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

GRAPH, PDL = 'launch/timeline_graph@50', 'launch/timeline_graph_pdl@50'


def stamps(quantities, key, kinds):
    """[{kind: seconds}] in kernel order, from the counters kNN_<kind>."""
    found = {}
    for name, value in quantities.items():
        match = re.fullmatch(r'k(\d+)_(%s)' % '|'.join(kinds), name)
        if match:
            found.setdefault(int(match.group(1)), {})[match.group(2)] = value['median']
    if not found:
        raise ValueError('%s has no kNN_%s counters' % (key, '/'.join(kinds)))
    for k in sorted(found):
        if set(found[k]) != set(kinds):
            raise ValueError('%s: kernel %d lacks one of %s' % (key, k, ', '.join(kinds)))
    return [found[k] for k in sorted(found)]


def read(data, records):
    """(plain graph's kernels, PDL graph's kernels), or None for a record without the PDL timeline."""
    results = data.get('results', {})
    if PDL not in results:
        return None
    if GRAPH not in results:
        raise ValueError('%s without %s' % (PDL, GRAPH))
    return (stamps(results[GRAPH], GRAPH, ['start', 'end']),
            stamps(results[PDL], PDL, ['start', 'end', 'wait_time']))


def draw(plt, data, what):
    if what is None:
        fig, ax = plt.subplots(figsize=(plotlib.WIDTH, 1.6))
        ax.axis('off')
        ax.text(0.5, 0.5, 'This record predates the PDL timeline:\nrun make measure CHAPTER=1.4',
                ha='center', va='center')
        return fig
    graph, pdl = what
    rows = [('CUDA graph', graph, '#2ca02c'), ('graph with PDL', pdl, '#9467bd')]
    fig, ax = plt.subplots(figsize=(plotlib.WIDTH, 2.4))
    begin_us, end_us = 0.0, 0.0
    for row, (label, kernels, color) in enumerate(rows):
        y = len(rows) - 1 - row
        spans = [(k['start'] * 1e6, max(k['end'] - k['start'], 0.0) * 1e6) for k in kernels]
        # An outline of the bar's own colour keeps a sub-microsecond kernel visible at this scale.
        ax.broken_barh(spans, (y - 0.3, 0.6), facecolors=color, edgecolor=color, linewidth=0.6)
        for k in kernels:
            if k.get('wait_time', 0) > 0:
                resident = k['start'] - k['wait_time']
                ax.plot([resident * 1e6, k['start'] * 1e6], [y + 0.38, y + 0.38], color=color,
                        linewidth=0.8, alpha=0.7)
                begin_us = min(begin_us, resident * 1e6)
        last = max(s + w for s, w in spans)
        end_us = max(end_us, last)
        ax.text(last, y, '  %d kernels, %.0f µs' % (len(kernels), last), va='center', fontsize=plotlib.MIN_POINTS)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for label, _, _ in reversed(rows)])
    ax.set_xlim(begin_us, end_us * 1.6)
    ax.set_ylim(-0.6, len(rows) - 0.3)
    ax.set_xlabel('time after the first kernel starts (µs, GPU global timer);\nthin line: resident, waiting')
    ax.grid(True, axis='x', linewidth=0.3, alpha=0.6)
    return plotlib.finish(fig, data, 'The graph with and without programmatic dependent launch')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.4', 'launch-timeline-pdl.svg', read, draw))
