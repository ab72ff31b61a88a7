#!/usr/bin/env python3
"""make measure: test, then benchmark, each chapter on this machine's GPU and write its record.

For every chapter of book/chapters.txt (or the one --chapter names, by id or path):
  1. run <build>/<src>_test with --gtest_output=json; if any test fails, the chapter's benchmarks
     are not timed: each is recorded as failed, with the failed tests' names as its reason;
  2. run <build>/<src>_bench with --benchmark_out; a benchmark that reports an error is recorded as
     skipped ("skipped: " reasons: too little memory, a feature the GPU lacks) or failed, and a
     binary that crashes or runs past --timeout keeps what it finished, runs the rest, and records
     the one it died in as failed (tangle/measure/outcomes.py); one it lists but did not run is
     failed too. Every child runs without BENCHMARK_* and GTEST_* in its environment, in a process
     group of its own that a timeout, Ctrl-C or SIGTERM stops whole (tangle/measure/processes.py);
  3. reduce the per-repetition runs to medians, minima, maxima and counts, by result key;
  4. add the context (the benchmark's, nvidia-smi's driver, nvcc's version), the chapter's
     tangled sources and their SHA-256;
  5. make <out>/<gpu-slug>/<id>.json; for appendix A (src: bench) also machine.json;
  6. run the front matter's `peers:` scripts (someone else's kernels, e.g. PyTorch's), which print
     Google Benchmark JSON, and merge their results (a script that exits with PEER_SKIP is
     skipped with one line: the GPU machine may lack what it needs; one that fails is recorded
     as failed under the record's "peers", and the run goes on);
  7. for the result keys of the front matter's `profile:` list, add ncu's hardware counters
     (tangle/measure/ncu.py; said in one line and skipped where there is no ncu; a failure leaves the
     record with its timings only and makes the exit status 1);
  8. once every chapter is measured, write all the records as a set: on any error before that,
     none is written, so records of two runs never stand side by side. Skipped and failed results
     are written with the rest; make measure then prints a table of them and exits with status 1.
The record format is book/CONVENTIONS.md's. Python's standard library only.
"""
import argparse
import concurrent.futures
import copy
import datetime
import hashlib
import json
import math
import os
import re
import signal
import stat
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ncu
import outcomes
import processes
import yaml

FORMAT = 1
# make measure's exit status when the records were written but some results were skipped or
# failed (their table is printed): not 0, so nobody mistakes the run for a whole one, and not 1
# (nothing written, or the counters failed), so make book can weave such a run.
INCOMPLETE = 3
ROOT = Path(__file__).resolve().parents[2]
# The most seconds one run of a test binary, benchmark binary or peer script may take (--timeout):
# past it, its process group is stopped and what it was running is recorded as failed.
DEFAULT_TIME_LIMIT = 1800
TIME_LIMIT = DEFAULT_TIME_LIMIT


class MeasureError(Exception):
    """A problem that stops the run; the message names the file and says what to do."""


# ---------------------------------------------------------------------------------------------
# Chapters and their front matter

class FrontMatter(dict):
    """The front matter's fields; .lines gives the line each key is written on."""

    def __init__(self):
        super().__init__()
        self.lines = {}


class _YamlLoader(yaml.BaseLoader):
    """PyYAML's loader with the tools' rules (yaml-cpp in tangle/front_matter/): every scalar is kept
    as written, a string, except `~`, `null` and nothing, which are absent (None)."""


_YamlLoader.add_implicit_resolver('tag:yaml.org,2002:null', re.compile(r'^(?:~|null|Null|NULL|)$'),
                                  ['~', 'n', 'N', ''])
_YamlLoader.add_constructor('tag:yaml.org,2002:null', lambda loader, node: None)

CHAPTER_ID = re.compile(r'[A-Za-z0-9][A-Za-z0-9._-]*')
SRC_NAME = re.compile(r'[A-Za-z0-9_][A-Za-z0-9_-]*')
FRONT_MATTER_FENCE = re.compile(r'---[ \t]*')
FRONT_MATTER_CLOSE = re.compile(r'(?:---|\.\.\.)[ \t]*')
# Ids whose record would be another file of a GPU's folder: <id>.json beside machine.json
# (tools.md MS07: a chapter "machine" overwrote appendix A's ceilings). Compared in lower case, for
# a file system that ignores case.
RESERVED_IDS = {'machine'}


def parse_front_matter(text, path):
    """The chapter's YAML front matter, by the rules book/SYNTAX.md states (the tangler's and the
    weaver's, tangle/front_matter/): a first line '---', closed by '---' or '...' at column one."""
    lines = [line[:-1] if line.endswith('\r') else line for line in text.split('\n')]
    if not lines or not FRONT_MATTER_FENCE.fullmatch(lines[0]):
        raise MeasureError(f'{path}:1: a chapter must start with YAML front matter (a line "---")')
    close = next((i for i in range(1, len(lines)) if FRONT_MATTER_CLOSE.fullmatch(lines[i])), None)
    if close is None:
        raise MeasureError(f'{path}:1: the front matter opened here is not closed: '
                           'end it with a line "---"')
    try:
        loader = _YamlLoader('\n'.join(lines[1:close]) + '\n')
    except yaml.YAMLError as error:  # a control character: PyYAML's reader refuses it at once
        raise MeasureError(f'{path}:2: front matter: this is not YAML ({error})')
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.MarkedYAMLError as error:
        mark = error.context_mark or error.problem_mark  # where the list or key began
        line = mark.line + 2 if mark else 1
        raise MeasureError(f'{path}:{line}: front matter: expected "key: value" lines, '
                           f'this is not YAML ({error.problem})')
    except yaml.YAMLError as error:  # a character YAML does not allow: no mark of a line
        raise MeasureError(f'{path}:2: front matter: this is not YAML ({error})')
    except RecursionError:  # PyYAML's composer recurses once per level (tools.md C6, row M22)
        raise MeasureError(f'{path}:2: front matter: nested too deeply; a front matter holds '
                           '"key: value" lines and short lists')
    finally:
        loader.dispose()
    fields = FrontMatter()
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise MeasureError(f'{path}:2: front matter: expected "key: value" lines, like id: "3.1"')
    for key_node, value_node in root.value if isinstance(root, yaml.MappingNode) else []:
        key, line = key_node.value, key_node.start_mark.line + 2
        if not isinstance(key, str) or key not in data:  # a list, or nothing (`?` alone)
            raise MeasureError(f'{path}:{line}: front matter: a key is a plain name, like id:')
        if key in fields.lines:
            raise MeasureError(f"{path}:{line}: front matter: '{key}' is written twice "
                               f'(first on line {fields.lines[key]}): keep one')
        fields.lines[key] = line
        fields[key] = data[key]
    for key in ('id', 'title', 'src'):
        if key in fields and fields[key] is not None and not isinstance(fields[key], str):
            raise MeasureError(f"{path}:{fields.lines[key]}: front matter: '{key}' must be a plain "
                               f'value, like {key}: "text"')
    if not fields.get('id'):
        raise MeasureError(f'{path}: the front matter has no "id:"')
    # The id names the record's file and the src the binaries run: one path component each, so
    # that neither reaches outside --out or build/ (tools.md L1, O10).
    if not CHAPTER_ID.fullmatch(fields['id']) or '..' in fields['id']:
        raise MeasureError(f"{path}:{fields.lines['id']}: front matter: id {fields['id']!r} must be "
                           'letters, digits, ".", "_" or "-" (no "..", no "/"), like id: "3.1"')
    if fields['id'].lower() in RESERVED_IDS:
        raise MeasureError(f"{path}:{fields.lines['id']}: front matter: id {fields['id']!r} is "
                           f"reserved: its record would be the GPU folder's {fields['id']}.json; "
                           'choose another id')
    if fields.get('src') is not None and not SRC_NAME.fullmatch(fields['src']):
        raise MeasureError(f"{path}:{fields.lines['src']}: front matter: src {fields['src']!r} must "
                           'be one folder name under src/ (letters, digits, "_" or "-"), like '
                           'src: reduce')
    return fields  # no "src:": a chapter with no code (the appendices of symbols and rebuilding)


def read_chapter_list(path):
    """Chapter paths from book/chapters.txt: one a line, '#' starts a comment."""
    try:
        text = Path(path).read_text(encoding='utf-8-sig')
    except OSError as error:
        raise MeasureError(f'{path}: cannot read the chapter list: {error.strerror}')
    chapters = []
    for line in text.split('\n'):
        line = line.split('#', 1)[0].strip()
        if line:
            chapters.append(line)
    return chapters


