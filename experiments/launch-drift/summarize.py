#!/usr/bin/env python3
"""summarize.py DIR: per fresh process, 1.4's v1 step (50 launches of a small kernel from the stream,
median of its 10 repetitions) beside the host's launch rate its own probe measured before and after
it, and appendix A's launch latency and throughput in the next process; then the spread of each
across the processes (largest over smallest)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import console_table  # noqa: E402


def main(folder):
    folder = Path(folder)
    table = []
    for i in range(1, 100):
        v1, bench = folder / f'launch_v1_{i}.txt', folder / f'bench_launch_{i}.txt'
        if not v1.exists():
            break
        step = next(r for n, r in console_table.rows(v1).items() if n.endswith('manual_time_median'))
        ceilings = {n.split('/')[1]: r for n, r in console_table.rows(bench).items() if n.endswith('_median')}
        table.append((i, step['time'], step['launch_tp_before_time'], step['launch_tp_after_time'],
                      ceilings['launch_latency']['time'], ceilings['launch_throughput']['time']))
    print('process  v1 step (us)  per launch  its probe before/after (us)  A: latency, throughput (us)')
    for i, step, before, after, latency, throughput in table:
        print(f'{i:7}  {step * 1e6:12.0f}  {step / 50 * 1e6:10.2f}  {before * 1e6:13.2f} / {after * 1e6:.2f}'
              f'  {latency * 1e6:14.2f}, {throughput * 1e6:.2f}')
    for column, name in ((1, 'v1 step'), (2, 'v1 probe before'), (4, 'A latency'), (5, 'A throughput')):
        values = [row[column] for row in table]
        print(f'{name}: largest over smallest across the processes {max(values) / min(values):.2f}x')


if __name__ == '__main__':
    main(sys.argv[1])
