#!/usr/bin/python3
"""Chapter 2.3's two measured curves: bandwidth against working set, and time against reuse.

    figures/plots/reuse-working-set.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/2.3.json (a record written by make measure) and, where present,
RECORDS_DIR/machine.json (the harness's ceilings), and writes OUT_DIR/reuse-working-set.svg: two panels.
Top, the bandwidth of every reuse/sweep_ca@W and reuse/sweep_cg@W point (median, bar from min to max)
against the working set W on a log scale, the L2 size of the record's context marked, the measured ends
of the plateaus (reuse/plateau_edges) dotted, and B_smem, B_L2 and B_read from machine.json as
horizontal lines. Bottom, the time of every reuse/register_reuse@<bytes>x<r> point against r, with the
model's two terms, bytes / B_read and flops / F_fp32, where machine.json gives them. Exit status 2: the
record is unreadable or lacks the sweep (the message says which). Without the record, a panel says it is
not measured; figures/plotlib.py, the half every figure script shares, says how (byte-identical SVG)."""
import math
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

TARGET = 'reuse-working-set.svg'
SWEEPS = [('reuse/sweep_ca', 'ld.global.ca (through L1)', '#1f77b4', 'o'),
          ('reuse/sweep_cg', 'ld.global.cg (L2 only)', '#ff7f0e', 's')]
REUSE = 'reuse/register_reuse'
EDGES = 'reuse/plateau_edges@1048576'
MiB = 1024.0 * 1024.0


def sweep(results, name):
    """[(W bytes, median B/s, min, max)] sorted by W."""
    points = []
    for key, (w,), quantities in plotlib.results_of(results, name):
        bandwidth = quantities.get('bandwidth')
        if not bandwidth:
            raise ValueError('%s has no bandwidth' % key)
        points.append((w, bandwidth['median'], bandwidth['min'], bandwidth['max']))
    return sorted(points)


def reuse_points(results):
    """[(r, median s, min s, max s, bytes, flops)] sorted by r."""
    points = []
    for key, (_, r), quantities in plotlib.results_of(results, REUSE, 2):
        try:
            time = quantities['time']
            points.append((r, time['median'], time['min'], time['max'],
                           quantities['bytes']['median'], quantities['flops']['median']))
        except (KeyError, TypeError):
            raise ValueError('%s has no time, bytes or flops' % key)
    return sorted(points)


def plain_log_axes(ax, xticks):
    """Log scales on both axes, labelled with plain numbers rather than powers."""
    from matplotlib.ticker import FuncFormatter
    ax.set_xscale('log', base=2)
    ax.set_yscale('log')
    ax.set_xticks(xticks)
    plain = FuncFormatter(lambda v, _: '%g' % v)
    ax.xaxis.set_major_formatter(plain)
    ax.yaxis.set_major_formatter(plain)
    # Minor ticks labelled at 2 and 5 times a power of ten only, so the labels do not crowd.
    ax.yaxis.set_minor_formatter(FuncFormatter(
        lambda v, _: '%g' % v if v > 0 and round(v / 10 ** math.floor(math.log10(v)), 6) in (2, 5) else ''))


