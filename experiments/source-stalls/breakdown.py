#!/usr/bin/env python3
"""breakdown.py: three readings of run.sh's exports that summarize.py does not print, each the
question a chapter asked.

- waits: the samples of each wait, by what it waits on. A spin on an mbarrier is a
  SYNCS.PHASECHK.TRANS64.TRYWAIT followed by a branch that long-scoreboard samples pile on; both
  are charged to the TRYWAIT's barrier operand ([UR4+0x34040], ...). A WARPGROUP.DEPBAR is
  wgmma.wait_group, charged to itself. (4.3b: the turn, the ring, or the products?)
- executions: the samples by how often their instruction ran, so that code a block runs once
  (executions = blocks x warps) separates from its loop's. (4.3b: what a persistent grid could hide)
- dispatch: how the "dispatch" samples spread over the instructions, and over the two forms of
  FFMA, in place (d = c, cuBLAS's) or not. (3.2: is v10's dispatch stall one instruction's, or
  the FFMA form's?)

usage: breakdown.py FILE.sass.csv[.gz]...   Python's standard library only."""
import collections
import re
import sys
from pathlib import Path

from summarize import ALL, EXECUTED, kernels, number, opcode

FFMA = re.compile(r'FFMA\S*\s+(R\d+),\s*(\S+),\s*(\S+),\s*(R\d+)')
BARRIER = re.compile(r'TRYWAIT\s+\S+,\s*(\[[^\]]*\])')


def share(part, total):
    return f'{part / total:.1%}' if total else '-'


def waits(rows, total):
    by_wait, barrier = collections.Counter(), None
    for r in rows:
        source, samples = r.get('Source', ''), number(r.get(ALL, ''))
        found = BARRIER.search(source)
        if found:
            barrier = found.group(1)
            by_wait[f'mbarrier {barrier}'] += samples
        elif opcode(source) == 'BRA' and barrier and number(r.get('stall_long_sb', '')) > samples / 2:
            by_wait[f'mbarrier {barrier}'] += samples
        elif opcode(source) == 'WARPGROUP' and 'DEPBAR' in source:
            by_wait[f'{r.get("Address", "")[-5:]} {source.strip()}'] += samples
        if opcode(source) != 'SYNCS' and opcode(source) != 'BRA':
            barrier = None
    if not by_wait:
        return
    print('   waits (share of all samples):')
    for what, samples in by_wait.most_common(12):
        print(f'     {share(samples, total):>6}  {what}')


def executions(rows, total):
    by_count = collections.Counter()
    for r in rows:
        by_count[int(number(r.get(EXECUTED, '')))] += number(r.get(ALL, ''))
    print('   samples by executions of their instruction (the 8 largest):')
    for count, samples in by_count.most_common(8):
        print(f'     {share(samples, total):>6}  executed {count} times')


def dispatch(rows, total):
    held = sum(number(r.get('stall_dispatch', '')) for r in rows)
    if not held:
        return
    ranked = sorted((number(r.get('stall_dispatch', '')) for r in rows), reverse=True)
    running, half = 0.0, 0
    while running < held / 2:
        running += ranked[half]
        half += 1
    busiest = max(number(r.get(EXECUTED, '')) for r in rows)
    loop = [r for r in rows if number(r.get(EXECUTED, '')) >= busiest / 2 and number(r.get(ALL, ''))]
    stalled = [r for r in loop if number(r.get('stall_dispatch', '')) >= 0.3 * number(r.get(ALL, ''))]
    print(f'   dispatch: {share(held, total)} of all samples; half of them on {half} instructions; '
          f'{len(stalled)} of the {len(loop)} sampled loop instructions have 30% or more of '
          f'their samples at dispatch')
    forms = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for r in rows:
        found = FFMA.search(r.get('Source', ''))
        if found:
            form = forms['FFMA in place (d = c)' if found.group(1) == found.group(4) else 'FFMA d != c']
            form[0] += 1
            form[1] += number(r.get(ALL, ''))
            form[2] += number(r.get('stall_dispatch', ''))
    for name, (count, samples, at_dispatch) in sorted(forms.items()):
        print(f'     {name:22} {count:5} instructions, {share(samples, total)} of samples, '
              f'{share(at_dispatch, samples)} of their own samples at dispatch')


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for name in argv[1:]:
        path = Path(name)
        try:
            found = kernels(path)
        except OSError as error:
            print(f'breakdown.py: cannot read {path}: {error}', file=sys.stderr)
            return 2
        for kernel, _, rows in found:
            total = sum(number(r.get(ALL, '')) for r in rows)
            print(f'== {path.name}: {kernel[:100]}')
            waits(rows, total)
            executions(rows, total)
            dispatch(rows, total)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
