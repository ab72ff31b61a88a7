#!/usr/bin/env python3
"""compare.py A B [GPU]: how far two whole-book records of one GPU disagree, result by result,
against the noise each recorded. A and B are git commits (or folders) holding
book/measurements/<GPU>/; for every result that took its own samples in both (appendix A's stopping
rule: it records samples and, since 2026-12-06, noise), the relative difference of the two medians,
grouped by the kernel's time: median and 90th percentile of |difference|, and the median noise A
recorded. GPU defaults to the reference (book/reference-gpu). Run from the repository's root."""
import json
import statistics
import subprocess
import sys
from pathlib import Path

GROUPS = [(0, 1e-5), (1e-5, 1e-4), (1e-4, 5e-4), (5e-4, float('inf'))]


def records(where, gpu):
    """{result key: result} of every chapter record of one GPU, from a folder or a git commit."""
    folder = Path(where) / 'book' / 'measurements' / gpu
    if folder.is_dir():
        texts = [p.read_text() for p in folder.glob('*.json') if p.name != 'machine.json']
    else:
        names = subprocess.run(['git', 'ls-tree', '--name-only', f'{where}:book/measurements/{gpu}'],
                               capture_output=True, text=True, check=True).stdout.split()
        texts = [subprocess.run(['git', 'show', f'{where}:book/measurements/{gpu}/{n}'], capture_output=True,
                                text=True, check=True).stdout for n in names if n != 'machine.json']
    out = {}
    for text in texts:
        for key, result in json.loads(text)['results'].items():
            if isinstance(result, dict) and 'samples' in result and 'time' in result:
                out[key] = result
    return out


def main(a, b, gpu=None):
    gpu = gpu or Path('book/reference-gpu').read_text().strip()
    first, second = records(a, gpu), records(b, gpu)
    rows = [(r['time']['median'], abs(second[k]['time']['median'] / r['time']['median'] - 1),
             (r.get('noise') or {}).get('median')) for k, r in first.items() if k in second]
    print(f'{gpu}: {len(rows)} results sampled by the stopping rule in both {a} and {b}')
    for low, high in GROUPS:
        group = [row for row in rows if low <= row[0] < high]
        if not group:
            continue
        diffs = sorted(row[1] for row in group)
        noise = [row[2] for row in group if row[2] is not None]
        print(f'  kernel time {low * 1e6:g} to {high * 1e6:g} us: {len(group)} results, median |difference| '
              f'{statistics.median(diffs):.2%}, 90th percentile {diffs[int(0.9 * len(diffs))]:.2%}'
              + (f', median noise recorded {statistics.median(noise):.2%}' if noise else ''))


if __name__ == '__main__':
    main(*sys.argv[1:4])
