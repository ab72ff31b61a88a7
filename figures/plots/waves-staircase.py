#!/usr/bin/python3
"""Chapter 1.2's staircase: time against grid size, measured beside predicted.

    figures/plots/waves-staircase.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.2.json (a record written by make measure) and writes OUT_DIR/waves-staircase.svg:
two panels, b = 1 (every grid from one block to four and a half waves) and b = 4 (a quarter-N_SM
step), each with the measured medians as points, their min-max as bars, and the model's
t_0 + ceil(G/W) t_b as a line. Without the record it draws a panel that says so, so the page's
link is never broken. Byte-identical output for identical input (fixed SVG hash salt, no date).
Exit status: 0 done, 2 the record is unreadable or lacks the staircase (the message says which)."""
import json
import os
import re
import sys

SERIES = [('waves/staircase_b1', '$b = 1$: $W = N_\\mathrm{SM}$'), ('waves/staircase_b4', '$b = 4$: $W = 4\\,N_\\mathrm{SM}$')]


def series(results, name):
    """[(G, median s, min s, max s, predicted s)] sorted by G."""
    points = []
    for key, quantities in results.items():
        match = re.fullmatch(re.escape(name) + r'@(\d+)', key)
        if not match:
            continue
        time, predicted = quantities.get('time'), quantities.get('predicted_time')
        if not time or not predicted:
            raise ValueError('%s has no time or predicted_time' % key)
        points.append((int(match.group(1)), time['median'], time['min'], time['max'], predicted['median']))
    return sorted(points)


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    records, out_dir = argv
    path = os.path.join(records, '1.2.json')
    data = None
    if os.path.exists(path):
        try:
            with open(path) as f:
                data = json.load(f)
            panels = [(label, series(data.get('results', {}), name)) for name, label in SERIES]
        except (OSError, ValueError) as e:
            print('%s: %s' % (path, e), file=sys.stderr)
            return 2
        if not all(points for _, points in panels):
            print('%s: no staircase results (waves/staircase_b1@G, waves/staircase_b4@G)' % path, file=sys.stderr)
            return 2
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams['svg.hashsalt'] = 'kernels-and-the-machine'
    import matplotlib.pyplot as plt
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, 'waves-staircase.svg')
    if data is None:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.axis('off')
        ax.text(0.5, 0.5, 'Chapter 1.2 is not measured on this GPU yet:\nrun make measure CHAPTER=1.2',
                ha='center', va='center')
    else:
        fig, axes = plt.subplots(2, 1, figsize=(6.4, 6.4))
        for ax, (label, points) in zip(axes, panels):
            g = [p[0] for p in points]
            us = lambda i: [p[i] * 1e6 for p in points]
            median, low, high, predicted = us(1), us(2), us(3), us(4)
            ax.step(g, predicted, where='post', color='#d62728', linewidth=1.2,
                    label='model: $t_0 + \\lceil G/W \\rceil\\, t_b$', zorder=3)
            ax.vlines(g, low, high, color='#9ecae1', linewidth=0.8, zorder=1)
            ax.plot(g, median, '.', color='#1f77b4', markersize=2.5, label='measured median (bar: min to max)', zorder=2)
            ax.set_title(label, fontsize=10)
            ax.set_xlabel('grid size $G$ (blocks)')
            ax.set_ylabel('time (µs)')
            ax.set_xlim(0, max(g) * 1.02)
            ax.set_ylim(0, max(max(high), max(predicted)) * 1.08)
            ax.grid(True, linewidth=0.3, alpha=0.6)
            ax.legend(loc='upper left', fontsize=8, frameon=False)
        gpu = data.get('gpu', '?')
        fig.suptitle('Time against grid size, %s, %s' % (gpu, data.get('date', '?')[:10]), fontsize=10)
        fig.tight_layout()
    temporary = target + '.tmp'
    fig.savefig(temporary, format='svg', metadata={'Date': None})
    os.replace(temporary, target)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