def read_chapter(path, list_path, chapter):
    """A chapter's text. A chapter is a regular file: a FIFO or a device would block the run or
    never end (tools.md MS16), so it is opened without waiting and refused unless regular."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise MeasureError(f'{list_path}: lists {chapter}, which cannot be read: {error.strerror}')
    if not stat.S_ISREG(os.fstat(handle).st_mode):
        os.close(handle)
        raise MeasureError(f'{list_path}: lists {chapter}, which is not a regular file: a '
                           'chapter is a Markdown file')
    with open(handle, 'rb') as chapter_file:
        data = chapter_file.read()
    try:
        return data.decode('utf-8-sig')  # a byte-order mark is no part of it
    except UnicodeDecodeError as error:
        raise MeasureError(f'{chapter}: byte {error.start} is not UTF-8; a chapter is UTF-8 text')


def select_chapters(root, wanted=None):
    """[(chapter path relative to root, front matter)] in book order, or only the one wanted."""
    list_path = Path(root) / 'book' / 'chapters.txt'
    selected = []
    for chapter in read_chapter_list(list_path):
        text = read_chapter(Path(root) / chapter, list_path, chapter)
        front = parse_front_matter(text, chapter)
        if wanted is None or wanted in (str(front['id']), chapter, Path(chapter).name):
            if front.get('src'):
                selected.append((chapter, front))
            elif wanted is not None:
                raise MeasureError(f'{chapter}: has no "src:" in its front matter, so no code to measure')
    if wanted is not None and not selected:
        raise MeasureError(f'{list_path}: no chapter has id or path "{wanted}"')
    return selected


# ---------------------------------------------------------------------------------------------
# Google Benchmark's JSON to result keys and statistics

# Parts Google Benchmark appends to a run's name that are settings, not arguments.
NAME_OPTIONS = {'repeats', 'min_time', 'min_warmup_time', 'iterations', 'threads'}
NAME_WORDS = {'manual_time', 'real_time', 'process_time'}
ARGUMENT = re.compile(r'(?:[A-Za-z_]\w*:)?(-?\d+)')

# Fields of a run that are not counters.
RUN_FIELDS = {
    'name', 'family_index', 'per_family_instance_index', 'run_name', 'run_type', 'repetitions',
    'repetition_index', 'threads', 'iterations', 'real_time', 'cpu_time', 'time_unit',
    'aggregate_name', 'aggregate_unit', 'error_occurred', 'error_message', 'label',
}
TIME_UNITS = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}
# The unit rule of book/CONVENTIONS.md ("Units"); tangle/weaver/units.cpp applies the same rule to
# records made before it. Keep the three in step.
QUANTITY_UNITS = {
    'time': 's', 'latency': 's', 'bytes': 'B', 'flops': 'FLOP', 'bandwidth': 'B/s',
    'flop_rate': 'FLOP/s', 'sm_clock_mhz': 'MHz', 'read_ceiling': 'B/s', 'fetch_granularity': 'B',
    # Times named before the rule (chapters 1.4 and 3.3): per step, per launch, a timeline.
    'span': 's', 'kernel_mean': 's', 'gap_mean': 's', 'timer_resolution': 's', 'per_launch': 's',
    'per_kernel': 's', 'per_node': 's', 'model_launch_tp': 's', 'model_node': 's', 'model_body': 's',
    'model_single': 's', 'predicted_saving': 's',
    # ncu's clocks while profiling (4.2)
    'sm_clock': 'Hz', 'dram_clock': 'Hz',
}
# Counts and ratios: recorded with the unit "" (a plain number). A counter whose name is neither
# here nor under a rule has no unit, and make measure refuses it.
DIMENSIONLESS = {
    'achieved_occupancy', 'agreements', 'blocks', 'blocks_per_sm', 'chains', 'compute_capability',
    'configurations', 'divergent_warps', 'efficiency', 'elements', 'eta', 'global_load_requests',
    'global_load_sectors', 'global_store_requests', 'global_store_sectors', 'grid', 'items', 'iters',
    'kernels', 'launched_threads', 'launches', 'loads_per_thread', 'memory_bus_bits',
    'model_bank_conflicts', 'model_load_lines', 'model_load_requests', 'model_load_sectors',
    'model_loop_instructions', 'model_sectors_per_request', 'model_shared_requests',
    'model_shared_wavefronts', 'model_store_requests', 'model_store_sectors',
    'model_warp_instructions', 'occupancy', 'passes', 'predicted_blocks_per_sm',
    'predicted_occupancy', 'predicted_warp_instructions', 'profiled_kernels', 'registers',
    'registers_per_thread', 'resident_warps_per_sm', 'reuse', 'sass_shared_wavefronts',
    'shared_bank_conflicts', 'shared_wavefronts', 'sm_count', 'throttled', 'tuned_index',
    'warp_instructions', 'warps', 'warps_per_sm', 'wave_size', 'waves', 'working_threads',
    # ncu's warp instructions by pipe (chapter 1.3).
    'warp_instructions_fma', 'warp_instructions_fmaheavy', 'warp_instructions_fmalite',
    'warp_instructions_alu',
    # 1.1's probe of the schedulers: counts of schedulers and of warps.
    'schedulers_used', 'fewest_warps_per_scheduler', 'most_warps_per_scheduler',
    'schedulers_with_most_warps',
    # and its dealing probe: SMs, blocks and warps counted, and the two rules' predicted counts.
    'warps_per_block', 'sms_used', 'fewest_blocks_per_sm', 'most_blocks_per_sm',
    'sms_matching_per_block_rule', 'sms_matching_balanced_rule', 'per_block_rule_most_warps',
    'per_block_rule_fewest_warps', 'balanced_rule_most_warps', 'balanced_rule_fewest_warps',
    # 3.1: a sum's error relative to sum|x| (and its model, predicted_error below).
    'measured_error',
    # Module 4: counts, indices, fractions of a unit's peak, and rates per second of counted events
    # (atomics, instructions: a count per second, printed as a plain number with its words).
    'atomics_per_second', 'degree', 'instructions_per_second', 'issue_active',
    'model_atomic_wavefronts', 'model_pipe_wavefronts', 'model_requests', 'model_sectors',
    'model_wavefronts', 'model_wavefronts_lanes', 'predicted_binding', 'predicted_error',
    'shared_atomic_wavefronts', 'shared_atomic_bank_conflicts', 'l2_atomic_sectors',
    # Appendix A's harness: its sampling, the clock's window and NVML's state (bit masks, flags,
    # and plain numbers whose unit their name gives: watts, degrees Celsius).
    'samples', 'converged', 'noise', 'throttled_samples', 'held', 'hold_timeouts', 'clock_in_window', 'nvml',
    'clock_events_start', 'clock_events_end', 'power_capped', 'thermal_slowdown',
    'hardware_slowdown', 'power_start_watts', 'power_end_watts', 'temperature_start_celsius',
    'temperature_end_celsius',
}
DIMENSIONLESS_PREFIXES = ('stall_', 'limited_by_', 'sol_', 'pipe_')
TIMELINE = re.compile(r'k\d+_(start|end)')  # a kernel's start and end on a timeline


def unit_by_name(name):
    """The unit a quantity's name gives by the rule (CONVENTIONS, "Units"): '' for a declared
    dimensionless name, None for a name no rule covers."""
    if name in QUANTITY_UNITS:
        return QUANTITY_UNITS[name]
    if name in DIMENSIONLESS or name.startswith(DIMENSIONLESS_PREFIXES):
        return ''
    if TIMELINE.fullmatch(name):
        return 's'
    if name.endswith(('_time', '_latency', '_seconds')):
        return 's'
    if name.endswith('_bytes') or name.startswith('bytes_') or '_bytes_' in name:
        return 'B'
    if name.endswith('_flops'):
        return 'FLOP'
    if name.endswith('_bandwidth'):
        return 'B/s'
    if name.endswith('_rate'):
        return 'FLOP/s'
    if name.endswith('_mhz'):
        return 'MHz'
    if name.endswith('_hz'):
        return 'Hz'
    return None


def quantity_unit(name, benchmark='?', source='?'):
    """The unit a counter is recorded in, by the rule; a MeasureError for a counter the rule gives
    none, so that no record holds a number without its unit."""
    unit = unit_by_name(name)
    if unit is None:
        raise MeasureError(f'{source}: benchmark {benchmark}: the counter {name} has no unit: its name '
                           'follows no rule of book/CONVENTIONS.md ("Units": *_time, *_bytes, '
                           '*_bandwidth, *_rate, ...) and is not declared dimensionless; rename it '
                           'by the rule, or declare it there, in tangle/measure/measure.py and in '
                           'tangle/weaver/units.cpp. Nothing of this chapter was written.')
    return unit

def result_key(run_name):
    """'reduce/v1/268435456/min_time:0.050/repeats:10/manual_time' -> 'reduce/v1@268435456'."""
    parts = []
    for part in run_name.split('/'):
        option = part.split(':', 1)[0] if ':' in part else None
        if part in NAME_WORDS or option in NAME_OPTIONS:
            continue
        parts.append(part)
    arguments = []
    while len(parts) > 1 and ARGUMENT.fullmatch(parts[-1]):
        arguments.insert(0, ARGUMENT.fullmatch(parts.pop()).group(1))
    name = '/'.join(parts)
    return f'{name}@{"x".join(arguments)}' if arguments else name


def summarize(values, unit):
    return {
        'median': statistics.median(values), 'min': min(values), 'max': max(values),
        'n': len(values), 'unit': unit,
    }


def non_negative(value, benchmark, counter, source):
    """`value`, or a MeasureError when it is negative: every quantity of a record is finite and
    non-negative (book/CONVENTIONS.md); the weaver would refuse the record (tools.md O7)."""
    if value < 0:
        raise MeasureError(f'{source}: benchmark {benchmark}: the counter {counter} is {value}, below '
                           'zero; a time or a count is never negative: fix the benchmark. Nothing of '
                           'this chapter was written.')
    return value


def finite(value, benchmark, counter, source):
    """`value`, or a MeasureError when it is NaN or infinite: Google Benchmark writes those as bare
    NaN/Infinity literals (a counter divided by a zero time or count), which no record may hold."""
    if isinstance(value, (int, float)) and not math.isfinite(value):
        raise MeasureError(f'{source}: benchmark {benchmark}: the counter {counter} is {json.dumps(value)}, '
                           'not a finite number (a division by a zero time or count?); fix the '
                           'benchmark\'s counter and run make measure again. Nothing of this chapter '
                           'was written.')
    return value


# A run whose harness took its own samples (bench::time_gpu under bench::gpu_benchmark: appendix A)
# carries the counter SAMPLED_COUNT; its real_time is their median, and a counter X with the
# companions X__min and X__max has those extremes. The companions are statistics, not quantities.
SAMPLED_COUNT = 'samples'
COMPANION = re.compile(r'(.+)__(min|max)')


def sampled_quantities(run, name, source):
    """{quantity: {median, min, max, n}} (no unit yet) of one run that took its own samples."""
    n = run[SAMPLED_COUNT]
    if isinstance(n, bool) or not isinstance(n, (int, float)) or n < 1 or n != int(n):
        raise MeasureError(f'{source}: benchmark {name}: the counter {SAMPLED_COUNT} is {n!r}, '
                           'not a count of samples; fix bench::time_gpu (appendix A)')
    counters = {field: finite(float(value), name, field, source) for field, value in run.items()
                if field not in RUN_FIELDS and not isinstance(value, bool)
                and isinstance(value, (int, float))}
    counters['time'] = finite(run['real_time'], name, 'real_time', source) * TIME_UNITS[run['time_unit']]
    counters['time__min'] = counters.get('time__min', counters['time'])
    counters['time__max'] = counters.get('time__max', counters['time'])
    quantities = {}
    for field, value in counters.items():
        if COMPANION.fullmatch(field):
            continue
        low = counters.get(field + '__min', value)
        high = counters.get(field + '__max', value)
        slack = 1e-9 * abs(value)  # the median came through another unit (real_time in us)
        low = value if value < low <= value + slack else low
        high = value if value - slack <= high < value else high
        if not low <= value <= high:
            raise MeasureError(f'{source}: benchmark {name}: {field} is {value}, outside its '
                               f'{field}__min {low} and {field}__max {high}; fix bench::time_gpu')
        quantities[field] = {'median': value, 'min': low, 'max': high, 'n': int(n)}
    return quantities


def pool_sampled(runs):
    """One statistic from several sampled runs of one key (a Repetitions(k) beside
    gpu_benchmark): the median of their medians, the extremes of their extremes, the summed count."""
    if len(runs) == 1:
        return runs[0]
    return {
        'median': statistics.median(r['median'] for r in runs), 'min': min(r['min'] for r in runs),
        'max': max(r['max'] for r in runs), 'n': sum(r['n'] for r in runs),
    }


def parse_benchmark_json(data, source):
    """(results, clock samples in run order) from Google Benchmark's JSON output."""
    if not isinstance(data, dict) or not isinstance(data.get('benchmarks'), list):
        raise MeasureError(f'{source}: not Google Benchmark JSON (no "benchmarks" list)')
    samples = {}
    sampled = {}
    owners = {}
    clocks = []
    not_measured = {}  # key -> outcome: a run that reported an error (tangle/measure/outcomes.py)
    for run in data['benchmarks']:
        if not isinstance(run, dict):
            raise MeasureError(f'{source}: a "benchmarks" entry is not an object: {json.dumps(run)[:80]}')
        name = run.get('name', '?')
        for field in ('name', 'run_name', 'time_unit', 'run_type', 'error_message'):
            if field in run and not isinstance(run[field], str):
                raise MeasureError(f'{source}: benchmark {str(name)[:80]}: "{field}" is not a string')
        try:  # a field of the wrong type is the benchmark's error, never a traceback (tools.md C6)
            read_run(run, name, source, samples, sampled, owners, clocks, not_measured)
        except (TypeError, ValueError, OverflowError, AttributeError) as error:
            raise MeasureError(f'{source}: benchmark {name}: a field is not what Google Benchmark '
                               f'writes ({error}); fix the benchmark or its counters')
    return summarize_runs(samples, sampled, not_measured, source), clocks