def draw_sweep(ax, curves, l2_bytes, edges, roofs):
    for (name, label, color, marker), points in curves:
        w = [p[0] / MiB for p in points]
        tb = lambda i: [p[i] / 1e12 for p in points]
        ax.vlines(w, tb(2), tb(3), color=color, linewidth=0.8, alpha=0.5)
        ax.plot(w, tb(1), marker=marker, color=color, markersize=3.5, linewidth=1.0, label=label)
    for ceiling, label, style in (('shared_bandwidth', '$B_\\mathrm{smem}$', ':'),
                                  ('l2_bandwidth', '$B_\\mathrm{L2}$', '--'),
                                  ('read_bandwidth', '$B_\\mathrm{read}$', '-.')):
        if ceiling in roofs:
            ax.axhline(roofs[ceiling] / 1e12, color='#555555', linestyle=style, linewidth=0.8)
            ax.annotate(label, (0.99, roofs[ceiling] / 1e12), xycoords=('axes fraction', 'data'),
                        ha='right', va='bottom')
    if l2_bytes:
        ax.axvline(l2_bytes / MiB, color='#d62728', linewidth=1.2)
        ax.annotate('L2 = %g MiB' % (l2_bytes / MiB), (l2_bytes / MiB * 1.08, 0.97), xycoords=('data', 'axes fraction'),
                    color='#d62728', va='top')
    for quantity, color in (('l1_plateau_end_bytes', '#1f77b4'), ('l2_plateau_end_bytes', '#ff7f0e')):
        if quantity in edges:
            ax.axvline(edges[quantity]['median'] / MiB, color=color, linestyle=':', linewidth=1.0)
    plain_log_axes(ax, [1, 4, 16, 64, 256, 1024, 4096])
    ax.set_xlabel('working set $W$ (MiB)')
    ax.set_ylabel('bandwidth (TB/s)')
    ax.grid(True, which='both', linewidth=0.3, alpha=0.6)
    plotlib.legend_below(ax)


def draw_reuse(ax, points, roofs):
    r = [p[0] for p in points]
    us = lambda i: [p[i] * 1e6 for p in points]
    ax.vlines(r, us(2), us(3), color='#9ecae1', linewidth=0.8)
    ax.plot(r, us(1), 'o', color='#1f77b4', markersize=3.5, label='measured median (bar: min to max)')
    if 'read_bandwidth' in roofs and 'fp32_fma_rate' in roofs:
        memory = [p[4] / roofs['read_bandwidth'] * 1e6 for p in points]
        arithmetic = [p[5] / roofs['fp32_fma_rate'] * 1e6 for p in points]
        ax.plot(r, memory, '--', color='#555555', linewidth=0.9, label='$Q / B_\\mathrm{read}$')
        ax.plot(r, arithmetic, '-.', color='#d62728', linewidth=0.9, label='$\\mathcal{W} / F_\\mathrm{fp32}$')
        r_star = 2 * roofs['fp32_fma_rate'] / roofs['read_bandwidth']
        ax.axvline(r_star, color='#d62728', linestyle=':', linewidth=0.9)
        ax.annotate('$r^* = 2F/B$', (r_star * 1.08, 0.97), xycoords=('data', 'axes fraction'),
                    color='#d62728', va='top')
    plain_log_axes(ax, [1, 2, 4, 8, 16, 32, 64, 128, 256])
    ax.set_xlabel('reuse $r$ (FMAs per loaded float)')
    ax.set_ylabel('time (µs)')
    ax.grid(True, which='both', linewidth=0.3, alpha=0.6)
    plotlib.legend_below(ax)


def read(data, records):
    results = data.get('results', {})
    curves = [(spec, sweep(results, spec[0])) for spec in SWEEPS]
    reuse = reuse_points(results)
    l2_bytes = data.get('context', {}).get('l2_bytes')
    edges = results.get(EDGES, {})
    roofs = plotlib.ceilings(records) or {}
    if not all(points for _, points in curves):
        raise ValueError('no sweep results (reuse/sweep_ca@W, reuse/sweep_cg@W)')
    return curves, reuse, l2_bytes, edges, roofs


def draw(plt, data, what):
    curves, reuse, l2_bytes, edges, roofs = what
    fig, axes = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 9.0))
    draw_sweep(axes[0], curves, l2_bytes, edges, roofs)
    axes[0].set_title('Bandwidth of a sweep that stays\nwherever it fits')
    if reuse:
        draw_reuse(axes[1], reuse, roofs)
        axes[1].set_title('Time against reuse,\n%.0f MiB read from DRAM' % (reuse[0][4] / MiB))
    else:
        axes[1].axis('off')
        axes[1].text(0.5, 0.5, 'no reuse/register_reuse results in the record', ha='center', va='center')
    return plotlib.finish(fig, data)


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '2.3', TARGET, read, draw))
