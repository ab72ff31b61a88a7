"""Hardware counters for the measurement records: Nsight Compute (ncu) over one timed iteration.

make measure calls profile_chapter() after a chapter's benchmarks. It runs the chapter's benchmark
binary once under
  ncu --clock-control none --profile-from-start off --csv --nvtx --print-nvtx-rename kernel \
      --kernel-name <every kernel but bench_profile_marker> --metrics <book/ncu-metrics.txt> \
      <bench> --benchmark_filter=<every key of the front matter's profile: list>
with BENCH_PROFILE=1, so that bench::time_gpu opens the profiler around exactly one timed
iteration of each benchmark (appendix A), inside the NVTX range "bench/range <k>". ncu profiles
each kernel (kernel replay); its CSV (one row per kernel and metric) names each kernel's range,
so the kernels are split into iterations by range, range k given to the k-th profiled benchmark
(the harness names them on standard error, "bench: profile range <k> is <benchmark>"; else the
order of its --benchmark_out JSON). The marker kernel bench_profile_marker, which the harness also
launches first inside each range, is left unprofiled: profiling it cost a fifth of ncu's time
(experiments/measure-time/). Where ncu's CSV names no range, the binary is profiled once more
with the marker, and the kernels are split at the markers instead. The kernels of each iteration
are combined into the record's quantities (book/CONVENTIONS.md), and these are merged into
results[key]. One ncu process per chapter, not one per key: the binary's start-up (its CUDA
context, its inputs) is paid once. Python's standard library only.
"""
import csv
import json
import math
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import processes

METRICS_FILE = 'book/ncu-metrics.txt'
METRIC_NAME = re.compile(r'[a-z][a-z0-9_]*__[a-z0-9_]+(\.[a-z0-9_]+)*')
HEADER_START = '"ID","Process ID"'
# ncu writes unscaled values with --csv --metrics; a scaled unit is still read right.
TIME_UNITS = {'ns': 1e-9, 'nsecond': 1e-9, 'us': 1e-6, 'usecond': 1e-6, 'ms': 1e-3, 'msecond': 1e-3,
              's': 1.0, 'second': 1.0}
PREFIXES = {'K': 1e3, 'M': 1e6, 'G': 1e9, 'T': 1e12}
# Clocks: ncu writes 'hz' unscaled; a scaled 'MHz' or 'Ghz' is read right, whatever its case.
FREQUENCY_UNITS = {'hz': 1.0, 'khz': 1e3, 'mhz': 1e6, 'ghz': 1e9}
# FLOP per tensor-core "op" that sm__ops_path_tensor_* counts. ncu's documentation does not say
# whether an op is a multiply-add or a FLOP: checked against 2MNK of the BF16 rung on the H200.
TENSOR_FLOP_PER_OP = 1.0

