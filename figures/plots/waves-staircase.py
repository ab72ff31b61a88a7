#!/usr/bin/python3
"""Chapter 1.2's staircase: time against grid size, measured beside predicted.

    figures/plots/waves-staircase.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.2.json (a record written by make measure) and writes OUT_DIR/waves-staircase.svg:
two panels, b = 1 (every grid from one block to four and a half waves) and b = 4 (a quarter-N_SM step),
each with the measured medians as points, their min-max as bars, and the model's t_0 + ceil(G/W) t_b as
a line. Exit status 2: the record is unreadable or lacks the staircase (the message says which). Without
the record, a panel says it is not measured; figures/plotlib.py, the half every figure script shares,
says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

SERIES = [('waves/staircase_b1', '$b = 1$: $W = N_\\mathrm{SM}$'), ('waves/staircase_b4', '$b = 4$: $W = 4\\,N_\\mathrm{SM}$')]


def series(results, name):
    """[(G, median s, min s, max s, predicted s)] sorted by G."""
    points = []
    for key, (g,), quantities in plotlib.results_of(results, name):
        time, predicted = quantities.get('time'), quantities.get('predicted_time')
        if not time or not predicted:
            raise ValueError('%s has no time or predicted_time' % key)
        points.append((g, time['median'], time['min'], time['max'], predicted['median']))
    return sorted(points)


def read(data, records):
    panels = [(label, series(data.get('results', {}), name)) for name, label in SERIES]
    if not all(points for _, points in panels):
        raise ValueError('no staircase results (waves/staircase_b1@G, waves/staircase_b4@G)')
    return panels


def draw(plt, data, what):
    panels = what
    fig, axes = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 6.8))
    for ax, (label, points) in zip(axes, panels):
        g = [p[0] for p in points]
        us = lambda i: [p[i] * 1e6 for p in points]
        median, low, high, predicted = us(1), us(2), us(3), us(4)
        ax.step(g, predicted, where='post', color='#d62728', linewidth=1.2,
                label='model: $t_0 + \\lceil G/W \\rceil\\, t_b$', zorder=3)
        ax.vlines(g, low, high, color='#9ecae1', linewidth=0.8, zorder=1)
        ax.plot(g, median, '.', color='#1f77b4', markersize=2.5, label='measured median (bar: min to max)', zorder=2)
        ax.set_title(label)
        ax.set_xlabel('grid size $G$ (blocks)')
        ax.set_ylabel('time (µs)')
        ax.set_xlim(0, max(g) * 1.02)
        ax.set_ylim(0, max(max(high), max(predicted)) * 1.08)
        ax.grid(True, linewidth=0.3, alpha=0.6)
        ax.legend(loc='upper left', frameon=False)
    return plotlib.finish(fig, data, 'Time against grid size')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.2', 'waves-staircase.svg', read, draw))