def read_run(run, name, source, samples, sampled, owners, clocks, not_measured):
    """One run of the benchmark JSON into the samples (parse_benchmark_json's loop body)."""
    if run.get('error_occurred'):
        not_measured[result_key(str(run.get('run_name', name)))] = \
            outcomes.from_error_message(run.get('error_message', ''))
        return
    if run.get('run_type', 'iteration') != 'iteration':
        return  # Google Benchmark's aggregates: the record computes its own
    key = result_key(run.get('run_name', name))
    owner = (run.get('family_index'), run.get('per_family_instance_index'))
    if owners.setdefault(key, owner) != owner:
        raise MeasureError(f'{source}: two different benchmarks give the result key {key}; '
                           'rename one of them')
    unit = run.get('time_unit', 'ns')
    if unit not in TIME_UNITS or 'real_time' not in run:
        raise MeasureError(f'{source}: benchmark {name} has no usable real_time/time_unit')
    if 'sm_clock_mhz' in run:  # (clock, read in the timed windows): a loop of its own reads after
        clocks.append((float(run['sm_clock_mhz']), run.get('clock_in_window') == 1))
    if SAMPLED_COUNT in run:
        for field, statistic in sampled_quantities(run, name, source).items():
            sampled.setdefault(key, {}).setdefault(field, []).append(statistic)
        return
    quantities = samples.setdefault(key, {})
    real_time = run['real_time']
    if isinstance(real_time, bool) or not isinstance(real_time, (int, float)):
        raise MeasureError(f'{source}: benchmark {name}: real_time {json.dumps(real_time)[:40]} is '
                           'not a number')
    quantities.setdefault('time', []).append(
        non_negative(finite(real_time, name, 'real_time', source), name, 'real_time', source)
        * TIME_UNITS[unit])
    for field, value in run.items():
        if field in RUN_FIELDS or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        quantities.setdefault(field, []).append(
            non_negative(finite(float(value), name, field, source), name, field, source))


def summarize_runs(samples, sampled, not_measured, source):
    """The results of parse_benchmark_json from the runs read_run gathered."""
    both = sorted(set(samples) & set(sampled))
    if both:
        raise MeasureError(f'{source}: result {both[0]} has runs that took their own samples and '
                           'runs that did not; register it with one of bench::gpu_benchmark and '
                           'bench::fixed_count_benchmark (appendix A)')
    results = {
        key: {q: summarize(v, quantity_unit(q, key, source)) for q, v in quantities.items()}
        for key, quantities in samples.items()
    }
    for key, quantities in sampled.items():
        results[key] = {q: dict(pool_sampled(runs), unit=quantity_unit(q, key, source))
                        for q, runs in quantities.items()}
    results.update(not_measured)  # one repetition's error outweighs the others' times
    return results


# ---------------------------------------------------------------------------------------------
# GoogleTest's JSON

def count_tests(data, source):
    """{'passed', 'failed', 'skipped'} and the names of the failed tests."""
    if not isinstance(data, dict) or not isinstance(data.get('testsuites'), list):
        raise MeasureError(f'{source}: not GoogleTest JSON (no "testsuites" list)')
    counts = {'passed': 0, 'failed': 0, 'skipped': 0}
    failed = []
    for suite in data['testsuites']:
        tests = suite.get('testsuite', []) if isinstance(suite, dict) else None
        if not isinstance(tests, list) or not all(isinstance(test, dict) for test in tests):
            raise MeasureError(f'{source}: not GoogleTest JSON (a "testsuites" entry is not an '
                               'object whose "testsuite" is a list of tests): '
                               f'{json.dumps(suite)[:80]}')
        for test in tests:
            name = f'{suite.get("name", "?")}.{test.get("name", "?")}'
            if test.get('status') == 'NOTRUN':
                continue  # disabled
            if test.get('failures'):
                counts['failed'] += 1
                failed.append(name)
            elif test.get('result') == 'SKIPPED':
                counts['skipped'] += 1
            else:
                counts['passed'] += 1
    return counts, failed


# ---------------------------------------------------------------------------------------------
# Context, sources, names

NUMERIC_CONTEXT = {
    'sm_count', 'l2_bytes', 'shared_memory_per_sm_bytes', 'global_memory_bytes',
    'memory_bus_bits', 'memory_clock_mhz', 'sm_clock_max_mhz', 'sm_clock_start_mhz',
}
# The context keys copied from the benchmark's JSON, in the record's order.
CONTEXT_KEYS = [
    'gpu', 'compute_capability', 'sm_count', 'l2_bytes', 'shared_memory_per_sm_bytes',
    'global_memory_bytes', 'sm_clock_max_mhz', 'sm_clock_start_mhz', 'memory_bus_bits',
    'memory_clock_mhz', 'driver', 'runtime', 'nvcc', 'cuda_architectures', 'date_utc',
]


def as_number(text):
    """'132' -> 132, '1980.5' -> 1980.5, anything else unchanged."""
    for convert in (int, float):
        try:
            return convert(text)
        except (TypeError, ValueError):
            pass
    return text


