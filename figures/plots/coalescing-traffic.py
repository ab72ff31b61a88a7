#!/usr/bin/python3
"""Chapter 2.1's access patterns: predicted against counted traffic, and effective against raw bandwidth.

    figures/plots/coalescing-traffic.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/2.1.json (a record written by make measure) and, if present, RECORDS_DIR/machine.json,
and writes OUT_DIR/coalescing-traffic.svg: two panels, one group of bars per access pattern. Left, the
model's DRAM bytes (model_dram_bytes) beside ncu's counted dram_bytes (absent when the record has no
counters: the panel then says so). Right, the effective bandwidth (useful bytes over time, the record's
bandwidth) beside the raw DRAM rate (counted dram_bytes over time, or the model's bytes over time when
nothing was counted), with the copy ceiling B_copy of machine.json as a line. Exit status 2: the record
is unreadable or lacks the patterns (the message says which). Without the record, a panel says it is not
measured; figures/plotlib.py, the half every figure script shares, says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

N = '67108864'
PATTERNS = [
    ('coalescing/unit_stride@' + N, 'unit\nfloat'),
    ('coalescing/unit_stride_float4@' + N, 'unit\nfloat4'),
    ('coalescing/stride@' + N + 'x2', 'stride\n2'),
    ('coalescing/stride@' + N + 'x4', 'stride\n4'),
    ('coalescing/stride@' + N + 'x8', 'stride\n8'),
    ('coalescing/stride@' + N + 'x32', 'stride\n32'),
    ('coalescing/stride_fetch32@' + N + 'x32', 'stride 32\nfetch 32'),
    ('coalescing/misaligned@' + N + 'x1', 'misaligned'),
    ('coalescing/aos@' + N, 'AoS'),
    ('coalescing/soa@' + N, 'SoA'),
]
TARGET = 'coalescing-traffic.svg'


def median(quantities, name):
    value = quantities.get(name)
    return None if not isinstance(value, dict) else value.get('median')


def patterns(results):
    """[(label, model bytes, counted bytes or None, effective B/s, time s)] in the book's order."""
    rows = []
    for key, label in PATTERNS:
        quantities = results.get(key)
        if quantities is None:
            continue
        model, bandwidth, time = (median(quantities, q) for q in ('model_dram_bytes', 'bandwidth', 'time'))
        if model is None or bandwidth is None or not time:
            raise ValueError('%s has no model_dram_bytes, bandwidth or time' % key)
        rows.append((label, model, median(quantities, 'dram_bytes'), bandwidth, time))
    return rows


def read(data, records):
    rows = patterns(data.get('results', {}))
    if not rows:
        raise ValueError('none of the access patterns (%s, ...)' % PATTERNS[0][0])
    try:
        ceiling = (plotlib.ceilings(records) or {}).get('copy_bandwidth')
    except plotlib.InputError:
        ceiling = None  # the figure is drawn without the line; the chapter's claims check it
    return rows, ceiling


def draw(plt, data, what):
    rows, ceiling = what
    counted = all(r[2] is not None for r in rows)
    x = list(range(len(rows)))
    labels = [r[0] for r in rows]
    width = 0.38
    # horizontal bars, one pattern a row, the two panels stacked: the names read across a phone
    fig, (left, right) = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 8.4))
    x = x[::-1]
    left.barh([i + width / 2 for i in x], [r[1] / 1e9 for r in rows], width, color='#d62728',
             label='model: distinct granules')
    if counted:
        left.barh([i - width / 2 for i in x], [r[2] / 1e9 for r in rows], width, color='#1f77b4',
                 label='ncu: dram_bytes')
    else:
        left.text(0.5, 0.95, 'no counters in this record', transform=left.transAxes, ha='center',
                  va='top')
    left.set_xlabel('DRAM bytes per kernel (GB)')
    left.set_title('Predicted and counted DRAM traffic')
    right.barh([i + width / 2 for i in x], [r[3] / 1e12 for r in rows], width, color='#2ca02c',
              label='effective: useful bytes / time')
    raw = [(r[2] if counted else r[1]) / r[4] / 1e12 for r in rows]
    right.barh([i - width / 2 for i in x], raw, width, color='#9467bd',
              label='raw: %s DRAM bytes / time' % ('counted' if counted else 'model'))
    if ceiling:
        right.axvline(ceiling / 1e12, color='black', linewidth=0.9, linestyle='--',
                      label='$B_\\mathrm{copy}$ = %.2f TB/s' % (ceiling / 1e12))
    right.set_xlabel('bandwidth (TB/s)')
    right.set_title('Effective and raw bandwidth')
    for ax in (left, right):
        ax.set_yticks(x)
        ax.set_yticklabels([label.replace('\n', ' ') for label in labels])
        ax.grid(True, axis='x', linewidth=0.3, alpha=0.6)
        plotlib.legend_below(ax)
    return plotlib.finish(fig, data, 'Access patterns, $n = 2^{26}$ floats')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '2.1', TARGET, read, draw))
