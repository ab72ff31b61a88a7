#!/usr/bin/env python3
"""summarize.py DIR [RECORD]: each result's harness median (this run, a process that ran only these
five) beside ncu's gpu__time_duration under the three controls run.sh used, and, given a record
(book/measurements/<gpu>/2.1.json), the same result's harness median and ncu kernel_time there, where
the binary ran every benchmark of the chapter."""
import csv
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / 'experiments'))
sys.path.insert(0, str(ROOT / 'tangle' / 'measure'))
import console_table  # noqa: E402
import ncu  # noqa: E402  (make measure's own filter: a key to its benchmark's run names)

KEYS = ['coalescing/unit_stride@67108864', 'coalescing/unit_stride_float4@67108864',
        'coalescing/stride@67108864x8', 'coalescing/aos@67108864', 'coalescing/soa@67108864']


def ncu_durations(path):
    """The kernels' gpu__time_duration (s), in range order (one kernel a profiled benchmark)."""
    lines = path.read_text(errors='replace').split('\n')
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    return [float(r['Metric Value'].replace(',', '')) * 1e-9 for r in csv.DictReader(lines[start:])
            if r['Metric Name'] == 'gpu__time_duration.sum']


def main(folder, record=None):
    folder = Path(folder)
    harness = console_table.rows(folder / 'harness.txt')
    runs = [next(r for n, r in harness.items() if re.match(ncu.benchmark_filter(key), n)) for key in KEYS]
    durations = {v: ncu_durations(folder / f'ncu-{v}.csv') for v in ('default', 'cache-none', 'clock-base')}
    saved = json.load(open(record))['results'] if record else {}
    print('result                                    alone: harness  ncu (default, no flush, base clock)'
          '   in make measure: harness  ncu  ratio')
    for i, key in enumerate(KEYS):
        line = f'{key:40}  {runs[i]["time"] * 1e6:9.1f} us  ' + ', '.join(
            f'{durations[v][i] * 1e6:.1f}' for v in durations) + f'  ratio {runs[i]["time"] / durations["default"][i]:.3f}'
        if key in saved:
            t, k = saved[key]['time']['median'], saved[key]['kernel_time']['median']
            line += f'    {t * 1e6:9.1f}  {k * 1e6:.1f}  {t / k:.3f}'
        print(line)


if __name__ == '__main__':
    main(*sys.argv[1:3])
