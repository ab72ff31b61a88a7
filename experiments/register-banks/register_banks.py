#!/usr/bin/env python3
"""register_banks.py: in a kernel's SASS, the FFMAs whose three source registers are read from one
register bank in the same instruction: the register-bank conflict that chapter 3.2's rung 10 names
as a hypothesis (not a measurement) for its dispatch stalls.

The bank rule is the one published for Volta by microbenchmarks (Jia, Maggioni, Staiger and
Scarpazza, 2018): two banks, a register's bank its number modulo 2, a conflict when all three
source registers of an instruction lie in one bank. NVIDIA documents no rule for Hopper, so the
counts test the hypothesis only under that assumption. A source is not read from the register
file when the previous instruction held the same register in the same operand slot with `.reuse`
(the operand-reuse cache); RZ, constants and immediates read no bank.

usage: register_banks.py [--cuobjdump PATH] [--function NAME] FILE...   (objects, binaries, libraries)
       register_banks.py --sass DUMP...                                  (saved `cuobjdump -sass` text)
       register_banks.py --self-test
Prints, per function with at least one FFMA, for the whole function and for its basic block with
the most FFMAs (a kernel's unrolled main loop): FFMAs, those with three register-file reads in
one bank, and FFMA operands flagged `.reuse`. Exit 2 on bad input."""
import argparse
import re
import subprocess
import sys

FUNCTION = re.compile(r'^\s*Function\s*:\s*(\S+)')
INSTRUCTION = re.compile(r'/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;')
LABEL = re.compile(r'^\s*(\.L_\w+):')
PREDICATE = re.compile(r'^@!?U?P(T|\d+)\s+')
REGISTER = re.compile(r'^[-|!~]*R(\d+|Z)(\.reuse)?')
BLOCK_ENDS = ('BRA', 'EXIT', 'RET', 'JMP', 'BRX', 'JMX', 'CALL')


def functions(sass):
    """{name: [lines]} of each `Function :` section of a cuobjdump -sass listing."""
    found, name = {}, None
    for line in sass.splitlines():
        m = FUNCTION.match(line)
        if m:
            name = m.group(1)
            found[name] = []
        elif name is not None:
            found[name].append(line)
    return found


def blocks(lines):
    """The function's instructions as basic blocks: split at labels and after branches."""
    out, current = [], []
    for line in lines:
        if LABEL.match(line):
            if current:
                out.append(current)
            current = []
            continue
        m = INSTRUCTION.search(line)
        if not m:
            continue
        text = PREDICATE.sub('', m.group(1))
        current.append(text)
        if text.split()[0].split('.')[0] in BLOCK_ENDS:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def operands(text):
    """(opcode, [(register number or None, reuse flag)]) of one instruction, destination first."""
    opcode, _, rest = text.partition(' ')
    parsed = []
    for operand in (o.strip() for o in rest.split(',')) if rest else ():
        m = REGISTER.match(operand)
        if m and m.group(1) != 'Z':
            parsed.append((int(m.group(1)), m.group(2) is not None))
        else:
            parsed.append((None, False))
    return opcode, parsed


def count(block):
    """FFMAs, FFMAs with three register-file reads in one bank, FFMA operands flagged .reuse."""
    ffma = conflicts = reuse_flags = 0
    cached = {}  # operand slot -> register the previous instruction flagged .reuse in that slot
    for text in block:
        opcode, ops = operands(text)
        sources = ops[1:]
        if opcode.split('.')[0] == 'FFMA' and len(sources) == 3:
            ffma += 1
            reuse_flags += sum(flag for _, flag in sources)
            read = {reg for slot, (reg, _) in enumerate(sources)
                    if reg is not None and cached.get(slot) != reg}
            if len(read) == 3 and len({reg % 2 for reg in read}) == 1:
                conflicts += 1
        cached = {slot: reg for slot, (reg, flag) in enumerate(sources) if flag}
    return ffma, conflicts, reuse_flags


def report(name, lines):
    parts = blocks(lines)
    whole = [0, 0, 0]
    for b in parts:
        whole = [w + c for w, c in zip(whole, count(b))]
    if whole[0] == 0:
        return None
    loop = max((count(b) for b in parts), key=lambda c: c[0])
    share = lambda c: f'{100.0 * c[1] / c[0]:.1f}%' if c[0] else '-'
    return (f'{name}\n'
            f'  whole function: {whole[0]} FFMA, {whole[1]} with 3 reads in one bank '
            f'({share(whole)}), {whole[2]} .reuse flags\n'
            f'  largest block:  {loop[0]} FFMA, {loop[1]} with 3 reads in one bank '
            f'({share(loop)}), {loop[2]} .reuse flags')


SELF_TEST = """
        Function : _Z4testv
        /*0000*/                   MOV R1, c[0x0][0x28] ;
.L_x_0:
        /*0010*/                   FFMA R10, R2, R4, R6 ;
        /*0020*/                   FFMA R11, R2.reuse, R4, R7 ;
        /*0030*/                   FFMA R12, R2, R8, R12 ;
        /*0040*/              @!P0 FFMA R13, -R3, R5, R9 ;
        /*0050*/                   FFMA R14, R3, RZ, R9 ;
        /*0060*/                   BRA `(.L_x_0) ;
"""


def self_test():
    (name, lines), = functions(SELF_TEST).items()
    assert name == '_Z4testv', name
    parts = blocks(lines)
    assert [len(b) for b in parts] == [1, 6], parts
    # R2 R4 R6: one bank; R2 R4 R7: two; R8 R12 with R2 from reuse: two reads; -R3 R5 R9: one
    # bank; R3 RZ R9: two reads.
    assert count(parts[1]) == (5, 2, 1), count(parts[1])
    assert operands('FFMA R1, R2.reuse, c[0x0][0x160], 0.5')[1] == [
        (1, False), (2, True), (None, False), (None, False)]
    print('register_banks.py: self-test passed')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('files', nargs='*')
    parser.add_argument('--sass', action='store_true', help='the files are cuobjdump -sass text')
    parser.add_argument('--cuobjdump', default='cuobjdump')
    parser.add_argument('--function', help='only this (mangled) function, cuobjdump -fun')
    parser.add_argument('--self-test', action='store_true')
    args = parser.parse_args()
    if args.self_test:
        self_test()
        return 0
    if not args.files:
        parser.error('give object files, or --sass with dumps, or --self-test')
    for path in args.files:
        if args.sass:
            with open(path, encoding='utf-8', errors='replace') as f:
                sass = f.read()
        else:
            command = [args.cuobjdump, '-sass'] + (['-fun', args.function] if args.function else [])
            try:
                sass = subprocess.run(command + [path], check=True, capture_output=True,
                                      text=True, errors='replace').stdout
            except (OSError, subprocess.CalledProcessError) as e:
                print(f'register_banks.py: {path}: cuobjdump failed ({e}); check that {path} '
                      f'exists and that {args.cuobjdump} is on PATH', file=sys.stderr)
                return 2
        print(f'== {path}')
        found = [r for r in (report(n, l) for n, l in functions(sass).items()) if r]
        print('\n'.join(found) if found else '  no function with an FFMA')
    return 0


if __name__ == '__main__':
    sys.exit(main())
