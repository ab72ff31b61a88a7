#!/usr/bin/python3
"""Chapter 3.2's ladder against its model: each rung's predicted and measured time, with cuBLAS.

    figures/plots/matmul-predicted.py RECORDS_DIR OUT_DIR

reads RECORDS_DIR/3.2.json (a record written by make measure) and writes
OUT_DIR/matmul-predicted.svg: on top, for every numbered rung matmul/vN_*@4096x4096x4096 (in the
order of N; the shapes v9 tunes over, v9_tuned_*, are rung 9's candidates, not rungs) and for
bf16_mma, the model's predicted_time as a hollow marker and the measured time as a filled one with
its min-max bar, on a log scale, with cuBLAS SGEMM as a line over the FP32 rungs and cuBLAS BF16
over the BF16 rung; below, each rung's measured time over its predicted one (log scale, a line
at 1). A result this GPU skipped (bf16_mma where its shared memory does not fit, a peer) is left out, and
with no rung measured the panel says so. Exit status 2: the record is unreadable, or a rung or peer lacks its time or
predicted_time (the message says which). Without the record, a panel says it is not measured;
figures/plotlib.py, the half every figure script shares, says how (byte-identical SVG)."""
import os
import re
import sys

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import plotlib  # noqa: E402  (figures/plotlib.py: the arguments, the record, the 'not measured' panel, the save)

SIZE = '4096x4096x4096'
RUNG = re.compile(r'matmul/v(\d+)_([a-z0-9_]+)@' + SIZE)
BF16 = 'matmul/bf16_mma@' + SIZE
PEERS = {'fp32': 'matmul/peer_cublas_sgemm@' + SIZE, 'bf16': 'matmul/peer_cublas_bf16@' + SIZE}


def statistics(results, key, name):
    """(median, min, max) of quantity `name` of result `key`; ValueError naming both if absent."""
    entry = results.get(key, {}).get(name) if isinstance(results.get(key), dict) else None
    if not isinstance(entry, dict) or 'median' not in entry:
        raise ValueError('%s has no %s' % (key, name))
    return entry['median'], entry.get('min', entry['median']), entry.get('max', entry['median'])


def read(data, records):
    """[(label, key, (time), predicted)] for the rungs in ladder order, and the two peers' times."""
    results = plotlib.measured_results(data)
    numbered = []
    for key in results:
        match = RUNG.fullmatch(key)
        if match and not match.group(2).startswith('tuned_'):
            numbered.append((int(match.group(1)), key))
    if not numbered:
        return None  # nothing of the ladder measured on this GPU at this size
    keys = [key for _, key in sorted(numbered)] + ([BF16] if BF16 in results else [])
    rungs = []
    for key in keys:
        label = 'bf16' if key == BF16 else key.split('/')[1].split('_')[0]
        rungs.append((label, key, statistics(results, key, 'time'),
                      statistics(results, key, 'predicted_time')[0]))
    peers = {kind: statistics(results, key, 'time')[0] for kind, key in PEERS.items()
             if key in results and (kind == 'fp32' or BF16 in results)}
    return rungs, peers


def draw(plt, data, what):
    if what is None:
        return plotlib.not_measured(plt, '3.2')
    rungs, peers = what
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(plotlib.WIDTH, 6.8), sharex=True,
                                      gridspec_kw={'height_ratios': [5, 2.4]})
    x = list(range(len(rungs)))
    ms = lambda seconds: seconds * 1e3
    measured = [ms(t[0]) for _, _, t, _ in rungs]
    low = [ms(t[0] - t[1]) for _, _, t, _ in rungs]
    high = [ms(t[2] - t[0]) for _, _, t, _ in rungs]
    predicted = [ms(p) for _, _, _, p in rungs]
    fp32 = [i for i, (label, _, _, _) in enumerate(rungs) if label != 'bf16']
    if 'fp32' in peers:  # a peer skipped on this GPU is left out, not an error
        top.hlines(ms(peers['fp32']), min(fp32) - 0.4, max(fp32) + 0.4, color='#d62728', linewidth=1.0,
                   label='cuBLAS SGEMM')
    if 'bf16' in peers:
        i = len(rungs) - 1
        top.hlines(ms(peers['bf16']), i - 0.4, i + 0.4, color='#d62728', linewidth=1.0,
                   linestyle='--', label='cuBLAS BF16')
    top.plot(x, predicted, 'o', markerfacecolor='none', markeredgecolor='#ff7f0e', markersize=7,
             label='predicted (the model)')
    top.errorbar(x, measured, yerr=[low, high], fmt='o', color='#1f77b4', markersize=4,
                 elinewidth=0.8, label='measured median (bar: min to max)')
    top.set_yscale('log')
    top.yaxis.set_major_formatter(plt.FuncFormatter(lambda value, _: '%g' % value))
    top.set_ylabel('time (ms, log)')
    top.set_title('$4096^3$, each rung against its model')
    top.grid(True, axis='y', which='both', linewidth=0.3, alpha=0.6)
    top.legend(loc='upper right', frameon=False)
    ratios = [m / p for m, p in zip(measured, predicted)]
    bottom.axhline(1.0, color='#7f7f7f', linewidth=0.8)
    bottom.plot(x, ratios, 'o', color='#1f77b4', markersize=4)
    bottom.set_yscale('log')
    lowest, highest = min(ratios + [1.0]) / 1.6, max(ratios + [1.0]) * 1.6
    bottom.set_ylim(lowest, highest)
    ticks = [t for t in (0.1, 0.2, 0.5, 1, 2, 5, 10) if lowest <= t <= highest]
    bottom.set_yticks(ticks)
    bottom.set_yticklabels(['%g' % t for t in ticks])
    bottom.minorticks_off()
    bottom.set_ylabel('measured / predicted')
    bottom.set_xticks(x)
    bottom.set_xticklabels([label for label, _, _, _ in rungs])
    bottom.grid(True, axis='y', which='both', linewidth=0.3, alpha=0.6)
    return plotlib.finish(fig, data, 'The matmul ladder, predicted and measured')


if __name__ == '__main__':
    sys.exit(plotlib.main(sys.argv[1:], __doc__, '3.2', 'matmul-predicted.svg', read, draw))