def build_context(benchmark_context, clocks, smi=None, nvcc=None):
    """The record's context: the device as the benchmark binary saw it, plus the tools'."""
    context = {}
    for key in CONTEXT_KEYS:
        if key in benchmark_context:
            value = benchmark_context[key]
            context[key] = as_number(value) if key in NUMERIC_CONTEXT else value
    if clocks:
        context['sm_clock_end_mhz'] = clocks[-1][0]
        context['sm_clock_min_mhz'] = min(mhz for mhz, _ in clocks)
        # the fastest timed window: a chip may run a clock step above the maximum its driver
        # reports (the H100 of 2026-12-05 ran 1995 MHz windows against 1980; appendix A); a clock
        # read after a loop of its own (clock_in_window 0) is not a window's and is left out
        windows = [mhz for mhz, in_window in clocks if in_window]
        if windows:
            context['sm_clock_top_mhz'] = max(windows)
    if smi:
        driver, name = smi
        if 'driver' in context:
            context['driver_cuda_version'] = context['driver']
        context['driver'] = driver
        context.setdefault('gpu', name)
    if nvcc and 'nvcc' not in context:
        context['nvcc'] = nvcc
    if 'host_name' in benchmark_context:
        context['host'] = benchmark_context['host_name']
    return context


# The weaver's rule for the words a record's box prints (tangle/weaver/measurements.cpp,
# check_printed_words): no character Markdown or HTML reads as markup, no control character. A
# record that breaks it is refused whole by the weaver, so make measure refuses it first (MS09).
MARKUP = set('<>&"[]{}`*_\\|')
PRINTED_WORDS = ('gpu', 'runtime', 'driver', 'nvcc')
# The longest GPU name, and --gpu-slug: a folder's name (a 300-character one is no file name: MS08).
NAME_MAX = 100


def check_printed_words(context, where):
    """A MeasureError naming the field when the context's GPU name is not a string of at most
    NAME_MAX characters, or it or a version breaks the weaver's rule for printed words."""
    gpu = context.get('gpu')
    if not isinstance(gpu, str) or len(gpu) > NAME_MAX:
        raise MeasureError(f'{where}: the GPU name (context.gpu, from the benchmark binary\'s '
                           f'context or nvidia-smi) is {json.dumps(gpu)[:80]}: a GPU is named by a '
                           f'string of at most {NAME_MAX} characters, like "NVIDIA H200". Nothing '
                           'was written.')
    for key in PRINTED_WORDS:
        value = context.get(key)
        bad = next((c for c in value if c in MARKUP or ord(c) < 0x20), None) \
            if isinstance(value, str) else None
        if bad is not None:
            raise MeasureError(f'{where}: context.{key} is {json.dumps(value)[:80]}, which holds '
                               f'{json.dumps(bad)}, a character Markdown or HTML reads as markup: '
                               'the weaver would refuse the record (a record names its GPU and '
                               'versions in plain words). Nothing was written.')


def gpu_slug(name):
    """'NVIDIA H200' -> 'nvidia-h200'."""
    return re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')


def named_for(folder, gpu):
    """Whether a records folder is named for this GPU, by the weaver's rule (book/CONVENTIONS.md):
    its letters and digits begin with the GPU's and end there or at a '-' (nvidia-h200,
    nvidia-h200-24gib; not nvidia-h2000)."""
    wanted = re.sub(r'[^a-z0-9]', '', gpu.lower())
    matched = 0
    for at, c in enumerate(folder):
        if matched == len(wanted):
            return c == '-'
        if not c.isascii() or not c.isalnum():
            continue
        if c.lower() != wanted[matched]:
            return False
        matched += 1
    return bool(wanted) and matched == len(wanted)


def chapter_sources(root, chapter, src):
    """The chapter's tangled files (from src/.tangle-manifest), else every file of src/<src>/."""
    root = Path(root)
    manifest = root / 'src' / '.tangle-manifest'
    paths = []
    if manifest.is_file():
        for number, line in enumerate(manifest.read_text(encoding='utf-8').split('\n'), start=1):
            if not line.strip():
                continue
            owner, tab, path = line.partition('\t')
            if not tab:
                raise MeasureError(f'{manifest}:{number}: expected "chapter<TAB>path"')
            if owner == chapter:
                paths.append(path.strip())
    if not paths:
        folder = root / 'src' / src
        paths = [p.relative_to(root).as_posix() for p in folder.rglob('*') if p.is_file()]
    if not paths:
        raise MeasureError(f'{root / "src" / src}: no tangled sources for {chapter}; run make tangle')
    return sorted(paths)


def code_bytes(data):
    """A tangled file's bytes less its `#line` directives: they move whenever prose above a block
    grows or shrinks, and a prose edit must not make a chapter's numbers look stale."""
    return b''.join(line for line in data.splitlines(keepends=True) if not line.startswith(b'#line '))


def sources_sha256(root, paths):
    """SHA-256 over the files in path order: each path, NUL, its code bytes, NUL."""
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(path.encode('utf-8') + b'\0')
        try:
            digest.update(code_bytes((Path(root) / path).read_bytes()))
        except OSError as error:
            raise MeasureError(f'{path}: listed as a tangled source but unreadable: {error.strerror}')
        digest.update(b'\0')
    return digest.hexdigest()


# The machine's ceilings: name in machine.json -> (benchmark name in appendix A, quantity).
CEILINGS = {
    'copy_kernel_bandwidth': ('bench/copy_bandwidth', 'bandwidth'),
    'memcpy_bandwidth': ('bench/memcpy_bandwidth', 'bandwidth'),
    'read_stream_bandwidth': ('bench/read_bandwidth', 'bandwidth'),
    'read_bulk_bandwidth': ('bench/read_bulk_bandwidth', 'bandwidth'),
    'l2_stream_bandwidth': ('bench/l2_bandwidth', 'bandwidth'),
    'l2_shared_bandwidth': ('bench/l2_shared_bandwidth', 'bandwidth'),
    'shared_bandwidth': ('bench/shared_bandwidth', 'bandwidth'),
    'dram_latency': ('bench/dram_latency', 'latency'),
    'fp32_fma_rate': ('bench/fp32_fma_rate', 'flop_rate'),
    'bf16_tensor_rate': ('bench/bf16_tensor_rate', 'flop_rate'),
    'launch_latency': ('bench/launch_latency', 'time'),
    'launch_throughput': ('bench/launch_throughput', 'time'),
    # One loop per instruction (appendix A, "A ceiling for each instruction"): its rate, its FLOP
    # per SM per clock from the SMs' own cycle counters, and the clock the SMs held meanwhile.
    'mma_sync_rate': ('bench/mma_sync_rate', 'flop_rate'),
    'mma_sync_sm_cycle_flops': ('bench/mma_sync_rate', 'sm_cycle_flops'),
    'mma_sync_clock_mhz': ('bench/mma_sync_rate', 'kernel_clock_mhz'),
    'wgmma_rate': ('bench/wgmma_rate', 'flop_rate'),
    'wgmma_sm_cycle_flops': ('bench/wgmma_rate', 'sm_cycle_flops'),
    'wgmma_clock_mhz': ('bench/wgmma_rate', 'kernel_clock_mhz'),
    'exp2_rate': ('bench/exp2_rate', 'flop_rate'),
    'exp2_sm_cycle_flops': ('bench/exp2_rate', 'sm_cycle_flops'),
}

# Ceilings that are the best of others, by median; machine.json records which one in the
# ceiling's "from". B_copy: the copy kernel or the driver's copy. B_read: the float4 stream or the
# bulk copy engine, over 2 GiB from a cold L2. B_L2: the stream over 16 MiB left in L2, or the
# bulk read whose chunks eight SMs ask for at once (the L2 answers them together: appendix A).
BEST_OF = {
    'copy_bandwidth': ('copy_kernel_bandwidth', 'memcpy_bandwidth'),
    'read_bandwidth': ('read_stream_bandwidth', 'read_bulk_bandwidth'),
    'l2_bandwidth': ('l2_stream_bandwidth', 'l2_shared_bandwidth'),
}

# lambda, the loaded DRAM latency: the median of the `latency` medians of the loaded sweep's points
# with at most LOADED_LATENCY_MAX_BYTES in flight per SM. The bound is the harness's
# kLoadedLatencyMaxBytesInFlight (src/bench/latency.cuh), which bench::loaded_dram_latency() uses:
# the two must agree.
LOADED_LATENCY = 'dram_latency_loaded'
LOADED_SWEEP = 'bench/loaded_latency'
LOADED_LATENCY_MAX_BYTES = 4096


def loaded_latency_from(results, source, read_bandwidth=None):
    """The ceiling dram_latency_loaded from the sweep's results; "from" lists the points used.
    A point whose bandwidth is not below half of read_bandwidth is past the knee: said, not fatal."""
    points = []
    for key, quantities in results.items():
        if not key.startswith(LOADED_SWEEP + '@'):
            continue
        if 'latency' not in quantities or 'bytes_in_flight_per_sm' not in quantities:
            raise MeasureError(f'{source}: {key} has no latency or bytes_in_flight_per_sm')
        if quantities['bytes_in_flight_per_sm']['median'] <= LOADED_LATENCY_MAX_BYTES:
            points.append(key)
    if not points:
        raise MeasureError(f'{source}: no {LOADED_SWEEP} point with at most {LOADED_LATENCY_MAX_BYTES} '
                           'bytes in flight per SM; machine.json needs them for dram_latency_loaded')
    points.sort(key=lambda k: results[k]['bytes_in_flight_per_sm']['median'])
    latencies = [results[k]['latency'] for k in points]
    if read_bandwidth:
        for key in points:
            bandwidth = results[key].get('bandwidth', {}).get('median', 0.0)
            if bandwidth >= 0.5 * read_bandwidth:
                print(f'measure: note: {key} reaches {bandwidth / read_bandwidth:.0%} of read_bandwidth: '
                      'it may be past the knee, and dram_latency_loaded too high', file=sys.stderr)
    return {
        'median': statistics.median(q['median'] for q in latencies),
        'min': min(q['min'] for q in latencies), 'max': max(q['max'] for q in latencies),
        'n': len(points), 'unit': 's', 'from': points,
    }


