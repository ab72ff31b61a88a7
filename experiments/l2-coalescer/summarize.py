#!/usr/bin/env python3
"""summarize.py DIR: for each profiled size of 4.3's v2, the sectors the SMs' L1 asked the L2 for
(l1tex global load sectors), what the L2 Request Coalescer (LRC) delivered back to the SMs
(xbar2gpc), what it read from the L2 slices (lts2lrc), what it served by merging requests
(request sectors, coalescing achieved), and what the slices counted (lts__t_sectors_srcunit_tex,
reads): the identity L1 = LRC from slices + LRC merged, and the merged share."""
import collections
import csv
import sys
from pathlib import Path

NAMES = {'L1 load sectors': 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
         'LRC to SMs': 'lrc__xbar2gpc_sectors_op_read.sum',
         'LRC from slices': 'lrc__lts2lrc_sectors_op_read.sum',
         'LRC merged': 'lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum',
         'slices, reads from SMs': 'lts__t_sectors_srcunit_tex_op_read.sum'}


def sums(path):
    lines = path.read_text(errors='replace').split('\n')
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    total = collections.Counter()
    for row in csv.DictReader(lines[start:]):
        try:
            total[row['Metric Name']] += float(row['Metric Value'].replace(',', ''))
        except ValueError:
            pass
    return total


def main(folder):
    for path in sorted(Path(folder).glob('attention_*.csv')):
        total = sums(path)
        v = {label: total[name] for label, name in NAMES.items()}
        print(f'== {path.stem}')
        for label, value in v.items():
            print(f'   {label:24} {value:14.0f}')
        print(f'   (from slices + merged) / L1 = {(v["LRC from slices"] + v["LRC merged"]) / v["L1 load sectors"]:.5f};'
              f' merged share of L1 = {v["LRC merged"] / v["L1 load sectors"]:.3f};'
              f' slices / LRC from slices = {v["slices, reads from SMs"] / v["LRC from slices"]:.3f}')


if __name__ == '__main__':
    main(sys.argv[1])
