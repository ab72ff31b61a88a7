#!/usr/bin/python3
"""Chapter 2.2's ladder: each transpose's effective bandwidth beside the copies, and its
shared-memory wavefronts, predicted beside counted.

    figures/plots/transpose-ladder.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/2.2.json (and RECORDS_DIR/machine.json for B_copy, if present) and writes
OUT_DIR/transpose-ladder.svg: on the left, the bandwidth 8RC/t of every rung and of the two peer copies
at 8192 x 8192 as bars, with B_copy and 0.9 B_copy as lines; on the right, the model's shared-memory
wavefronts of each staged kernel beside the profiler's count (log scale; the counts are left out when
the record has none). Exit status 2: the record is unreadable or lacks the ladder (the message says
which). Without the record, a panel says it is not measured; figures/plotlib.py, the half every figure
script shares, says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

SIZE = '8192x8192'
BARS = [('v1_naive', 'v1 naive'), ('v2_tiled', 'v2 tiled'), ('v3_padded', 'v3 padded'),
        ('v4_swizzled', 'v4 swizzled'), ('v5_vectorized', 'v5 vectorized'),
        ('peer_copy', 'peer: copy kernel'), ('peer_memcpy', 'peer: cudaMemcpy')]
STAGED = [('v2_tiled', 'v2'), ('v3_padded', 'v3'), ('v4_swizzled', 'v4'), ('v5_vectorized', 'v5'),
          ('copy_staged', 'staged\ncopy')]


def quantity(results, rung, name):
    """The median of `name` for transpose/<rung>@8192x8192, or None."""
    entry = results.get('transpose/%s@%s' % (rung, SIZE), {}).get(name)
    return entry['median'] if entry else None


def read(data, records):
    results = data.get('results', {})
    bandwidth = [quantity(results, rung, 'bandwidth') for rung, _ in BARS]
    model = [quantity(results, rung, 'model_shared_wavefronts') for rung, _ in STAGED]
    counted = [quantity(results, rung, 'shared_wavefronts') for rung, _ in STAGED]
    if None in bandwidth or None in model:
        raise ValueError('no ladder results (transpose/<rung>@%s with bandwidth and model_shared_wavefronts)'
                         % SIZE)
    roofs = plotlib.ceilings(records)
    if roofs is not None and 'copy_bandwidth' not in roofs:
        raise plotlib.InputError(os.path.join(records, 'machine.json'), repr('copy_bandwidth'))
    return bandwidth, model, counted, None if roofs is None else roofs['copy_bandwidth']


def draw(plt, data, what):
    bandwidth, model, counted, copy_bandwidth = what
    fig, (left, right) = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 7.6))
    labels = [label for _, label in BARS]
    tbps = [b / 1e12 for b in bandwidth]
    colors = ['#1f77b4'] * 5 + ['#7f7f7f'] * 2
    y = list(range(len(labels)))[::-1]
    left.barh(y, tbps, color=colors, height=0.6)
    left.set_yticks(y)
    left.set_yticklabels(labels)
    if copy_bandwidth:
        left.axvline(copy_bandwidth / 1e12, color='#d62728', linewidth=1.0, label='$B_\\mathrm{copy}$')
        left.axvline(0.9 * copy_bandwidth / 1e12, color='#d62728', linewidth=1.0, linestyle='--',
                     label='$0.9\\,B_\\mathrm{copy}$')
        plotlib.legend_below(left, ncol=2)
    left.set_xlabel('bandwidth $8RC/t$ (TB/s)')
    left.set_title('8192 x 8192 floats, L2 flushed')
    left.grid(True, axis='x', linewidth=0.3, alpha=0.6)
    x = list(range(len(STAGED)))
    width = 0.38
    right.bar([i - width / 2 for i in x], model, width, color='#ff7f0e', label='model')
    if None not in counted:
        right.bar([i + width / 2 for i in x], counted, width, color='#2ca02c', label='ncu')
    right.set_yscale('log')
    shown = [v for v in model + (counted if None not in counted else []) if v and v > 0]
    right.set_ylim(min(shown) / 3, max(shown) * 3)
    right.set_xticks(x)
    right.set_xticklabels([label for _, label in STAGED])
    right.set_ylabel('shared-memory wavefronts')
    right.set_title('wavefronts, predicted and counted')
    right.legend(loc='upper right', frameon=False)
    right.grid(True, axis='y', linewidth=0.3, alpha=0.6)
    return plotlib.finish(fig, data, 'The transpose ladder')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '2.2', 'transpose-ladder.svg', read, draw))
