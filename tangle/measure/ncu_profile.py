#!/usr/bin/env python3
"""make profile KERNEL=<result key>: Nsight Compute's full section set over one timed iteration.

The key's prefix is its chapter's src folder ('reduce/v1_naive@268435456' -> build's reduce_bench).
Runs ncu --set full on that benchmark alone (BENCH_PROFILE=1: one iteration, as make measure's
counters), exports the report's details page as CSV, and writes a readable summary:
build/profile/<key, '/' and '@' made '_'>.txt and .json: per kernel, section -> metric -> value
and unit, and the rules' findings. Python's standard library only.
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import measure
import ncu

DETAILS_COLUMNS = ('ID', 'Kernel Name', 'Section Name', 'Metric Name', 'Metric Unit', 'Metric Value')
RULE_COLUMNS = ('Rule Name', 'Rule Type', 'Rule Description', 'Estimated Speedup Type', 'Estimated Speedup')


def parse_details(text, source):
    """The kernels of `ncu --import R --csv --page details`: [{'id', 'name', 'block', 'grid',
    'sections': {section: {metric: {'value', 'unit'}}}, 'rules': [{...}]}], in launch order."""
    header, rows = ncu.csv_rows(text, source)
    for column in DETAILS_COLUMNS:
        if column not in header:
            raise ncu.NcuError(f'{source}: no "{column}" column; export with --csv --page details')
    kernels = {}
    for number, row in rows:
        ncu.require(row, DETAILS_COLUMNS, source, number)
        kernel = kernels.setdefault((row.get('Process ID', ''), row['ID']), {
            'id': row['ID'], 'name': row['Kernel Name'], 'block': row.get('Block Size', ''),
            'grid': row.get('Grid Size', ''), 'sections': {}, 'rules': []})
        if row['Metric Name']:
            value = row['Metric Value']
            try:
                value = float(value.replace(',', ''))
            except ValueError:
                pass  # a setting such as CachePreferNone stays text
            kernel['sections'].setdefault(row['Section Name'], {})[row['Metric Name']] = {
                'value': value, 'unit': row['Metric Unit']}
        elif row.get('Rule Name'):
            rule = {'section': row['Section Name'], 'rule': row['Rule Name'], 'type': row.get('Rule Type', ''),
                    'description': row.get('Rule Description', '')}
            if row.get('Estimated Speedup'):
                rule['speedup_percent'] = float(row['Estimated Speedup'].replace(',', ''))
                rule['speedup_type'] = row.get('Estimated Speedup Type', '')
            kernel['rules'].append(rule)
    # the harness's marker opens every profiled iteration: a delimiter, not the benchmark's work
    kernels = {k: v for k, v in kernels.items() if ncu.MARKER not in v['name']}
    if not kernels:
        raise ncu.NcuError(f'{source}: ncu profiled no kernel: does the benchmark time with bench::time_gpu?')
    return list(kernels.values())


def shown(value):
    if isinstance(value, float):
        return f'{value:,.0f}' if value.is_integer() else f'{value:,}'
    return value


def summary_text(key, kernels):
    """The summary for reading: each kernel, its sections' metrics, then the rules' findings."""
    out = [f'ncu --set full: {key} (one timed iteration, {len(kernels)} kernel(s))', '']
    for kernel in kernels:
        out.append(f'== kernel {kernel["id"]}: {kernel["name"]}  grid {kernel["grid"]}  block {kernel["block"]}')
        for section, metrics in kernel['sections'].items():
            out.append(f'  {section}')
            width = max(len(name) for name in metrics)
            for name, entry in metrics.items():
                out.append(f'    {name:<{width}}  {shown(entry["value"])} {entry["unit"]}'.rstrip())
        if kernel['rules']:
            out.append('  Findings')
        for rule in kernel['rules']:
            speedup = (f' (estimated {rule["speedup_type"]} speedup {rule["speedup_percent"]:g}%)'
                       if 'speedup_percent' in rule else '')
            out.append(f'    [{rule["type"]}] {rule["rule"]}{speedup}')
            out.extend(textwrap.wrap(rule['description'], 96, initial_indent=' ' * 6, subsequent_indent=' ' * 6,
                                     break_long_words=False, break_on_hyphens=False))
        out.append('')
    return '\n'.join(out)


def summary_name(key):
    """'reduce/v1_naive@268435456' -> 'reduce_v1_naive_268435456'."""
    return re.sub(r'[/@]', '_', key)


def write_summary(key, kernels, folder):
    """Writes <folder>/<name>.txt and .json; returns the two paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    text_path = folder / f'{summary_name(key)}.txt'
    json_path = folder / f'{summary_name(key)}.json'
    text_path.write_text(summary_text(key, kernels), encoding='utf-8')
    measure.write_json_atomic(json_path, {'key': key, 'tool': 'ncu', 'set': 'full', 'kernels': kernels})
    return text_path, json_path


def profile(build, key, out_folder):
    if '/' not in key:
        raise ncu.NcuError(f'KERNEL={key}: expected a result key such as reduce/v1_naive@268435456')
    src = key.split('/', 1)[0]
    binary = measure.find_binary(build, f'{src}_bench')
    if binary is None:
        raise ncu.NcuError(f'{build}: no {src}_bench, the benchmarks of the chapter with src: {src}; '
                           'check the key\'s first part, then build')
    tool = ncu.find_ncu()
    if tool is None:
        raise ncu.NcuError('no ncu found (on PATH or in /usr/local/cuda/bin): make profile needs Nsight Compute')
    with tempfile.TemporaryDirectory(prefix='profile-') as scratch:
        report = Path(scratch) / 'full'
        print(f'profile: ncu --set full {key}', flush=True)
        ncu.run_profiled([tool, '--clock-control', 'none', '--profile-from-start', 'off', '--set', 'full',
                          '-o', str(report), str(binary), f'--benchmark_filter={ncu.benchmark_filter(key)}'],
                         f'KERNEL={key}')
        details = subprocess.run([tool, '--import', f'{report}.ncu-rep', '--csv', '--page', 'details'],
                                 capture_output=True, text=True)
        if details.returncode != 0:
            raise ncu.NcuError(f'{report}.ncu-rep: ncu --import failed: {details.stderr.strip()[-500:]}')
    kernels = parse_details(details.stdout, f'ncu details of {key}')
    for path in write_summary(key, kernels, out_folder):
        print(f'profile: wrote {path}')


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('key', help='a result key, e.g. reduce/v1_naive@268435456')
    parser.add_argument('--build', default='build', help='the CMake build folder (default: build)')
    parser.add_argument('--out', help='where the summaries go (default: <build>/profile)')
    args = parser.parse_args(argv)
    try:
        profile(Path(args.build), args.key, Path(args.out) if args.out else Path(args.build) / 'profile')
    except ncu.NcuError as error:
        print(f'profile: error: {error}', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
