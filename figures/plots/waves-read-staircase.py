#!/usr/bin/python3
"""Chapter 1.2's staircase of a real kernel: blocks that each sum 256 KiB of memory, time against grid size.

    figures/plots/waves-read-staircase.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.2.json (a record written by make measure) and writes OUT_DIR/waves-read-staircase.svg:
two panels, waves/read_staircase_b1@G (one block an SM) and waves/read_staircase_b8@G (eight), each with
the measured medians as points, their min-max as bars, and a dotted line at every whole wave (the
counter wave_size). A record made before the chapter had this kernel draws a panel that says so. Exit
status 2: the record is unreadable or a result lacks its time or wave size (the message says which).
Without the record, a panel says it is not measured; figures/plotlib.py, the half every figure script
shares, says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

SERIES = [('waves/read_staircase_b1', '$b = 1$: a wave is $N_\\mathrm{SM}$ blocks'),
          ('waves/read_staircase_b8', '$b = 8$: a wave is $8\\,N_\\mathrm{SM}$ blocks')]


def series(results, name):
    """(wave size, [(G, median s, min s, max s)] sorted by G), or None when the record has none."""
    points, wave = [], None
    for key, (g,), quantities in plotlib.results_of(results, name):
        time, size = quantities.get('time'), quantities.get('wave_size')
        if not time or not size:
            raise ValueError('%s has no time or wave_size' % key)
        wave = size['median']
        points.append((g, time['median'], time['min'], time['max']))
    return (wave, sorted(points)) if points else None


def read(data, records):
    """The two panels, or None for a record measured before this kernel existed."""
    panels = [(label, series(data.get('results', {}), name)) for name, label in SERIES]
    if not any(found for _, found in panels):
        return None
    if not all(found for _, found in panels):
        raise ValueError('one read staircase without the other (%s)' % ', '.join(n for n, _ in SERIES))
    return panels


def draw(plt, data, what):
    if what is None:
        fig, ax = plt.subplots(figsize=(plotlib.WIDTH, 1.6))
        ax.axis('off')
        ax.text(0.5, 0.5, 'This record predates the read staircase:\nrun make measure CHAPTER=1.2',
                ha='center', va='center')
        return fig
    fig, axes = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 5.6))
    for ax, (label, (wave, points)) in zip(axes, what):
        g = [p[0] for p in points]
        us = lambda i: [p[i] * 1e6 for p in points]
        median, low, high = us(1), us(2), us(3)
        top = max(high) * 1.08
        k = 1
        while k * wave <= max(g):
            ax.axvline(k * wave, color='#999999', linestyle=':', linewidth=0.8, zorder=0)
            k += 1
        ax.vlines(g, low, high, color='#9ecae1', linewidth=0.8, zorder=1)
        ax.plot(g, median, '.', color='#1f77b4', markersize=4, label='measured median (bar: min to max)', zorder=2)
        ax.set_title(label + ' (dotted: whole waves)', fontsize=9.5)
        ax.set_xlabel('grid size $G$ (blocks)')
        ax.set_ylabel('time (µs)')
        ax.set_xlim(0, max(g) * 1.02)
        ax.set_ylim(0, top)
        ax.grid(True, axis='y', linewidth=0.3, alpha=0.6)
        ax.legend(loc='upper left', fontsize=plotlib.MIN_POINTS, frameon=False)
    return plotlib.finish(fig, data, 'Blocks that each read 256 KiB')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.2', 'waves-read-staircase.svg', read, draw))
