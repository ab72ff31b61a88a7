#!/usr/bin/python3
"""Chapter 4.3's traffic sweep: the naive chain's and the tiled kernel's bytes against N.

    figures/plots/attention-traffic.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/4.3.json (a record written by make measure) and writes OUT_DIR/attention-traffic.svg:
one log-log panel over the sweep's sequence lengths N (B H N^2 fixed, d = 128), bytes per call. Lines
for the model (the record's `bytes`: DRAM for both kernels; `model_l2_bytes`: the tiled kernel's L2
traffic) and markers for ncu's counts (dram_bytes, l2_bytes) where the record has them; without
counters the panel says so. Exit status 2: the record is unreadable or lacks the sweep (the message
says which). Without the record, a panel says it is not measured (figures/plotlib.py)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

TARGET = 'attention-traffic.svg'
SWEEP_D = 128   # the sweep's head dimension; its B H N^2 is fixed, so B and H vary with N


def median(quantities, name):
    value = quantities.get(name)
    return None if not isinstance(value, dict) else value.get('median')


def sweep(results, rung):
    """{N: quantities} of the rung's non-causal d = 128 results with B H N^2 = 2^28, the sweep."""
    rows = {}
    for key, (b, h, n, d, causal), quantities in plotlib.results_of(results, 'attention/' + rung, 5):
        if d == SWEEP_D and not causal and b * h * n * n == 1 << 28:
            rows[n] = quantities
    return rows


def read(data, records):
    results = data.get('results', {})
    naive, flash = sweep(results, 'v1_naive'), sweep(results, 'v2_flash')
    if not naive or not flash:
        raise ValueError('no sweep of attention/v1_naive and attention/v2_flash (B H N^2 = 2^28, d = 128)')
    for rung, rows in (('v1_naive', naive), ('v2_flash', flash)):
        for n, quantities in rows.items():
            if median(quantities, 'bytes') is None:
                raise ValueError('attention/%s at N = %d has no bytes (the model\'s)' % (rung, n))
    return naive, flash


def draw(plt, data, what):
    naive, flash = what
    fig, ax = plt.subplots(figsize=(plotlib.WIDTH, 4.8))
    series = [
        (naive, 'bytes', 'dram_bytes', '#d62728', 'naive, DRAM'),
        (flash, 'bytes', 'dram_bytes', '#1f77b4', 'tiled, DRAM'),
        (flash, 'model_l2_bytes', 'l2_bytes', '#2ca02c', 'tiled, L1 <-> L2'),
    ]
    counted_any = False
    for rows, model, counted, color, label in series:
        ns = sorted(rows)
        ax.plot(ns, [median(rows[n], model) / 1e9 for n in ns], color=color, linewidth=1.2,
                label=label + ' (model)')
        have = [n for n in ns if median(rows[n], counted) is not None]
        if have:
            counted_any = True
            ax.plot(have, [median(rows[n], counted) / 1e9 for n in have], 'o', color=color,
                    markersize=5, label=label + ' (ncu)')
    if not counted_any:
        ax.text(0.5, 0.95, 'no counters in this record', transform=ax.transAxes, ha='center',
                va='top')
    ax.set_xscale('log', base=2)
    ax.set_yscale('log')
    ax.set_xlabel('sequence length N\n(B H N$^2$ = 2$^{28}$, d = 128)')
    ax.set_ylabel('bytes per call (GB)')
    ax.grid(True, which='both', linewidth=0.3, alpha=0.6)
    plotlib.legend_below(ax, 2, ncol=2)
    return plotlib.finish(fig, data, 'Attention traffic')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '4.3', TARGET, read, draw))