def ceilings_from(results, source):
    """machine.json's ceilings. One whose benchmark was skipped or failed is written as that
    outcome ({"status", "reason"}, as a result is), so machine.json is still written with the rest:
    the lessons that divide by it show the reason instead of a number. A ceiling with no result
    at all is the harness's bug, and an error."""
    ceilings = {}
    for ceiling, (name, quantity) in CEILINGS.items():
        keys = [k for k in results if k == name or k.startswith(name + '@')]
        if len(keys) != 1:
            raise MeasureError(f'{source}: expected one result for {name}, found {len(keys)}; '
                               'machine.json needs it')
        if outcomes.is_outcome(results[keys[0]]):
            ceilings[ceiling] = dict(results[keys[0]], reason=f'{keys[0]}: {results[keys[0]]["reason"]}')
            continue
        if quantity not in results[keys[0]]:
            raise MeasureError(f'{source}: {keys[0]} has no {quantity}')
        ceilings[ceiling] = results[keys[0]][quantity]
    for ceiling, candidates in BEST_OF.items():
        measured = [name for name in candidates if not outcomes.is_outcome(ceilings[name])]
        if not measured:
            ceilings[ceiling] = outcomes.outcome('failed', 'none of ' + ', '.join(candidates) +
                                                 ' was measured')
            continue
        best = max(measured, key=lambda name: ceilings[name]['median'])
        ceilings[ceiling] = dict(ceilings[best], **{'from': best})
    read = ceilings.get('read_bandwidth', {}).get('median')
    sweep = {key: value for key, value in results.items() if key.startswith(LOADED_SWEEP + '@')}
    if sweep and all(outcomes.is_outcome(value) for value in sweep.values()):
        reasons = sorted({value['reason'] for value in sweep.values()})
        ceilings[LOADED_LATENCY] = outcomes.outcome('failed', f'no point of {LOADED_SWEEP} was '
                                                    'measured: ' + '; '.join(reasons))
    else:
        ceilings[LOADED_LATENCY] = loaded_latency_from(outcomes.measured_only(results), source, read)
    return ceilings


def ceiling_names():
    """Every ceiling machine.json holds: measured, best-of, and the loaded latency."""
    return list(CEILINGS) + list(BEST_OF) + [LOADED_LATENCY]


def utc_now():
    return datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')


def record_text(path, value):
    """The JSON text of a record; a MeasureError when it holds a NaN or an infinity."""
    try:
        return json.dumps(value, indent=2, allow_nan=False) + '\n'
    except ValueError:  # the weaver would refuse the file, so it is not written
        raise MeasureError(f'{path}: not written: it would hold a NaN or an infinite number, which a '
                           'record may not; find the counter that is not finite and fix it')


def write_records(records):
    """Writes [(path, value), ...] as a set: every text is made (and so checked) first, each goes to
    a temporary file beside its target, and only then are all renamed into place. A failure before
    the renames leaves every old record as it was: never a record of this run beside one of the last.
    Each old record is kept (a hard link) until all are renamed, so a failure or an interrupt
    between two renames puts the ones already renamed back (tools.md L4). Which ones were renamed
    is read from the files (a target whose inode is its temporary's), not from a mark set after
    each rename: an interrupt just after one lands before any mark (tools.md M25). A file that
    cannot be written (a full disk, an unwritable --out) is a MeasureError naming the folder."""
    texts = [(Path(path), record_text(path, value)) for path, value in records]
    staged = []  # [temporary, target, backup or None, the temporary's (device, inode) or None]
    folder = None
    try:
        for path, text in texts:
            folder = path.parent
            stage_record(path, text, staged)
        for temporary, path, _, _ in staged:
            folder = path.parent
            os.replace(temporary, path)
    except BaseException as error:
        roll_back(staged)
        if isinstance(error, OSError):
            raise MeasureError(f'{folder}: cannot write the records ({error.strerror or error}); '
                               'nothing was replaced') from error
        raise
    for _, _, backup, _ in staged:
        if backup is not None and os.path.exists(backup):
            os.unlink(backup)


