#!/usr/bin/python3
"""Chapter 3.2b's ladder against its two bounds: each rung's measured time beside the arithmetic
bound and the L2 bound, with cuBLAS.

    figures/plots/hopper-predicted.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/3.2b.json (and RECORDS_DIR/machine.json for B_L2, if present) and writes
OUT_DIR/hopper-predicted.svg: one panel for 4096^3 and one for 8192^3, each with every rung
hopper/vN[b]_*@S that has a predicted_compute_time (in the order of N, v1b after v1): the measured
median as a filled marker with its min-max bar; t_compute at the maximum clock as a dotted line
(the same for every rung); t_compute at the rung's own window clock (sm_clock_mhz) as a hollow
square; the L2 bound model_l2_bytes / B_L2 as a hollow circle (left out without machine.json); and
cuBLAS BF16 as a line, all on a log scale. Results this GPU skipped are left out; with no rung
measured (3.2b is sm_90a only) the panel says so. Exit status 2: the record is unreadable, or a rung or cuBLAS lacks a quantity it needs (the message says which). Without the record, a panel
says it is not measured; figures/plotlib.py, the half every figure script shares, says how
(byte-identical SVG)."""
import os
import re
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

SIZES = [('4096x4096x4096', '$4096^3$'), ('8192x8192x8192', '$8192^3$')]
RUNG = re.compile(r'hopper/v(\d+)(b?)_([a-z0-9_]+)@(\d+x\d+x\d+)')
PEER = 'hopper/peer_cublas_bf16@'


def median(results, key, name):
    """The median of quantity `name` of result `key`; ValueError naming both if absent."""
    entry = results.get(key, {}).get(name) if isinstance(results.get(key), dict) else None
    if not isinstance(entry, dict) or 'median' not in entry:
        raise ValueError('%s has no %s' % (key, name))
    return entry['median']


def panel(results, size, clock_max, l2_bandwidth):
    """The rungs of one size in ladder order: (label, time (median, min, max), t_compute at the
    maximum clock, t_compute at the window clock, L2 bound or None); and cuBLAS's time."""
    found = []
    for key, quantities in results.items():
        match = RUNG.fullmatch(key)
        if match and match.group(4) == size and isinstance(quantities, dict) and \
                'predicted_compute_time' in quantities:
            found.append(((int(match.group(1)), match.group(2)), key, 'v%s%s' % match.groups()[:2]))
    rungs = []
    for _, key, label in sorted(found):
        time = results[key]['time'] if isinstance(results[key].get('time'), dict) else None
        if time is None or 'median' not in time:
            raise ValueError('%s has no time' % key)
        bound = median(results, key, 'predicted_compute_time')
        at_clock = bound * clock_max / median(results, key, 'sm_clock_mhz')
        l2 = median(results, key, 'model_l2_bytes') / l2_bandwidth if l2_bandwidth else None
        rungs.append((label, (time['median'], time.get('min', time['median']), time.get('max', time['median'])),
                      bound, at_clock, l2))
    return rungs, (median(results, PEER + size, 'time') if rungs and PEER + size in results else None)


def read(data, records):
    results = plotlib.measured_results(data)
    clock_max = data.get('context', {}).get('sm_clock_max_mhz')
    if not clock_max:
        raise ValueError('the record\'s context has no sm_clock_max_mhz')
    roofs = plotlib.ceilings(records)
    if roofs is not None and 'l2_bandwidth' not in roofs:
        raise plotlib.InputError(os.path.join(records, 'machine.json'), repr('l2_bandwidth'))
    l2_bandwidth = None if roofs is None else roofs['l2_bandwidth']
    panels = [(title, panel(results, size, clock_max, l2_bandwidth)) for size, title in SIZES]
    if not any(rungs for _, (rungs, _) in panels):
        return None  # 3.2b is sm_90a only: on another GPU its rungs are skipped
    return [(title, found) for title, found in panels if found[0]]


def draw(plt, data, what):
    if what is None:
        return plotlib.not_measured(plt, '3.2b')
    fig, axes = plt.subplots(len(what), 1, figsize=(plotlib.WIDTH, 3.4 * len(what) + 1.2), squeeze=False)
    for ax, (title, (rungs, peer)) in zip(axes[:, 0], what):
        x = list(range(len(rungs)))
        ms = lambda seconds: seconds * 1e3
        measured = [ms(t[0]) for _, t, _, _, _ in rungs]
        ax.axhline(ms(rungs[0][2]), color='#7f7f7f', linestyle=':', linewidth=1.0,
                   label='$t_\\mathrm{compute}$ at $f_\\mathrm{max}$')
        if peer is not None:
            ax.axhline(ms(peer), color='#d62728', linewidth=1.0, label='cuBLAS BF16')
        ax.plot(x, [ms(r[3]) for r in rungs], 's', markerfacecolor='none', markeredgecolor='#2ca02c',
                markersize=6, label='$t_\\mathrm{compute}$ at its window clock')
        if all(r[4] is not None for r in rungs):
            ax.plot(x, [ms(r[4]) for r in rungs], 'o', markerfacecolor='none', markeredgecolor='#ff7f0e',
                    markersize=7, label='$Q_{L2} / B_\\mathrm{L2}$')
        ax.errorbar(x, measured, yerr=[[ms(t[0] - t[1]) for _, t, _, _, _ in rungs],
                                       [ms(t[2] - t[0]) for _, t, _, _, _ in rungs]],
                    fmt='o', color='#1f77b4', markersize=4, elinewidth=0.8, label='measured median')
        ax.set_yscale('log')
        ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda value, _: '%g' % value))
        ax.yaxis.set_minor_formatter(plt.FuncFormatter(lambda value, _: '%g' % value))
        ax.set_xticks(x)
        ax.set_xticklabels([r[0] for r in rungs])
        ax.set_ylabel('time (ms, log)')
        ax.set_title(title)
        ax.grid(True, axis='y', which='both', linewidth=0.3, alpha=0.6)
    plotlib.legend_below(axes[-1, 0], 0, ncol=2)
    return plotlib.finish(fig, data, 'The Hopper ladder against its bounds')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '3.2b', 'hopper-predicted.svg', read, draw))
