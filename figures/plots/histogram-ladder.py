#!/usr/bin/python3
"""Chapter 4.4's ladder: each rung's counting rate n/t on both inputs against the roofs that bound
it, and its time predicted beside measured.

    figures/plots/histogram-ladder.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/4.4.json (and RECORDS_DIR/machine.json for B_read, if present) and writes
OUT_DIR/histogram-ladder.svg: on the left, n/t of v1 to v4 and of CUB at n = 2^28 on uniform bytes
and on one value, as bars on a log scale, with the increment roof 32P/c (the conflict-free probe),
the read stream of the same run and, from machine.json, B_read as vertical lines; on the right,
each rung's predicted and measured time (log scale). Exit status 2: the record is unreadable or
lacks the ladder (the message says which). Without the record, a panel says it is not measured;
figures/plotlib.py, the half every figure script shares, says how (byte-identical SVG)."""
import os
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

N = 268435456
RUNGS = [('v1_global_atomics', 'v1 global'), ('v2_shared_atomics', 'v2 shared'),
         ('v3_vector_loads', 'v3 16-byte'), ('v4_lane_private', 'v4 lane-private'),
         ('peer_cub', 'CUB')]
INPUTS = [(256, 'uniform bytes', '#1f77b4'), (1, 'one value', '#ff7f0e')]


def quantity(results, key, name):
    """The median of `name` for result `key`, or None."""
    entry = results.get(key, {}).get(name)
    return entry['median'] if isinstance(entry, dict) and 'median' in entry else None


def read(data, records):
    results = data.get('results', {})
    rates, predicted, measured = {}, {}, {}
    for rung, _ in RUNGS:
        for distinct, _, _ in INPUTS:
            key = 'histogram/%s@%dx%d' % (rung, N, distinct)
            rates[rung, distinct] = quantity(results, key, 'bandwidth')
            predicted[rung, distinct] = quantity(results, key, 'predicted_time')
            measured[rung, distinct] = quantity(results, key, 'time')
    roof = quantity(results, 'histogram/probe_shared_conflict_free@4096', 'atomics_per_second')
    stream = quantity(results, 'histogram/peer_read@%d' % N, 'bandwidth')
    if None in rates.values() or roof is None or stream is None:
        raise ValueError('no ladder results (histogram/<rung>@%dx256 and x1 with bandwidth, the '
                         'conflict-free probe, histogram/peer_read@%d)' % (N, N))
    roofs = plotlib.ceilings(records)
    if roofs is not None and 'read_bandwidth' not in roofs:
        raise plotlib.InputError(os.path.join(records, 'machine.json'), repr('read_bandwidth'))
    return rates, predicted, measured, roof, stream, None if roofs is None else roofs['read_bandwidth']


def draw(plt, data, what):
    rates, predicted, measured, roof, stream, read_bandwidth = what
    fig, (left, right) = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 8.6), gridspec_kw={'height_ratios': [5, 4]})
    height = 0.38
    y = list(range(len(RUNGS)))[::-1]
    for offset, (distinct, label, color) in zip((height / 2, -height / 2), INPUTS):
        left.barh([v + offset for v in y], [rates[rung, distinct] / 1e12 for rung, _ in RUNGS],
                  height, color=color, label=label)
    left.set_xscale('log')
    left.set_yticks(y)
    left.set_yticklabels([label for _, label in RUNGS])
    left.axvline(roof / 1e12, color='#2ca02c', linewidth=1.0, label='increment roof $32P/c$')
    left.axvline(stream / 1e12, color='#7f7f7f', linewidth=1.0, linestyle=':',
                 label='read stream, same run')
    if read_bandwidth:
        left.axvline(read_bandwidth / 1e12, color='#d62728', linewidth=1.0, linestyle='--',
                     label='$B_\\mathrm{read}$ (appendix A)')
    left.set_xlabel('bytes counted per second $n/t$ (TB/s, log)')
    left.set_title('256 MiB of bytes, L2 flushed')
    plotlib.legend_below(left, ncol=2)
    left.grid(True, axis='x', linewidth=0.3, alpha=0.6)
    ladder = [rung for rung, _ in RUNGS if predicted[rung, 256] is not None]
    x = list(range(len(ladder)))
    width = 0.2
    for i, (distinct, label, color) in enumerate(INPUTS):
        shift = (i - 0.5) * 2 * width
        right.bar([v + shift - width / 2 for v in x], [predicted[r, distinct] * 1e6 for r in ladder],
                  width, color=color, alpha=0.45, label='predicted, ' + label)
        right.bar([v + shift + width / 2 for v in x], [measured[r, distinct] * 1e6 for r in ladder],
                  width, color=color, label='measured, ' + label)
    right.set_yscale('log')
    right.set_xticks(x)
    right.set_xticklabels([dict(RUNGS)[r].split()[0] for r in ladder])
    right.set_ylabel('time (µs, log)')
    right.set_title('predicted beside measured')
    plotlib.legend_below(right, 0, ncol=1)
    right.grid(True, axis='y', linewidth=0.3, alpha=0.6)
    return plotlib.finish(fig, data, 'The histogram ladder')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '4.4', 'histogram-ladder.svg', read, draw))
