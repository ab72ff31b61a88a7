#!/usr/bin/python3
"""Chapter 1.3's streaming read: bandwidth against bytes in flight per SM, and against occupancy.

    figures/plots/occupancy-littles-law.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/1.3.json (a record written by make measure) and writes OUT_DIR/occupancy-littles-
law.svg: two panels. Left, every occupancy/stream@<warps>x<bytes> point's measured bandwidth (median,
bar from min to max) against q = warps x 32 x bytes, one marker per bytes in flight per thread, over the
model min(N_SM q / lambda, B_read) drawn from the lambda and B_read the same run measured (the points'
latency and read_ceiling) and the record's SM count. Right, the same medians against warps per SM, one
line per bytes in flight per thread. Exit status 2: the record is unreadable or lacks the sweep (the
message says which). Without the record, a panel says it is not measured; figures/plotlib.py, the half
every figure script shares, says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

NAME = 'occupancy/stream'
TARGET = 'occupancy-littles-law.svg'


def sweep(results):
    """[(warps, bytes per thread, median B/s, min, max, latency s, read ceiling B/s)] sorted."""
    points = []
    for key, (warps, per_thread), quantities in plotlib.results_of(results, NAME, 2):
        try:
            bandwidth = quantities['bandwidth']
            latency = quantities['latency']['median']
            ceiling = quantities['read_ceiling']['median']
        except (KeyError, TypeError):
            raise ValueError('%s has no bandwidth, latency or read_ceiling' % key)
        points.append((warps, per_thread, bandwidth['median'], bandwidth['min'],
                       bandwidth['max'], latency, ceiling))
    return sorted(points)


def read(data, records):
    points = sweep(data.get('results', {}))
    sm_count = int(data.get('context', {}).get('sm_count', 0))
    if not points:
        raise ValueError('no streaming results (%s@<warps>x<bytes>)' % NAME)
    if sm_count <= 0:
        raise ValueError('the context has no sm_count')
    return points, sm_count


def draw(plt, data, what):
    points, sm_count = what
    latencies = sorted(p[5] for p in points)
    ceilings = sorted(p[6] for p in points)
    latency, ceiling = latencies[len(latencies) // 2], ceilings[len(ceilings) // 2]
    per_thread = sorted({p[1] for p in points})
    markers = ['o', 's', '^', 'D', 'v', 'P']
    colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2']
    fig, (left, right) = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 8.4))
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
    left.set_title('Little\'s law: $q^* = \\lambda B_\\mathrm{read} / N_\\mathrm{SM}$ dotted')
    right.axhline(ceiling / 1e12, color='#d62728', linewidth=0.8, linestyle='--', label='$B_\\mathrm{read}$')
    right.set_xscale('log', base=2)
    warps = sorted({p[0] for p in points})
    right.set_xticks(warps)
    right.set_xticklabels([str(w) for w in warps])
    right.set_xlabel('resident warps per SM (64 = full)')
    right.set_ylabel('bandwidth (TB/s)')
    right.set_title('The same points against occupancy')
    for ax in (left, right):
        ax.set_ylim(0, max(max(p[4] for p in points), ceiling) / 1e12 * 1.1)
        ax.grid(True, linewidth=0.3, alpha=0.6)
        ax.legend(loc='lower right', frameon=False)
    return plotlib.finish(fig, data, 'Streaming read')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '1.3', TARGET, read, draw))
