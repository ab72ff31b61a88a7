#!/usr/bin/python3
"""Chapter 1.3's streaming read: bandwidth against bytes in flight per SM, and against occupancy.

    figures/plots/occupancy-littles-law.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.3.json (a record written by make measure) and writes
OUT_DIR/occupancy-littles-law.svg: two panels. Left, every occupancy/stream@<warps>x<bytes> point's
measured bandwidth (median, bar from min to max) against q = warps x 32 x bytes, one marker per
bytes in flight per thread, over the model min(N_SM q / lambda, B_read) drawn from the lambda and
B_read the same run measured (the points' latency and read_ceiling) and the record's SM count.
Right, the same medians against warps per SM, one line per bytes in flight per thread. Without the
record it draws a panel that says so, so the page's link is never broken. Byte-identical output for
identical input (fixed SVG hash salt, no date).
Exit status: 0 done, 2 the record is unreadable or lacks the sweep (the message says which)."""
import json
import os
import re
import sys

NAME = 'occupancy/stream'
TARGET = 'occupancy-littles-law.svg'


def sweep(results):
    """[(warps, bytes per thread, median B/s, min, max, latency s, read ceiling B/s)] sorted."""
    points = []
    for key, quantities in results.items():
        match = re.fullmatch(re.escape(NAME) + r'@(\d+)x(\d+)', key)
        if not match:
            continue
        try:
            bandwidth = quantities['bandwidth']
            latency = quantities['latency']['median']
            ceiling = quantities['read_ceiling']['median']
        except (KeyError, TypeError):
            raise ValueError('%s has no bandwidth, latency or read_ceiling' % key)
        points.append((int(match.group(1)), int(match.group(2)), bandwidth['median'], bandwidth['min'],
                       bandwidth['max'], latency, ceiling))
    return sorted(points)


def main(argv):
    if len(argv) != 2:
        print(__doc__.split('\n\n')[1].strip(), file=sys.stderr)
        return 2
    records, out_dir = argv
    path = os.path.join(records, '1.3.json')
    data = None
    if os.path.exists(path):
        try:
            with open(path) as f:
                data = json.load(f)
            points = sweep(data.get('results', {}))
            sm_count = int(data.get('context', {}).get('sm_count', 0))
        except (OSError, ValueError) as e:
            print('%s: %s' % (path, e), file=sys.stderr)
            return 2
        if not points:
            print('%s: no streaming results (%s@<warps>x<bytes>)' % (path, NAME), file=sys.stderr)
            return 2
        if sm_count <= 0:
            print('%s: the context has no sm_count' % path, file=sys.stderr)
            return 2
    import matplotlib
    matplotlib.use('Agg')
    matplotlib.rcParams['svg.hashsalt'] = 'kernels-and-the-machine'
    import matplotlib.pyplot as plt
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, TARGET)
    if data is None:
        fig, ax = plt.subplots(figsize=(6, 2))
        ax.axis('off')
        ax.text(0.5, 0.5, 'Chapter 1.3 is not measured on this GPU yet:\nrun make measure CHAPTER=1.3',
                ha='center', va='center')
    else:
        latencies = sorted(p[5] for p in points)
        ceilings = sorted(p[6] for p in points)
        latency, ceiling = latencies[len(latencies) // 2], ceilings[len(ceilings) // 2]
        per_thread = sorted({p[1] for p in points})
        markers = ['o', 's', '^', 'D', 'v', 'P']
        colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2']
        fig, (left, right) = plt.subplots(1, 2, figsize=(9.6, 4.2))
        q_all = [w * 32 * b for w, b, *_ in points]
        q_lo, q_hi = min(q_all) / 1.5, max(q_all) * 1.5
        grid = [q_lo * (q_hi / q_lo) ** (i / 200) for i in range(201)]
        model = [min(sm_count * q / latency, ceiling) / 1e12 for q in grid]
        left.plot([q / 1024 for q in grid], model, color='#d62728', linewidth=1.2, zorder=3,
                  label='model: $\\min(N_\\mathrm{SM} q / \\lambda,\\ B_\\mathrm{read})$')
        knee = latency * ceiling / sm_count
        left.axvline(knee / 1024, color='#d62728', linewidth=0.6, linestyle=':', zorder=1)
        for i, b in enumerate(per_thread):
            mine = [p for p in points if p[1] == b]
            q = [p[0] * 32 * b / 1024 for p in mine]
            left.vlines(q, [p[3] / 1e12 for p in mine], [p[4] / 1e12 for p in mine],
                        color=colors[i % len(colors)], linewidth=0.8, zorder=2)
            left.plot(q, [p[2] / 1e12 for p in mine], markers[i % len(markers)], color=colors[i % len(colors)],
                      markersize=5, zorder=4, label='%d B in flight per thread' % b)
            right.plot([p[0] for p in mine], [p[2] / 1e12 for p in mine], '-' + markers[i % len(markers)],
                       color=colors[i % len(colors)], markersize=5, label='%d B per thread' % b)
        left.set_xscale('log', base=2)
        left.set_xlabel('bytes in flight per SM, $q$ (KiB)')
        left.set_ylabel('bandwidth (TB/s)')
        left.set_title('Little\'s law: $q^* = \\lambda B_\\mathrm{read} / N_\\mathrm{SM}$ dotted', fontsize=10)
        right.axhline(ceiling / 1e12, color='#d62728', linewidth=0.8, linestyle='--', label='$B_\\mathrm{read}$')
        right.set_xscale('log', base=2)
        warps = sorted({p[0] for p in points})
        right.set_xticks(warps)
        right.set_xticklabels([str(w) for w in warps])
        right.set_xlabel('resident warps per SM (64 = full occupancy)')
        right.set_ylabel('bandwidth (TB/s)')
        right.set_title('The same points against occupancy', fontsize=10)
        for ax, corner in ((left, 'upper left'), (right, 'lower right')):
            ax.set_ylim(0, max(max(p[4] for p in points), ceiling) / 1e12 * 1.1)
            ax.grid(True, linewidth=0.3, alpha=0.6)
            ax.legend(loc=corner, fontsize=7, frameon=False)
        fig.suptitle('Streaming read, %s, %s' % (data.get('gpu', '?'), data.get('date', '?')[:10]), fontsize=10)
        fig.tight_layout()
    temporary = target + '.tmp'
    fig.savefig(temporary, format='svg', metadata={'Date': None})
    os.replace(temporary, target)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