def stage_record(path, text, staged):
    """Writes `text` to a temporary file beside `path` and hard-links the old record beside it;
    the entry is added to `staged` before anything that could fail, so roll_back sees it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f'.{path.name}.', suffix='.tmp')
    entry = [temporary, path, None, None]
    staged.append(entry)
    with os.fdopen(handle, 'w', encoding='utf-8') as out:
        status = os.fstat(out.fileno())
        entry[3] = (status.st_dev, status.st_ino)
        os.fchmod(out.fileno(), 0o644)  # mkstemp makes it private; a record is for everyone to read
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    if path.exists():
        backup = Path(f'{temporary}.old')
        os.link(path, backup)
        entry[2] = backup


def renamed(path, inode):
    """Whether `path` is now the temporary file of this (device, inode)."""
    try:
        status = os.stat(path)
    except OSError:
        return False
    return inode is not None and (status.st_dev, status.st_ino) == inode


def roll_back(staged):
    """Puts back the old record of every target already renamed, and removes the temporaries."""
    for temporary, path, backup, inode in staged:
        if renamed(path, inode):
            if backup is not None:
                os.replace(backup, path)
            else:
                os.unlink(path)
        for leftover in (temporary, backup):
            if leftover is not None and os.path.exists(leftover):
                os.unlink(leftover)


def write_json_atomic(path, value):
    """Writes through a temporary file in the same folder and a rename: all or nothing."""
    write_records([(path, value)])


# ---------------------------------------------------------------------------------------------
# Running the binaries

def find_binary(build, name):
    """<build>/<name>, <build>/src/<src>/<name>, or anywhere under <build>; None if absent."""
    build = Path(build)
    inside = build.resolve()

    def runnable(candidate):  # a program of this build: no link to one elsewhere (tools.md O10)
        try:
            candidate.resolve().relative_to(inside)
        except ValueError:
            return False
        return candidate.is_file() and os.access(candidate, os.X_OK)

    if '/' in name or name.startswith('.'):
        return None
    for candidate in [build / name, build / 'src' / name.rsplit('_', 1)[0] / name]:
        if runnable(candidate):
            return candidate
    for folder, _, files in os.walk(build):
        if name in files and runnable(Path(folder) / name):
            return Path(folder) / name
    return None


def read_json(path, what):
    """A binary's JSON output; bytes that are not UTF-8 (in a test's failure message, say) are
    read as U+FFFD, never a crash (tools.md MS03)."""
    try:
        return json.loads(Path(path).read_text(encoding='utf-8', errors='replace'))
    except OSError as error:
        raise MeasureError(f'{path}: the {what} wrote no output: {error.strerror}')
    except json.JSONDecodeError as error:
        raise MeasureError(f'{path}:{error.lineno}: the {what} output is not JSON: {error.msg}')
    except RecursionError:  # Python's decoder recurses once per level of nesting
        raise MeasureError(f'{path}: the {what} output nests arrays or objects too deeply to be '
                           'Google Benchmark JSON')


def run_tests(binary, scratch, shard=None, quiet=False):
    """(counts, why the chapter's benchmarks must not be timed, or None). A failed test, or a test
    binary that dies, is that reason: its kernels' times would mean nothing. shard = (index, total)
    runs one of GoogleTest's shards (GTEST_SHARD_INDEX, GTEST_TOTAL_SHARDS); quiet keeps the
    binary's output and the verdict's lines for the caller (run_all_tests prints them in order)."""
    tag = f'.{shard[0]}' if shard else ''
    output = Path(scratch) / f'{binary.name}{tag}.json'
    env = processes.child_environment(dict(
        GTEST_SHARD_INDEX=str(shard[0]), GTEST_TOTAL_SHARDS=str(shard[1]),
        GTEST_SHARD_STATUS_FILE=str(shard_status_file(binary, scratch, shard[0]))) if shard else None)
    if not quiet:
        print(f'measure: {binary} (tests)', flush=True)
    command = [str(binary), f'--gtest_output=json:{output}', '--gtest_brief=1']
    with processes.Child(command, TIME_LIMIT, env=env, stdout=subprocess.DEVNULL if quiet else None,
                         stderr=subprocess.STDOUT if quiet else None) as child:
        child.process.wait()
    completed = child.process
    if child.timed_out:
        counts = {'passed': 0, 'failed': 0, 'skipped': 0}
        print(f'measure: error: {binary}: timed out after {TIME_LIMIT} s (--timeout); stopped',
              file=sys.stderr, flush=True)
        return counts, f'not timed: tests of {binary.name} timed out after {TIME_LIMIT} s'
    if not output.is_file() and completed.returncode != 0:
        counts = {'passed': 0, 'failed': 0, 'skipped': 0}
        return counts, (f'{binary.name} exited with status {completed.returncode} before writing '
                        'its results')
    counts, failed = count_tests(read_json(output, 'test binary'), output)
    if failed:
        counts['failed_tests'] = failed
    if completed.returncode != 0 or failed:
        names = ', '.join(failed) or f'exit status {completed.returncode}'
        if not quiet:
            print(f'measure: error: {binary}: tests failed ({names}); this chapter\'s benchmarks are '
                  'recorded as failed, not timed. Fix the kernel or the test, then run make measure '
                  'again.', file=sys.stderr)
        return counts, f'not timed: tests of {binary.name} failed: {names}'
    if counts['skipped'] and not quiet:
        note_skipped(binary, counts['skipped'])
    return counts, None


def shard_status_file(binary, scratch, index):
    """The file GoogleTest creates when it honours GTEST_TOTAL_SHARDS (a binary that does not, a
    fake one or another framework, ran every test in every shard)."""
    return Path(scratch) / f'{binary.name}.{index}.sharded'


def note_skipped(binary, skipped):
    print(f'measure: note: {binary.name} skipped {skipped} test(s); each skip states '
          'its reason in the test output (all of them skipping means no GPU is visible)',
          file=sys.stderr)


def run_all_tests(binaries, scratch, jobs, shards):
    """{binary: (counts, untimed)} for every chapter's test binary, run before any benchmark: each
    binary split into `shards` GoogleTest shards, `jobs` processes at a time on the one GPU (the
    tests check results, they time nothing, so sharing the GPU changes no verdict but the wall
    time). A binary any of whose shards failed is run again alone, whole, as a serial measure
    would, and that run decides: a test that fails only beside others is named, not trusted."""
    tasks = [(binary, (index, shards) if shards > 1 else None)
             for binary in binaries for index in range(shards)]
    spent = {}

    def run(task):
        started = time.monotonic()
        try:
            return run_tests(task[0], scratch, task[1], quiet=True)
        finally:
            spent[task] = time.monotonic() - started
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = list(pool.map(run, tasks))
    slowest = sorted(spent.items(), key=lambda item: -item[1])[:3]
    print('measure: the slowest test processes: ' + ', '.join(
        f'{binary.name}{f" (shard {shard[0] + 1} of {shard[1]})" if shard else ""} {seconds:.1f} s'
        for (binary, shard), seconds in slowest), file=sys.stderr, flush=True)
    verdicts = {}
    for (binary, shard), (counts, untimed) in zip(tasks, done):
        if shard and shard[0] > 0 and not shard_status_file(binary, scratch, shard[0]).exists():
            continue  # it ignored the sharding: its first shard ran every test
        total, reasons = verdicts.setdefault(binary, ({'passed': 0, 'failed': 0, 'skipped': 0}, []))
        for name in ('passed', 'failed', 'skipped'):
            total[name] += counts[name]
        total.setdefault('failed_tests', []).extend(counts.get('failed_tests', []))
        if untimed:
            reasons.append(untimed)
    results = {}
    for binary in binaries:
        counts, reasons = verdicts[binary]
        if not counts['failed_tests']:
            counts.pop('failed_tests')
        if reasons:  # decided alone, as a serial measure would (and its output is printed)
            print(f'measure: {binary.name}: tests failed beside other chapters\' tests '
                  f'({"; ".join(reasons)}); running them again alone', file=sys.stderr, flush=True)
            results[binary] = run_tests(binary, scratch)
            if results[binary][1] is None:
                print(f'measure: warning: {binary.name} passed alone but failed beside other '
                      'tests: a test that depends on having the GPU to itself', file=sys.stderr)
            continue
        if counts['skipped']:
            note_skipped(binary, counts['skipped'])
        results[binary] = (counts, None)
    return results


def list_benchmarks(binary):
    try:
        return outcomes.list_benchmarks(binary, TIME_LIMIT)
    except RuntimeError as error:
        raise MeasureError(f'{error}; build it again (make build) and run make measure again')


def not_timed(binary, reason):
    """Google Benchmark JSON in which every benchmark of the binary failed with this reason."""
    return {'context': {}, 'benchmarks': [error_run(name, reason) for name in list_benchmarks(binary)]}


SLOWEST_SHOWN = 3


def run_timed(command):
    """Runs a benchmark binary, its standard output echoed line by line as it comes (Google
    Benchmark flushes after each benchmark), and says which of its lines took longest: the time
    from one line to the next is that benchmark's (with its repetitions, the family's), start-up
    included in the first. A CompletedProcess with the last processes.TAIL_BYTES of the standard
    error as text (undecodable bytes replaced), `timed_out` (stopped at TIME_LIMIT) and
    `stderr_size`."""
    with tempfile.TemporaryFile() as errors:
        with processes.Child(command, TIME_LIMIT, stdout=subprocess.PIPE, stderr=errors) as child:
            last = started = time.monotonic()
            spans = []
            for raw in child.process.stdout:
                now = time.monotonic()
                line = raw.decode('utf-8', errors='replace')
                sys.stdout.write(line)
                if line.strip() and not line.startswith('-'):
                    spans.append((now - last, line.split()[0]))
                last = now
            child.process.stdout.close()
            returncode = child.process.wait()
        sys.stdout.flush()
        stderr, size = processes.read_tail(errors)
    slowest = sorted(spans, reverse=True)[:SLOWEST_SHOWN]
    if slowest:
        print(f'measure: {Path(command[0]).name} took {time.monotonic() - started:.1f} s; longest: '
              + ', '.join(f'{name} {seconds:.1f} s' for seconds, name in slowest), flush=True)
    completed = subprocess.CompletedProcess(command, returncode, None, stderr)
    completed.timed_out, completed.stderr_size = child.timed_out, size
    return completed


def run_benchmarks(binary, scratch):
    """The binary's Google Benchmark JSON, with a run or an outcome for every benchmark it lists.
    When it dies (a crash, an uncaught exception) or runs past TIME_LIMIT, the runs it finished are
    kept, the benchmark it was in is added as an error run (failed with the exit status or the time
    limit, or skipped when the exception said "skipped: "), and the rest run again in a new process,
    until every benchmark has run or been so recorded. A benchmark it lists but neither ran nor
    reported, though it exited 0, is recorded as failed: never a silently shorter record."""
    print(f'measure: {binary} (benchmarks)', flush=True)
    merged = {'context': {}, 'benchmarks': []}
    remaining, batch = None, None  # the first process runs them all, with no filter
    attempt = 0
    while True:  # ends: each process leaves at least its batch's first benchmark run or recorded
        attempt += 1
        data, completed = run_benchmark_process(binary, scratch, attempt, batch)
        stop = stop_reason(completed)
        if stop and not data.get('context'):  # the reporter writes it first: died before any run
            raise MeasureError(f'{binary}: {stop}, before its first benchmark; see its output above')
        if remaining is None:
            remaining = list_benchmarks(binary)
        if not merged['context']:
            merged['context'] = data.get('context', {})
        merged['benchmarks'].extend(data['benchmarks'])
        asked = remaining if batch is None else batch
        finished = {result_key(str(run.get('run_name', run.get('name', ''))))
                    for run in data['benchmarks'] if isinstance(run, dict)}
        unfinished = [name for name in asked if result_key(name) not in finished]
        later = remaining[len(asked):]
        if not stop:
            merged['benchmarks'].extend(error_run(name, NOT_RUN) for name in unfinished)
            if unfinished:
                print(f'measure: error: {binary} exited 0 without running {len(unfinished)} of the '
                      f'benchmarks it lists ({unfinished[0]}, ...); recorded as failed',
                      file=sys.stderr)
            unfinished = []
        else:
            unfinished = record_the_stop(binary, stop, unfinished, merged)
        remaining = unfinished + later
        if not remaining:
            return merged
        batch = filter_batch(remaining)
        print(f'measure: running the {len(remaining)} benchmark(s) after it in a new process'
              + (f' ({len(batch)} in the first: a filter is at most {FILTER_BYTES} bytes)'
                 if len(batch) < len(remaining) else ''), file=sys.stderr)


# The reason of a benchmark a binary lists but did not run, though it exited 0 (its filter or a
# BENCHMARK_* variable, a registration that runs nothing, a reporter that lost it: tools.md MS02).
NOT_RUN = 'the binary exited 0 without running it'
# The longest --benchmark_filter argument of a re-run: Linux refuses one of 128 KiB (tools.md MS06).
FILTER_BYTES = 100_000


def error_run(name, reason):
    """A Google Benchmark run of `name` that reported this error."""
    return {'name': name, 'run_name': name, 'run_type': 'iteration', 'error_occurred': True,
            'error_message': reason}


def filter_batch(names):
    """The longest prefix of `names` whose exact filter fits FILTER_BYTES (at least one name)."""
    size = len('^()$')
    for count, name in enumerate(names):
        size += len(outcomes.exact_filter([name]).encode('utf-8')) - len('^()$') + 1
        if size > FILTER_BYTES and count > 0:
            return names[:count]
    return names


def run_benchmark_process(binary, scratch, attempt, batch):
    """(its Google Benchmark JSON, whole or as far as it got, the CompletedProcess) of one process
    of the binary, over the benchmarks of `batch` (None: all)."""
    output = Path(scratch) / f'{binary.name}.{attempt}.json'
    command = [str(binary), f'--benchmark_out={output}', '--benchmark_out_format=json']
    if batch is not None:
        command.append(f'--benchmark_filter={outcomes.exact_filter(batch)}')
    completed = run_timed(command)
    if completed.stderr_size > len(completed.stderr.encode('utf-8', errors='replace')):
        print(f'measure: {binary.name} wrote {completed.stderr_size} bytes to standard error; '
              'the last of them:', file=sys.stderr)
    sys.stderr.write(completed.stderr)
    if completed.returncode == 0 and not completed.timed_out:
        data = read_json(output, 'benchmark binary')
    else:  # as far as it got: a whole JSON of any shape, or the runs written before it stopped
        text = output.read_text(encoding='utf-8', errors='replace') if output.is_file() else ''
        data = outcomes.read_partial_benchmark_json(text)
    if not isinstance(data, dict) or not isinstance(data.get('benchmarks'), list) \
            or not isinstance(data.get('context', {}), dict):
        raise MeasureError(f'{binary}: its --benchmark_out is not Google Benchmark JSON (no '
                           '"benchmarks" list, or a "context" that is not an object)')
    return data, completed


def stop_reason(completed):
    """Why a benchmark process stopped before its end (its time limit, a crash), or None."""
    if completed.timed_out:
        return (f'the benchmark binary timed out after {TIME_LIMIT} s while running it '
                '(make measure\'s limit, --timeout)')
    if completed.returncode != 0:
        return outcomes.crash_message(completed.returncode, completed.stderr)
    return None


def record_the_stop(binary, reason, unfinished, merged):
    """A process that died or timed out: the benchmark it was in (the first unfinished) is added
    to `merged` as an error run; the names left to run are returned."""
    print(f'measure: error: {binary}: {reason}', file=sys.stderr)
    if not unfinished:  # it died on the way out: every result is whole, keep them
        print(f'measure: error: {binary} died after its last benchmark; its results are kept. '
              'Run it alone to see why.', file=sys.stderr)
        return []
    merged['benchmarks'].append(error_run(unfinished[0], reason))
    if len(unfinished) > 1:
        print(f'measure: {unfinished[0]} recorded as not measured', file=sys.stderr)
    return unfinished[1:]


class PeerFailed(Exception):
    """A peer script that ran and failed: recorded under the record's "peers", and the run goes on."""