# The summed quantities: name -> (unit, {metric: factor}); the sum over every kernel of the iteration.
SUMS = {
    'dram_bytes_read': ('B', {'dram__bytes_read.sum': 1}),
    'dram_bytes_write': ('B', {'dram__bytes_write.sum': 1}),
    'dram_bytes': ('B', {'dram__bytes_read.sum': 1, 'dram__bytes_write.sum': 1}),
    'l2_bytes': ('B', {'lts__t_sectors_srcunit_tex.sum': 32}),
    'l1_bytes': ('B', {'l1tex__t_bytes.sum': 1}),
    'global_load_sectors': ('', {'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 1}),
    'global_load_requests': ('', {'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': 1}),
    'global_store_sectors': ('', {'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': 1}),
    'global_store_requests': ('', {'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum': 1}),
    'shared_wavefronts': ('', {'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': 1,
                               'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': 1}),
    'shared_bank_conflicts': ('', {'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': 1,
                                   'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': 1}),
    # The same wavefronts counted per SASS instruction from the addresses alone: the hardware's
    # count above also holds wavefronts replayed for reasons other than the addresses (chapter 2.2)
    'sass_shared_wavefronts': ('', {'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': 1,
                                    'smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum': 1}),
    # Chapter 4.4: the atomics, which the two above leave out (shared ones) or fold into l2_bytes.
    'shared_atomic_wavefronts': ('', {'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum': 1}),
    'shared_atomic_bank_conflicts': ('', {'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum': 1}),
    'l2_atomic_sectors': ('', {'lts__t_sectors_srcunit_tex_op_atom.sum': 1,
                               'lts__t_sectors_srcunit_tex_op_red.sum': 1}),
    # Chapter 4.3: the L2 Request Coalescer (LRC) between the SMs and the L2 slices: the read
    # sectors it fetched from the slices, and those it served by merging requests for one sector.
    'lrc_l2_read_bytes': ('B', {'lrc__lts2lrc_sectors_op_read.sum': 32}),
    'lrc_merged_bytes': ('B', {'lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum': 32}),
    'warp_instructions': ('', {'smsp__inst_executed.sum': 1}),
    # The same by the pipe that executed them (chapter 1.3): FMA, FP32 arithmetic and the integer
    # IMAD, split on sm_86 and later into fmaheavy (FP32, IMAD) and fmalite (FP32 only); ALU,
    # integer but IMAD, logic, compares, moves.
    'warp_instructions_fma': ('', {'sm__inst_executed_pipe_fma.sum': 1}),
    'warp_instructions_fmaheavy': ('', {'sm__inst_executed_pipe_fmaheavy.sum': 1}),
    'warp_instructions_fmalite': ('', {'sm__inst_executed_pipe_fmalite.sum': 1}),
    'warp_instructions_alu': ('', {'sm__inst_executed_pipe_alu.sum': 1}),
    'fp32_flops': ('FLOP', {'smsp__sass_thread_inst_executed_op_ffma_pred_on.sum': 2,
                            'smsp__sass_thread_inst_executed_op_fadd_pred_on.sum': 1,
                            'smsp__sass_thread_inst_executed_op_fmul_pred_on.sum': 1}),
    'tensor_flops': ('FLOP', {'sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32.sum': TENSOR_FLOP_PER_OP,
                              'sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32.sum': TENSOR_FLOP_PER_OP}),
    'kernel_time': ('s', {'gpu__time_duration.sum': 1}),
}
DURATION = 'gpu__time_duration.sum'
OCCUPANCY = 'sm__warps_active.avg.pct_of_peak_sustained_active'  # a percentage: read as a fraction
# The duration-weighted means: name -> (unit, metric). ncu's percentages of peak are recorded as
# fractions (0 to 1, as to_number reads '%'); the clocks as Hz. "Speed of light" (sol_*): each
# unit's throughput as a fraction of its sustained peak; pipe_*: a pipe's busy cycles (or issued
# instructions) as a fraction of its peak, over the cycles the SM was active (chapter 4.2).
MEANS = {
    'achieved_occupancy': ('', OCCUPANCY),
    'sol_sm': ('', 'sm__throughput.avg.pct_of_peak_sustained_elapsed'),
    'sol_memory': ('', 'gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed'),
    'sol_dram': ('', 'dram__throughput.avg.pct_of_peak_sustained_elapsed'),
    'sol_l2': ('', 'lts__throughput.avg.pct_of_peak_sustained_elapsed'),
    'sol_l1': ('', 'l1tex__throughput.avg.pct_of_peak_sustained_active'),
    'sol_shared': ('', 'l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed'),
    'pipe_tensor': ('', 'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active'),
    'pipe_fma': ('', 'sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active'),
    'pipe_alu': ('', 'sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active'),
    'pipe_lsu': ('', 'sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active'),
    'pipe_shared': ('', 'sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active'),
    'pipe_xu': ('', 'sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active'),
    'issue_active': ('', 'smsp__issue_active.avg.pct_of_peak_sustained_active'),
    'sm_clock': ('Hz', 'sm__cycles_elapsed.avg.per_second'),
    'dram_clock': ('Hz', 'dram__cycles_elapsed.avg.per_second'),
}
REGISTERS = 'launch__registers_per_thread'
STALL = re.compile(r'smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio')


class NcuError(Exception):
    """A problem with ncu or its output; the message names the file (and line) and what to do."""


# ---------------------------------------------------------------------------------------------
# The metric set

def read_metric_file(path):
    """The metric names of book/ncu-metrics.txt, in order: one a line, '#' starts a comment."""
    try:
        text = Path(path).read_text(encoding='utf-8')
    except OSError as error:
        raise NcuError(f'{path}: cannot read the metric set: {error.strerror}')
    metrics = []
    for number, line in enumerate(text.split('\n'), start=1):
        words = line.split('#', 1)[0].split()
        if not words:
            continue
        if len(words) > 1 or not METRIC_NAME.fullmatch(words[0]):
            raise NcuError(f'{path}:{number}: expected one ncu metric name (like dram__bytes_read.sum) '
                           'and an optional # comment')
        if words[0] in metrics:
            raise NcuError(f'{path}:{number}: {words[0]} is listed twice')
        metrics.append(words[0])
    if not metrics:
        raise NcuError(f'{path}: lists no metric')
    return metrics


def feeds(metric):
    """The record quantities a metric feeds (empty: it feeds none)."""
    names = [name for name, (_, parts) in SUMS.items() if metric in parts]
    if metric == DURATION:
        names.append('profiled_kernels')
    names += [name for name, (_, mean) in MEANS.items() if metric == mean]
    if metric == REGISTERS:
        names.append('registers_per_thread')
    stall = STALL.fullmatch(metric)
    if stall:
        names.append(f'stall_{stall.group(1)}')
    return names


# The quantities every profiled key keeps, read by the weaver itself rather than named in a
# chapter: the roofline's placements (tangle/weaver/rooflines.cpp) and whether a key was profiled
# (profiled_kernels, from the duration).
ALWAYS_RECORDED = frozenset({'dram_bytes', 'l2_bytes', 'l1_bytes', 'fp32_flops', 'tensor_flops',
                             'shared_wavefronts', 'kernel_time', 'profiled_kernels'})


def quantities_read(root, family):
    """The record quantities the book names after a result key of `family` ('matmul' for
    matmul/v1_naive@...): in spans, claims, variants and front matter of every chapter, since one
    chapter may read another's counters."""
    reference = re.compile(re.escape(family) + r'/[A-Za-z0-9_]+(?:@[^\s:\]]+)?\s*:\s*([A-Za-z_][A-Za-z0-9_]*)')
    names = set()
    for chapter in sorted((Path(root) / 'chapters').glob('*.md')):
        try:
            names.update(reference.findall(chapter.read_text(encoding='utf-8')))
        except OSError as error:
            raise NcuError(f'{chapter}: cannot read it to find the counters it names: {error.strerror}')
    return names


def metrics_for(metrics, quantities):
    """The metrics of the set that feed the quantities asked for or ALWAYS_RECORDED, in the set's
    order: every other metric would cost replay passes for a value no page shows."""
    wanted = set(quantities) | ALWAYS_RECORDED
    return [m for m in metrics if m == DURATION or wanted & set(feeds(m))]


# ---------------------------------------------------------------------------------------------
# Finding and running ncu

def find_ncu():
    """ncu on PATH, else CUDA's default folder; None when there is none."""
    found = shutil.which('ncu')
    if found:
        return found
    default = Path('/usr/local/cuda/bin/ncu')
    return str(default) if default.is_file() and os.access(default, os.X_OK) else None


def ncu_version(ncu):
    """'2025.3.1.0' from ncu --version, or 'unknown'."""
    try:
        out = subprocess.run([ncu, '--version'], capture_output=True, text=True, errors='replace',
                             timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return 'unknown'
    match = re.search(r'Version\s+([\d.]+)', out)
    return match.group(1) if match else 'unknown'


def benchmark_filter(key):
    """The --benchmark_filter regular expression (POSIX extended) that selects exactly the benchmark
    of a result key: 'reduce/v1_naive@268435456' -> '^reduce/v1_naive/268435456' then only the
    settings Google Benchmark appends (min_time:, repeats:, manual_time, ...)."""
    name, _, arguments = key.partition('@')
    pattern = '^' + re.sub(r'([.^$*+?()\[\]{}|\\])', r'\\\1', name)
    for argument in arguments.split('x') if arguments else []:
        pattern += f'/([A-Za-z_][A-Za-z0-9_]*:)?{argument}'
    settings = '(/(min_time|min_warmup_time|iterations|repeats|threads):[^/]*|/(manual_time|real_time|process_time))*'
    return pattern + settings + '$'


def chapter_filter(keys):
    """One --benchmark_filter that selects exactly the benchmarks of all the keys."""
    return '|'.join(f'({benchmark_filter(key)})' for key in keys)


def ncu_command(ncu, binary, metrics, keys, benchmark_out=None, by_range=True):
    """The one ncu command line that profiles every key of a chapter (a single key: a str).
    by_range: kernels named by their NVTX range, the marker kernel left unprofiled; else the
    marker is profiled too, and splits the iterations."""
    keys = [keys] if isinstance(keys, str) else list(keys)
    command = [ncu, '--clock-control', 'none', '--profile-from-start', 'off', '--csv']
    if by_range:
        command += ['--nvtx', '--print-nvtx-rename', 'kernel', '--kernel-name', MARKER_EXCLUDED]
    command += ['--metrics', ','.join(metrics), str(binary), f'--benchmark_filter={chapter_filter(keys)}']
    if benchmark_out is not None:
        command += [f'--benchmark_out={benchmark_out}', '--benchmark_out_format=json']
    return command


def run_profiled(command, what, timeout=900, stderr_lines=None):
    """Runs a command with BENCH_PROFILE=1; its standard output (and ncu's '==' lines). Errors
    quote ncu's own. stderr_lines, a list, receives every line of standard error."""
    environment = processes.child_environment({'BENCH_PROFILE': '1'})  # no BENCHMARK_*, GTEST_*
    try:  # ncu and the binary it runs are one process group: a timeout stops both (tools.md MS04)
        with processes.Child(command, timeout, env=environment, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE) as child:
            out, err = child.process.communicate()
    except OSError as error:
        raise NcuError(f'{what}: cannot run {command[0]}: {error.strerror}')
    if child.timed_out:
        raise NcuError(f'{what}: ncu ran longer than {timeout} s; profile a smaller size')
    done = subprocess.CompletedProcess(command, child.process.returncode,
                                       out.decode('utf-8', errors='replace'),
                                       err.decode('utf-8', errors='replace'))
    if done.returncode != 0:
        said = [line for line in (done.stdout + done.stderr).split('\n') if line.strip()][-8:]
        raise NcuError(f'{what}: ncu exited with status {done.returncode}: ' + ' | '.join(said))
    if stderr_lines is not None:
        stderr_lines.extend(done.stderr.split('\n'))
    return done.stdout + '\n' + '\n'.join(line for line in done.stderr.split('\n') if line.startswith('=='))


# ---------------------------------------------------------------------------------------------
# ncu's CSV

def to_number(text, unit, where):
    """A value in its base unit: seconds for times, a fraction for '%', prefixes (Kbyte) undone.
    `where` names the CSV line and metric (the kernel is the line's). A value that is not a finite,
    non-negative number is an NcuError: every quantity of a record is one (book/CONVENTIONS.md),
    and the record keeps its timings without the counters (tools.md MS10, MS11)."""
    try:
        value = float(text.replace(',', ''))
    except ValueError:
        raise NcuError(f'{where}: the value "{text}" is not a number')
    if not math.isfinite(value) or value < 0:
        raise NcuError(f'{where}: the value "{text}" is not a finite, non-negative number; a '
                       'counter is a count, a time, a rate or a fraction')
    if unit in TIME_UNITS:
        return value * TIME_UNITS[unit]
    if unit == '%':
        return value / 100
    if unit.lower() in FREQUENCY_UNITS:
        return value * FREQUENCY_UNITS[unit.lower()]
    if len(unit) > 1 and unit[0] in PREFIXES and unit[1].islower():
        return value * PREFIXES[unit[0]]
    return value


def csv_rows(text, source, header_start=HEADER_START):
    """(header, [(line number, row)]) of the CSV ncu printed: the program's own output and ncu's
    '==PROF==' lines before it are skipped, ncu's '==' lines after it too."""
    lines = text.split('\n')
    start = next((i for i, line in enumerate(lines) if line.startswith(header_start)), None)
    if start is None:
        said = ' | '.join(line for line in lines if line.startswith('==ERROR==') or 'No kernels' in line)
        raise NcuError(f'{source}: no ncu CSV in the output (no line starting {header_start})'
                       + (f'; ncu said: {said}' if said else '; was anything profiled?'))
    try:
        header = next(csv.reader([lines[start]]))
    except csv.Error as error:
        raise NcuError(f'{source}:{start + 1}: the CSV header cannot be read ({error})')
    rows = []
    for number, line in enumerate(lines[start + 1:], start=start + 2):
        if not line.strip() or line.startswith('=='):
            continue
        try:
            row = next(csv.reader([line]))
        except csv.Error as error:  # a stray carriage return, say: ncu's error, not a traceback
            raise NcuError(f'{source}:{number}: this CSV line cannot be read ({error})')
        if len(row) > len(header) + 1:  # ncu ends some rows with a comma: one empty field more
            raise NcuError(f'{source}:{number}: expected {len(header)} CSV fields, found {len(row)}')
        rows.append((number, dict(zip(header, row))))
    return header, rows


def require(row, columns, source, number):
    """Every column named is in the row; else the row was cut short."""
    for column in columns:
        if column not in row:
            raise NcuError(f'{source}:{number}: the row ends before its "{column}" field')


# The harness's NVTX range around a profiled iteration: in ncu's NVTX column (--nvtx), and at the
# head of the kernel's name (--print-nvtx-rename kernel: "bench/range 3/<kernel>").
PROFILE_RANGE = re.compile(r'bench/range (\d+)')
# ncu's --kernel-name filter that leaves the marker out, whether ncu matches it against the
# function's name or against the name the NVTX range gave it (the form without the range was seen
# to work on ncu 2025.3: experiments/measure-time/).
MARKER_EXCLUDED = 'regex:^(?!(bench/range [0-9]+/)?(bench::)?bench_profile_marker).*'
NVTX_COLUMN = 'Push/Pop_Range'


def range_of(row):
    """(the index k of the range "bench/range k" a kernel ran in, or None; its name without it)."""
    name = row['Kernel Name']
    renamed = re.match(r'bench/range (\d+)/(.*)', name, re.S)
    if renamed:
        return int(renamed.group(1)), renamed.group(2)
    for column, value in row.items():
        if column and NVTX_COLUMN in column and value:
            found = PROFILE_RANGE.search(value)
            if found:
                return int(found.group(1)), name
    return None, name


def parse_metrics_csv(text, source):
    """The kernels of `ncu --csv --metrics` output, in launch order:
    [{'id', 'name', 'range', 'metrics': {metric: value in base units}}] ('range': the k of the
    harness's NVTX range "bench/range k" the kernel ran in, None where the output names none)."""
    header, rows = csv_rows(text, source)
    for column in ('ID', 'Kernel Name', 'Metric Name', 'Metric Unit', 'Metric Value'):
        if column not in header:
            raise NcuError(f'{source}: the ncu CSV has no "{column}" column; was it run with --csv --metrics?')
    kernels = {}
    for number, row in rows:
        require(row, header, source, number)
        kernel_id = (row.get('Process ID', ''), row['ID'])
        index, name = range_of(row)
        kernel = kernels.setdefault(kernel_id, {'id': row['ID'], 'name': name, 'range': index,
                                                'metrics': {}})
        where = f'{source}:{number}: kernel {row["ID"]} ({row["Kernel Name"][:80]}): {row["Metric Name"]}'
        kernel['metrics'][row['Metric Name']] = to_number(row['Metric Value'], row['Metric Unit'], where)
    return list(kernels.values())


def quantity(value, unit):
    """One profiled iteration: one sample. Whole counts are written as integers."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    return {'median': value, 'min': value, 'max': value, 'n': 1, 'unit': unit}


def combine(kernels, metrics, source):
    """The record's quantities from the kernels of one iteration and the metrics that were asked
    for: sums for counts, duration-weighted means for occupancy, speed of light, pipes, clocks and
    stalls, registers of the
    longest kernel. Quantities whose metrics were not all asked for are left out."""
    if not kernels:
        raise NcuError(f'{source}: ncu profiled no kernel: does the benchmark time with bench::time_gpu?')
    for kernel in kernels:
        for metric in metrics:
            if metric not in kernel['metrics']:
                raise NcuError(f'{source}: kernel {kernel["id"]} ({kernel["name"]}) has no value for '
                               f'{metric}; is it a metric of this GPU (ncu --query-metrics)?')
    asked = set(metrics)
    result = {}
    for name, (unit, parts) in SUMS.items():
        if asked.issuperset(parts):
            result[name] = quantity(sum(factor * k['metrics'][m] for k in kernels
                                        for m, factor in parts.items()), unit)
    if DURATION in asked:
        result['profiled_kernels'] = quantity(len(kernels), '')
        durations = [k['metrics'][DURATION] for k in kernels]
        total = sum(durations)
        weights = [d / total for d in durations] if total > 0 else [1 / len(kernels)] * len(kernels)
        means = [(name, unit, metric) for name, (unit, metric) in MEANS.items() if metric in asked]
        means += [(f'stall_{STALL.fullmatch(m).group(1)}', '', m) for m in metrics if STALL.fullmatch(m)]
        for name, unit, metric in means:
            result[name] = quantity(sum(w * k['metrics'][metric] for w, k in zip(weights, kernels)), unit)
        if REGISTERS in asked:
            longest = max(kernels, key=lambda k: k['metrics'][DURATION])
            result['registers_per_thread'] = quantity(longest['metrics'][REGISTERS], '')
    return result


# ---------------------------------------------------------------------------------------------
# One process, many benchmarks: which kernels belong to which key

# The kernel bench::time_gpu launches first inside each profiled iteration (appendix A): a
# delimiter in ncu's list of kernels, never one of the benchmark's own.
MARKER = 'bench_profile_marker'


def split_by_range(kernels, order, source):
    """The kernels of each profiled iteration, by range: the list for range k holds the kernels
    that ran in "bench/range k", order[k] the benchmark that opened it; marker kernels left out.
    None where some kernel has no range (an ncu whose CSV names none: split at the markers)."""
    kernels = [kernel for kernel in kernels if MARKER not in kernel['name']]
    if not kernels or any(kernel['range'] is None for kernel in kernels):
        return None
    iterations = [[] for _ in order]
    for kernel in kernels:
        if kernel['range'] >= len(order):
            raise NcuError(f'{source}: kernel {kernel["id"]} ({kernel["name"][:80]}) ran in profile range '
                           f'{kernel["range"]}, but the binary opened only {len(order)} profiled range(s)')
        iterations[kernel['range']].append(kernel)
    for index, kernels_of_range in enumerate(iterations):
        if not kernels_of_range:
            raise NcuError(f'{source}: ncu profiled no kernel in range {index} ({order[index]}): '
                           'did the benchmark launch nothing in its timed iteration?')
    return iterations


def split_at_markers(kernels, source):
    """The kernels of each profiled iteration, in order: a list per marker, markers left out. Output
    with no marker at all (a harness before the marker) is one iteration."""
    if not any(MARKER in k['name'] for k in kernels):
        return [kernels] if kernels else []
    if MARKER not in kernels[0]['name']:
        raise NcuError(f'{source}: kernel {kernels[0]["id"]} ({kernels[0]["name"]}) was profiled before '
                       f'the first {MARKER}: something outside bench::time_gpu opened the profiler')
    iterations = []
    for kernel in kernels:
        if MARKER in kernel['name']:
            iterations.append([])
        else:
            iterations[-1].append(kernel)
    return iterations


def run_order(keys, benchmark_json, source):
    """The keys in the order the binary ran their benchmarks, from its --benchmark_out JSON: each run
    is matched to the key whose filter selects its name; runs that failed or skipped opened no
    profiler and are left out."""
    patterns = {key: re.compile(benchmark_filter(key)) for key in keys}
    order = []
    for run in benchmark_json.get('benchmarks', []) if isinstance(benchmark_json, dict) else []:
        if run.get('error_occurred') or run.get('run_type', 'iteration') != 'iteration':
            continue
        name = run.get('run_name', run.get('name', ''))
        matched = [key for key, pattern in patterns.items() if pattern.search(name)]
        if len(matched) == 1 and matched[0] not in order:
            order.append(matched[0])
    missing = [key for key in keys if key not in order]
    if missing:
        raise NcuError(f'{source}: under ncu the binary ran no (successful) benchmark for '
                       f'{", ".join(missing)}; was it skipped or did it fail there?')
    return order


RANGE_LINE = re.compile(r'bench: profile range (\d+) is (\S+)')


def ranges_named(stderr_lines, keys, source):
    """The keys in range order from the harness's own account on standard error ("bench: profile
    range <k> is <benchmark>"), or None where it printed none (a harness before it)."""
    named = [(int(m.group(1)), m.group(2)) for m in map(RANGE_LINE.fullmatch, stderr_lines) if m]
    if not named:
        return None
    patterns = {key: re.compile(benchmark_filter(key)) for key in keys}
    order = []
    for index, name in sorted(named):
        matched = [key for key, pattern in patterns.items() if pattern.search(name)]
        if len(matched) != 1:
            raise NcuError(f'{source}: profile range {index} is {name}, which is not exactly one key '
                           'of the profile: list')
        order.append(matched[0])
    return order


def read_benchmark_out(path, source):
    try:
        return json.loads(Path(path).read_text(encoding='utf-8', errors='replace'))
    except (OSError, json.JSONDecodeError, RecursionError) as error:  # RecursionError: nested too deeply
        raise NcuError(f'{source}: the benchmark binary wrote no readable --benchmark_out under ncu ({error})')


# ---------------------------------------------------------------------------------------------
# make measure's hook

def profile_chapter(root, binary, keys, results, where):
    """Profiles each key of a chapter's `profile:` list (where: 'chapters/x.md:LINE' of that list)
    and merges the counters into results[key]. The record's "profiler" entry, or None."""
    if not keys:
        return None
    if not isinstance(keys, list) or not all(isinstance(k, str) and k for k in keys):
        raise NcuError(f'{where}: profile: must be a flow list of result keys, '
                       'like ["reduce/v1_naive@268435456"]')
    if binary is None:
        raise NcuError(f'{where}: profile: names results, but the chapter has no benchmark binary')
    for key in keys:
        if key not in results:
            near = ', '.join(k for k in results if k.split('@')[0] == key.split('@')[0]) or 'none'
            raise NcuError(f'{where}: profile: names {key}, which is not among the results '
                           f'(write the full arguments, no 2^n; recorded under that name: {near})')
    ncu = find_ncu()
    if ncu is None:
        print('measure: no ncu found: timings only', flush=True)
        return None
    metrics_file = Path(root) / METRICS_FILE
    whole = read_metric_file(metrics_file)
    families = sorted({key.split('/')[0] for key in keys})
    metrics = metrics_for(whole, set().union(*(quantities_read(root, f) for f in families)))
    asked = list(metrics)
    started = time.monotonic()
    print(f'measure: ncu, one process for {len(keys)} result(s), {len(metrics)} of the '
          f'{len(whole)} metrics (those feeding what the book reads of {", ".join(families)})',
          flush=True)
    with tempfile.TemporaryDirectory(prefix='ncu-') as scratch:
        benchmark_out = Path(scratch) / 'profiled.json'
        source = f'ncu output for {binary}'
        iterations = None
        refused = []
        ways = [True, False]  # by NVTX range; else by the marker kernel
        while ways:
            by_range = ways[0]
            said = []
            try:
                output = run_profiled(ncu_command(ncu, binary, metrics, keys, benchmark_out, by_range),
                                      where, timeout=300 + 60 * len(keys), stderr_lines=said)
                kernels = parse_metrics_csv(output, source)
                order = ranges_named([line.strip() for line in said], keys, where)
                if order is None:
                    order = keys if len(keys) == 1 else \
                        run_order(keys, read_benchmark_out(benchmark_out, where), where)
                iterations = split_by_range(kernels, order, source) if by_range else \
                    split_at_markers(kernels, source)
                why = 'its CSV names no NVTX range'
            except NcuError as error:
                named = refused_metrics(str(error), metrics)
                if named and len(named) < len(metrics):  # a name this ncu or GPU does not know
                    print(f'measure: WARNING: {source}: ncu refused {", ".join(named)} '
                          f'({METRICS_FILE}); profiling again without', flush=True)
                    refused += named
                    metrics = [m for m in metrics if m not in named]
                    continue
                if not by_range:
                    raise
                why = str(error)
            if iterations is not None:
                break
            ways.pop(0)
            print(f'measure: {source}: profiling by NVTX range failed ({why}); profiling again with the '
                  'marker kernel', flush=True)
    if len(iterations) != len(order):
        raise NcuError(f'{where}: ncu saw {len(iterations)} profiled iteration(s), the binary ran '
                       f'{len(order)} profiled benchmark(s) ({", ".join(order)}); they must pair one to one')
    absent = [m for m in metrics if not any(m in k['metrics'] for its in iterations for k in its)]
    if absent and len(absent) < len(metrics):  # asked for, and given for no kernel at all
        print(f'measure: WARNING: {source}: ncu gave no value for {", ".join(absent)} '
              f'({METRICS_FILE}); recorded without', flush=True)
        refused += absent
        metrics = [m for m in metrics if m not in absent]
    for key, kernels in zip(order, iterations):
        counters = combine(kernels, metrics, f'ncu output for {key}')
        clash = sorted(set(counters) & set(results[key]))
        if clash:
            raise NcuError(f'{where}: {key}: the benchmark already records {", ".join(clash)}; '
                           'rename its counter, the profiler owns these names')
        results[key].update(counters)
    print(f'measure: ncu took {time.monotonic() - started:.1f} s for {len(keys)} result(s)', flush=True)
    profiler = {'tool': 'ncu', 'version': ncu_version(ncu), 'clock_control': 'none',
                'metrics_file': METRICS_FILE, 'metrics': asked}
    if refused:
        profiler['metrics_refused'] = refused
    return profiler


def refused_metrics(message, metrics):
    """The metrics of the list that ncu's error lines ('==ERROR==' ...) in message name, by full
    name or by base name (before the first '.'): those this ncu or this GPU does not have."""
    errors = ' '.join(part for part in re.split(r'\s*\|\s*|\n', message) if '==ERROR==' in part)
    if not errors:
        return []
    words = set(re.findall(r'[A-Za-z0-9_.]+', errors))
    return [m for m in metrics if m in words or m.split('.')[0] in words]
