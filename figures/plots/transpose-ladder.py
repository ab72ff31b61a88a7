#!/usr/bin/python3
"""Chapter 2.2's ladder: each transpose's effective bandwidth beside the copies, and its
shared-memory wavefronts, predicted beside counted.

    figures/plots/transpose-ladder.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/2.2.json (and RECORDS_DIR/machine.json for B_copy, if present) and writes
OUT_DIR/transpose-ladder.svg: on the left, the bandwidth 8RC/t of every rung and of the two peer
copies at 8192 x 8192 as bars, with B_copy and 0.9 B_copy as lines; on the right, the model's
shared-memory wavefronts of each staged kernel beside the profiler's count (log scale; the counts
are left out when the record has none). Without the record it draws a panel that says so, so the
page's link is never broken. Byte-identical output for identical input (fixed SVG hash salt, no
date). Exit status: 0 done, 2 the record is unreadable or lacks the ladder (the message says which)."""
import json
import os
import sys

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


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    records, out_dir = argv
    path = os.path.join(records, '2.2.json')
    data, copy_bandwidth = None, None
    if os.path.exists(path):
        try:
            with open(path) as f:
                data = json.load(f)
            results = data.get('results', {})
            bandwidth = [quantity(results, rung, 'bandwidth') for rung, _ in BARS]
            model = [quantity(results, rung, 'model_shared_wavefronts') for rung, _ in STAGED]
            counted = [quantity(results, rung, 'shared_wavefronts') for rung, _ in STAGED]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print('%s: %s' % (path, e), file=sys.stderr)
            return 2
        if None in bandwidth or None in model:
            print('%s: no ladder results (transpose/<rung>@%s with bandwidth and model_shared_wavefronts)'
                  % (path, SIZE), file=sys.stderr)
            return 2
        machine = os.path.join(records, 'machine.json')
        if os.path.exists(machine):
            try:
                with open(machine) as f:
                    copy_bandwidth = json.load(f)['ceilings']['copy_bandwidth']['median']
            except (OSError, ValueError, KeyError, TypeError) as e:
                print('%s: %s' % (machine, e), file=sys.stderr)
                return 2
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams['svg.hashsalt'] = 'kernels-and-the-machine'
    import matplotlib.pyplot as plt
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, 'transpose-ladder.svg')
    if data is None:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.axis('off')
        ax.text(0.5, 0.5, 'Chapter 2.2 is not measured on this GPU yet:\nrun make measure CHAPTER=2.2',
                ha='center', va='center')
    else:
        fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 3.8), gridspec_kw={'width_ratios': [3, 2]})
        labels = [label for _, label in BARS]
        tbps = [b / 1e12 for b in bandwidth]
        colors = ['#1f77b4'] * 5 + ['#7f7f7f'] * 2
        y = list(range(len(labels)))[::-1]
        left.barh(y, tbps, color=colors, height=0.6)
        left.set_yticks(y)
        left.set_yticklabels(labels, fontsize=8)
        if copy_bandwidth:
            left.axvline(copy_bandwidth / 1e12, color='#d62728', linewidth=1.0, label='$B_\\mathrm{copy}$')
            left.axvline(0.9 * copy_bandwidth / 1e12, color='#d62728', linewidth=1.0, linestyle='--',
                         label='$0.9\\,B_\\mathrm{copy}$')
            left.legend(loc='upper right', fontsize=8, frameon=False)
        left.set_xlabel('bandwidth $8RC/t$ (TB/s)')
        left.set_title('8192 x 8192 floats, L2 flushed', fontsize=10)
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
        right.set_xticklabels([label for _, label in STAGED], fontsize=8)
        right.set_ylabel('shared-memory wavefronts')
        right.set_title('wavefronts, predicted and counted', fontsize=10)
        right.legend(loc='upper right', fontsize=8, frameon=False)
        right.grid(True, axis='y', linewidth=0.3, alpha=0.6)
        fig.suptitle('The transpose ladder, %s, %s' % (data.get('gpu', '?'), data.get('date', '?')[:10]),
                     fontsize=10)
        fig.tight_layout()
    temporary = target + '.tmp'
    fig.savefig(temporary, format='svg', metadata={'Date': None})
    os.replace(temporary, target)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