class PeerSkipped(Exception):
    """A peer script that cannot run here (it exited with PEER_SKIP): recorded as skipped."""


# A peer script's exit status for "cannot run here" (no PyTorch, no GPU it can use): the
# convention of automake's test drivers.
PEER_SKIP = 77


def peer_path(root, script, where):
    """A peer script's path: a tangled file under <root>/src/, never anything else (a peer named
    /etc/passwd, or ../x.py, was run with Python: tools.md O10)."""
    if not isinstance(script, str):
        raise MeasureError(f'{where}: peers: each entry is a script path (a string), like '
                           '"src/attention/sdpa_peer.py"')
    relative = Path(script)
    src = (Path(root) / 'src').resolve()
    inside = not relative.is_absolute() and '..' not in relative.parts and \
        relative.parts[:1] == ('src',)
    if inside:
        try:
            (Path(root) / relative).resolve().relative_to(src)
        except ValueError:  # a link out of src/
            inside = False
    if not inside:
        raise MeasureError(f'{where}: peers: {script} is not a file under src/: a peer is a script '
                           'a chapter tangles, like "src/attention/sdpa_peer.py"')
    return Path(root) / relative


def run_peer(root, script, where):
    """Google Benchmark JSON from one peer script (run with this Python). PeerSkipped when it exits
    with PEER_SKIP (its last line on stderr says why, and is printed), PeerFailed when it fails."""
    path = peer_path(root, script, where)
    if not path.is_file():
        raise MeasureError(f'{where}: peers: names {script}, which is not a file; run make tangle')
    print(f'measure: {script} (peer)', flush=True)
    completed = processes.run([sys.executable, str(path)], TIME_LIMIT)
    if completed.timed_out:
        raise PeerFailed(f'the peer script timed out after {TIME_LIMIT} s (make measure\'s limit, '
                         '--timeout) and was stopped')
    reason = (completed.stderr.strip().split('\n') or [''])[-1]
    if completed.returncode == PEER_SKIP:
        print(f'measure: peer {script} skipped: {reason}', file=sys.stderr)
        raise PeerSkipped(reason)
    if completed.returncode != 0:
        sys.stderr.write(completed.stderr)
        raise PeerFailed(f'the peer script exited with status {completed.returncode} ({reason}); '
                         f'fix it, or make it exit with {PEER_SKIP} where it cannot run')
    try:
        return json.loads(completed.stdout)
    except json.JSONDecodeError as error:
        raise PeerFailed(f'line {error.lineno} of its output is not JSON ({error.msg}); a peer '
                         'script prints Google Benchmark JSON and nothing else on stdout')
    except RecursionError:
        raise PeerFailed('its output nests too deeply to be Google Benchmark JSON; a peer script '
                         'prints Google Benchmark JSON and nothing else on stdout')


def merge_peer_results(results, peer_results, script):
    """Adds a peer's results to the chapter's; a key both give is an error, not an overwrite."""
    for key, quantities in peer_results.items():
        if key in results:
            raise MeasureError(f'{script}: gives the result key {key}, which the chapter\'s own '
                               'benchmark gives too; rename one of them')
        results[key] = quantities


def measure_peers(root, scripts, results, where):
    """Runs every peer script, merges its results; {script: its context} of those that ran."""
    if scripts is None:
        return {}
    if not isinstance(scripts, list):
        raise MeasureError(f'{where}: peers: must be a list of script paths, e.g. '
                           '["src/attention/sdpa_peer.py"]')
    contexts = {}
    for script in scripts:
        try:
            data = run_peer(root, script, where)
        except PeerSkipped as why:
            contexts[script] = outcomes.outcome('skipped', str(why))
            continue
        except PeerFailed as error:
            print(f'measure: error: {script}: {error}', file=sys.stderr)
            contexts[script] = outcomes.outcome('failed', str(error))
            continue
        peer_results, _ = parse_benchmark_json(data, script)
        merge_peer_results(results, peer_results, script)
        contexts[script] = data.get('context', {})
    return contexts


