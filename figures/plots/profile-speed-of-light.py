#!/usr/bin/python3
"""Chapter 4.2's four profiles: for each kernel, how near each unit ran to its sustained peak.

    figures/plots/profile-speed-of-light.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/4.2.json and writes OUT_DIR/profile-speed-of-light.svg: one panel per kernel, a bar
per unit (DRAM, L2, L1 and shared memory, the SM's busiest sub-unit, the tensor pipe, the issue
slots) at its fraction of peak as ncu counted it, the largest bar drawn dark. Exit status 2: the
record is unreadable or lacks a kernel's counters (the message says which). Without the record, a
panel says it is not measured; figures/plotlib.py, the half every figure script shares, says how
(byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

KERNELS = [('profile/reduce_v5@268435456', 'reduction (3.1)'),
           ('profile/transpose_conflicted@8192x8192', 'conflicted transpose (2.2)'),
           ('profile/mma_bf16@4096x4096x4096', 'mma.sync product (3.2)'),
           ('profile/stream_latency@268435456', 'latency-bound stream (1.3)')]
UNITS = [('sol_dram', 'DRAM'), ('sol_l2', 'L2'), ('sol_l1', 'L1 + shared'), ('sol_sm', 'SM'),
         ('pipe_tensor', 'tensor pipe'), ('issue_active', 'issue slots')]


def read(data, records):
    results = data.get('results', {})
    fractions = []
    for key, _ in KERNELS:
        quantities = results.get(key, {})
        missing = [name for name, _ in UNITS if name not in quantities]
        if missing:
            raise ValueError('%s has no %s: measure with ncu (make measure)' % (key, ', '.join(missing)))
        fractions.append([quantities[name]['median'] for name, _ in UNITS])
    return fractions


def draw(plt, data, fractions):
    # one kernel a panel, stacked: each panel is the phone's width
    fig, axes = plt.subplots(len(KERNELS), 1, figsize=(plotlib.WIDTH, 1.75 * len(KERNELS) + 0.6), sharex=True)
    y = list(range(len(UNITS)))[::-1]
    for axis, (_, title), values in zip(axes, KERNELS, fractions):
        largest = max(range(len(values)), key=lambda i: values[i])
        colors = ['#1f4e79' if i == largest else '#9dc3e6' for i in range(len(values))]
        axis.barh(y, [100 * v for v in values], color=colors, height=0.6)
        axis.axvline(100, color='#d62728', linewidth=1.0)
        axis.set_xlim(0, 105)
        axis.set_title(title)
        
        axis.grid(True, axis='x', linewidth=0.3, alpha=0.6)
        axis.set_yticks(y)
        axis.set_yticklabels([label for _, label in UNITS])
    axes[-1].set_xlabel('% of peak')
    return plotlib.finish(fig, data, 'Speed of light: each unit against its peak')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '4.2', 'profile-speed-of-light.svg', read, draw))
