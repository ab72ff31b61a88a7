#!/usr/bin/env python3
"""summarize.py: what run.sh's exports say, kernel by kernel. For each kernel of each
<key>.sass.csv (ncu --page source --print-source sass --csv: a "Kernel Name" line, a header, one
row per SASS instruction): its warp-state samples by reason (the stall_* columns, every sample,
issued or not), the share of samples on each opcode, and the instructions with the most samples,
each with its own leading reasons. Python's standard library only.

usage: summarize.py DIR [TOP]   (DIR holds the .sass.csv files; gzip-compressed ones too)
Prints the summary; exit 2 on a file it cannot read."""
import collections
import csv
import gzip
import io
import sys
from pathlib import Path

ALL = 'Warp Stall Sampling (All Samples)'
EXECUTED = 'Instructions Executed'


def number(text):
    try:
        return float(text.replace(',', '')) if text.strip() else 0.0
    except ValueError:
        return 0.0


def kernels(path):
    """[(kernel name, header, rows)] of one export."""
    opener = gzip.open if path.suffix == '.gz' else open
    with opener(path, 'rt', encoding='utf-8', errors='replace') as f:
        lines = list(csv.reader(io.StringIO(f.read())))
    out, i = [], 0
    while i < len(lines):
        if lines[i] and lines[i][0] == 'Kernel Name':
            name, header, rows = lines[i][1], lines[i + 1], []
            i += 2
            while i < len(lines) and not (lines[i] and lines[i][0] == 'Kernel Name'):
                if len(lines[i]) >= len(header) - 1:
                    rows.append(dict(zip(header, lines[i])))
                i += 1
            out.append((name, header, rows))
        else:
            i += 1
    return out


def opcode(source):
    """'FFMA' of '@P0 FFMA R1, R2, R3, R4 ;' (predicate and modifiers dropped)."""
    words = source.split()
    if words and words[0].startswith('@'):
        words = words[1:]
    return words[0].split('.')[0] if words else '?'


def summarize(path, top):
    for name, header, rows in kernels(path):
        reasons = [h for h in header if h.startswith('stall_') and '(' not in h]
        total = sum(number(r.get(ALL, '')) for r in rows)
        print(f'== {path.name}: {name[:150]}')
        print(f'   {len(rows)} instructions, {total:.0f} warp-state samples, '
              f'{sum(number(r.get(EXECUTED, "")) for r in rows):.4g} warp instructions executed')
        if not total:
            continue
        by_reason = collections.Counter({h: sum(number(r.get(h, '')) for r in rows) for h in reasons})
        print('   samples by reason: ' + ', '.join(f'{h[6:]} {v / total:.1%}'
                                                  for h, v in by_reason.most_common(8) if v))
        by_op = collections.Counter()
        for r in rows:
            by_op[opcode(r.get('Source', ''))] += number(r.get(ALL, ''))
        print('   samples by opcode: ' + ', '.join(f'{op} {v / total:.1%}' for op, v in by_op.most_common(10)))
        print(f'   the {top} instructions with the most samples (share; its leading reasons):')
        for r in sorted(rows, key=lambda r: -number(r.get(ALL, '')))[:top]:
            mine = number(r.get(ALL, ''))
            lead = sorted(((number(r.get(h, '')), h[6:]) for h in reasons), reverse=True)[:3]
            why = ', '.join(f'{h} {v / mine:.0%}' for v, h in lead if v) if mine else ''
            print(f'     {r.get("Address", ""):>6} {mine / total:6.1%}  {r.get("Source", "")[:60]:60}  {why}')


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    top = int(argv[2]) if len(argv) > 2 else 12
    files = sorted(Path(argv[1]).glob('*.sass.csv*'))
    if not files:
        print(f'{argv[1]}: no .sass.csv files', file=sys.stderr)
        return 2
    for path in files:
        try:
            summarize(path, top)
        except OSError as error:
            print(f'{path}: cannot read: {error.strerror}', file=sys.stderr)
            return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