def query_nvidia_smi():
    """(driver version, GPU name) of the first GPU, or None."""
    try:
        out = subprocess.run(['nvidia-smi', '--query-gpu=driver_version,name',
                              '--format=csv,noheader'], capture_output=True, text=True,
                             errors='replace', timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    first = out.stdout.strip().split('\n')[0] if out.returncode == 0 else ''
    driver, comma, name = first.partition(',')
    return (driver.strip(), name.strip()) if comma else None


def query_nvcc():
    """'13.0.88' from nvcc --version, or None."""
    for nvcc in ['nvcc', '/usr/local/cuda/bin/nvcc']:
        try:
            out = subprocess.run([nvcc, '--version'], capture_output=True, text=True,
                                 errors='replace', timeout=60)
        except (OSError, subprocess.SubprocessError):
            continue
        match = re.search(r'release [\d.]+, V([\d.]+)', out.stdout)
        if match:
            return match.group(1)
    return None


# ---------------------------------------------------------------------------------------------
# One chapter

# The device's context as the last benchmark binary of this run reported it: the record of a chapter
# whose benchmarks were not timed (a failed test) still names its GPU.
LAST_DEVICE_CONTEXT = {}


def measure_chapter(root, build, out_root, chapter, front, scratch, pending, slug=None, problems=None,
                    counters=True, tested=None):
    """Measures one chapter and adds its record (and machine.json) to `pending`, [(path, value)],
    which main writes as a set once every chapter is measured; False when its counters failed.
    Its skipped and failed results are added to `problems` (outcomes.collect's rows). `tested`:
    its tests' verdict when they already ran (run_all_tests), else they run here first."""
    src = str(front['src'])
    test_binary = find_binary(build, f'{src}_test')
    bench_binary = find_binary(build, f'{src}_bench')
    if test_binary is None and bench_binary is None:
        raise MeasureError(f'{chapter}: neither {src}_test nor {src}_bench under {build}; '
                           'build first (make build)')
    phases = []  # (phase, seconds): printed at the end, so a long measure shows where it goes
    started = time.monotonic()
    if tested is not None:
        tests, untimed = tested
    else:
        tests, untimed = (run_tests(test_binary, scratch) if test_binary
                          else ({'passed': 0, 'failed': 0, 'skipped': 0}, None))
        phases.append(('tests', time.monotonic() - started))
    if bench_binary is None:
        print(f'measure: {chapter} has no {src}_bench: recorded with no results', file=sys.stderr)
        benchmark = {'context': {}, 'benchmarks': []}
    elif untimed:
        benchmark = not_timed(bench_binary, untimed)
    else:
        started = time.monotonic()
        benchmark = run_benchmarks(bench_binary, scratch)
        phases.append(('benchmarks', time.monotonic() - started))
    results, clocks = parse_benchmark_json(benchmark, bench_binary or chapter)
    started = time.monotonic()
    peers = measure_peers(root, front.get('peers'), results,
                          f'{chapter}:{getattr(front, "lines", {}).get("peers", 1)}')
    if front.get('peers'):
        phases.append(('peers', time.monotonic() - started))
    smi = query_nvidia_smi()
    device = benchmark.get('context') or {}
    if untimed and not device:  # nothing ran: the device as this run's last benchmark binary saw it
        device = LAST_DEVICE_CONTEXT.get('context', {})
    elif device:
        LAST_DEVICE_CONTEXT['context'] = device
    context = build_context(device, clocks, smi, query_nvcc())
    gpu = context.get('gpu')
    if not gpu:
        raise MeasureError(f'{chapter}: no GPU name from the benchmark or nvidia-smi; '
                           'make measure needs a GPU')
    check_printed_words(context, chapter)
    sources = chapter_sources(root, chapter, src)
    digest = sources_sha256(root, sources)
    date = utc_now()
    record = {
        'format': FORMAT, 'chapter': str(front['id']), 'title': front.get('title') or '',
        'src': src, 'gpu': gpu, 'date': date, 'sources_sha256': digest, 'sources': sources,
        'context': context, 'tests': tests, 'results': results,
    }
    if peers:
        record['peers'] = peers  # each peer script's own context (its library versions)
    if slug and not named_for(slug, gpu):  # the weaver would refuse the folder (tools.md O2)
        raise MeasureError(f'{chapter}: --gpu-slug {slug} does not name this GPU, {gpu}: a records '
                           f'folder is the GPU\'s name ({gpu_slug(gpu)}), optionally followed by '
                           f'"-" and a suffix ({gpu_slug(gpu)}-24gib). Nothing was written.')
    folder = Path(out_root) / (slug or gpu_slug(gpu))
    if not (slug or gpu_slug(gpu)):  # records beside the GPU folders would hide them (tools.md O3)
        raise MeasureError(f'{chapter}: the GPU name {gpu!r} has no letter or digit to name its '
                           'folder; give one with --gpu-slug NAME')
    record_path = folder / f'{record["chapter"]}.json'
    try:  # the id rule (parse_front_matter) keeps it there; this is the last guard
        record_path.resolve().parent.relative_to(Path(out_root).resolve())
    except ValueError:
        raise MeasureError(f'{chapter}: its record {record_path} would lie outside {out_root}')
    pending.append((record_path, record))
    # The counters come after the timings are measured: a failing ncu costs only the counters.
    profiled = True
    try:
        where = f'{chapter}:{getattr(front, "lines", {}).get("profile", 1)}'
        counted = copy.deepcopy(results)  # the record takes the counters of all its keys, or none
        started = time.monotonic()
        keys = front.get('profile') if counters else None
        if not counters and front.get('profile'):
            print(f'measure: {chapter}: counters not asked for (--no-counters): timings only', flush=True)
        if isinstance(keys, list) and any(outcomes.is_outcome(results.get(k)) for k in keys):
            keys = [k for k in keys if not outcomes.is_outcome(results.get(k))]  # nothing to count
            print(f'measure: {chapter}: profiling only the measured keys of its profile: list',
                  file=sys.stderr)
        profiler = ncu.profile_chapter(root, bench_binary, keys, counted, where)
        if keys:
            phases.append(('counters', time.monotonic() - started))
        if profiler:
            record['results'] = counted
            record['profiler'] = profiler
    except ncu.NcuError as error:
        print(f'measure: error: {error} (the record keeps its timings, without counters)',
              file=sys.stderr)
        profiled = False
    if problems is not None:
        problems.extend(outcomes.collect(str(front['id']), record['results'], record.get('peers')))
    if src == 'bench':
        machine = {
            'format': FORMAT, 'gpu': gpu, 'date': date, 'context': context,
            'sources_sha256': digest, 'sources': sources,
            'ceilings': ceilings_from(results, bench_binary),
        }
        if problems is not None:
            problems.extend((f'{front["id"]} (machine.json)', name, value['status'], value['reason'])
                            for name, value in machine['ceilings'].items()
                            if outcomes.is_outcome(value))
        pending.append((folder / 'machine.json', machine))
    print(f'measure: measured {chapter} ({len(results)} results{", with counters" if "profiler" in record else ""})')
    spent = ', '.join(f'{phase} {seconds:.1f} s' for phase, seconds in phases)
    print(f'measure: {chapter} took {sum(seconds for _, seconds in phases):.1f} s ({spent})')
    return profiled


def add_run_time(pending, spent, total, build_seconds=None):
    """machine.json (where this run wrote one) says how long the run took: measure_seconds, the
    whole measure (tests, benchmarks, peers, counters of every chapter it measured), beside
    build_seconds where the caller timed the build, and the seconds by chapter ("tests": the
    chapters' tests side by side, before the timings)."""
    for path, value in pending:
        if path.name == 'machine.json':
            value['context']['measure_seconds'] = round(total, 1)
            if build_seconds is not None:
                value['context']['build_seconds'] = round(build_seconds, 1)
            value['run'] = {'chapters': [c for c, _ in spent if c != 'tests'],
                            'seconds_by_chapter': {c: round(t, 1) for c, t in spent}}


def main(argv=None):
    """make measure. Ctrl-C or SIGTERM stops every child process (and its children), removes the
    temporary files, and writes nothing (tools.md MS12, MS13): exit status 128 + the signal."""
    global TIME_LIMIT
    progress = {'written': False}
    with processes.stopping_children_on_signals():
        try:
            return measure_main(argv, progress)
        except KeyboardInterrupt as stop:
            signum = getattr(stop, 'signal', signal.SIGINT)
            said = 'the records were written' if progress['written'] else 'nothing written'
            name = '' if signum == signal.SIGINT else f' ({signal.Signals(signum).name})'
            print(f'measure: interrupted{name}; {said}', file=sys.stderr, flush=True)
            return 128 + signum
        finally:
            TIME_LIMIT = DEFAULT_TIME_LIMIT  # --timeout is this run's only


def measure_main(argv, progress):
    """main's run: {'written': True} in `progress` once the records are in place."""
    global TIME_LIMIT
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--build', default='build', help='the CMake build folder (default: build)')
    parser.add_argument('--chapter', help='measure only this chapter (id, e.g. 3.1, or path)')
    parser.add_argument('--out', help='write records here instead of book/measurements')
    parser.add_argument('--root', default=str(ROOT), help='the book root (default: this checkout)')
    parser.add_argument('--gpu-slug', help='the folder under --out to write to, instead of the GPU\'s '
                        'name made a slug (e.g. nvidia-h200-24gib for a run capped by '
                        'BENCH_MEMORY_LIMIT=24GiB)')
    parser.add_argument('--test-jobs', type=int, default=min(8, os.cpu_count() or 1),
                        help='test processes at a time, before any benchmark (default: the cores, at '
                             'most 8; 1 runs each chapter\'s tests just before its benchmarks, as a '
                             'run under BALLAST or BENCH_MEMORY_LIMIT should)')
    parser.add_argument('--test-shards', type=int, default=4,
                        help='GoogleTest shards per test binary when --test-jobs > 1 (default 4)')
    parser.add_argument('--build-seconds', type=float,
                        help='the wall time of the build before this run, recorded beside the '
                             'measure\'s own in machine.json (.ci/device-measure passes it)')
    parser.add_argument('--no-counters', action='store_true',
                        help='timings only: do not run ncu over the profile: lists (a quick run, e.g. '
                             'one capped by BENCH_MEMORY_LIMIT to see what fits)')
    parser.add_argument('--timeout', type=float, default=DEFAULT_TIME_LIMIT,
                        help='the most seconds one run of a test binary, benchmark binary or peer '
                             f'script may take before it is stopped (default {DEFAULT_TIME_LIMIT}); a '
                             'benchmark it was running is recorded as failed, and the rest run')
    args = parser.parse_args(argv)
    if not args.timeout > 0:
        parser.error('--timeout must be a positive number of seconds')
    TIME_LIMIT = int(args.timeout) if args.timeout == int(args.timeout) else args.timeout
    root = Path(args.root)
    out_root = Path(args.out) if args.out else root / 'book' / 'measurements'
    problems = []  # (chapter, key, status, reason) of every result skipped or failed
    try:
        if args.gpu_slug is not None and (len(args.gpu_slug) > NAME_MAX or not re.fullmatch(
                r'[a-z0-9]+(?:-[a-z0-9]+)*', args.gpu_slug)):
            raise MeasureError(f'--gpu-slug {args.gpu_slug[:80]!r}: a folder name is lower-case '
                               'letters and digits joined by single hyphens, at most '
                               f'{NAME_MAX} characters, like nvidia-h200-24gib')
        if not Path(args.build).is_dir():
            raise MeasureError(f'{args.build}: no such build folder; run make build first')
        complete = True
        pending = []  # written as a set once all are measured: never records of two runs side by side
        spent = []  # (chapter id, seconds): the whole measure's time, chapter by chapter
        run_started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix='measure-') as scratch:
            chapters = select_chapters(root, args.chapter)
            tested = {}
            if args.test_jobs > 1:  # every chapter's tests first, side by side, then the timings alone
                started = time.monotonic()
                binaries = {chapter: find_binary(Path(args.build), f'{front["src"]}_test')
                            for chapter, front in chapters}
                verdicts = run_all_tests([b for b in binaries.values() if b], scratch,
                                         args.test_jobs, max(1, args.test_shards))
                tested = {chapter: verdicts[b] for chapter, b in binaries.items() if b}
                spent.append(('tests', time.monotonic() - started))
                print(f'measure: the tests of {len(tested)} chapter(s), {args.test_jobs} processes at '
                      f'a time, took {spent[-1][1]:.1f} s', flush=True)
            for chapter, front in chapters:
                started = time.monotonic()
                complete &= measure_chapter(root, Path(args.build), out_root, chapter, front, scratch,
                                            pending, args.gpu_slug, problems, not args.no_counters,
                                            tested.get(chapter))
                spent.append((str(front['id']), time.monotonic() - started))
        total = time.monotonic() - run_started
        print('measure: time by chapter: ' + ', '.join(f'{c} {t:.0f} s' for c, t in spent)
              + f'; all {len(chapters)} chapter(s) {total:.0f} s', flush=True)
        add_run_time(pending, spent, total, args.build_seconds)
        write_records(pending)
        progress['written'] = True
        for path, _ in pending:
            print(f'measure: wrote {path}')
    except (MeasureError, processes.CannotStart) as error:
        outcomes.print_table(problems)
        print(f'measure: error: {error}', file=sys.stderr)
        return 1
    outcomes.print_table(problems)
    if not complete:
        return 1
    return INCOMPLETE if problems else 0


if __name__ == '__main__':
    sys.exit(main())
