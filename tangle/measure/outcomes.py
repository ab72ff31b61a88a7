"""What became of each benchmark that did not give a time: skipped (the device lacks the memory or
the feature) or failed (a CUDA error, a failed test of its kernel, a crash), with its reason.

A record keeps such a result as {"status": "skipped" | "failed", "reason": "..."} under its key
(book/CONVENTIONS.md, "Skipped and failed results"); a measured result carries no "status".
The harness marks a skip as Google Benchmark's error with the prefix SKIP_PREFIX (Debian's
Google Benchmark 1.7.1 has no SkipWithMessage), so every other error is a failure.

Also here: reading a benchmark binary's JSON that a crash left unfinished, listing a binary's
benchmarks, the filter that runs the rest of them, and the table make measure prints at the end.
"""
import json
import re
import sys

import processes

SKIP_PREFIX = 'skipped: '


def outcome(status, reason):
    """A result that was not measured: {"status": status, "reason": reason}."""
    return {'status': status, 'reason': reason.strip() or 'no reason given'}


def from_error_message(message):
    """The outcome of a run Google Benchmark marked error_occurred, by its message's prefix."""
    message = message or ''
    if message.startswith(SKIP_PREFIX):
        return outcome('skipped', message[len(SKIP_PREFIX):])
    return outcome('failed', message)


def is_outcome(result):
    """True for a skipped or failed result, False for a measured one."""
    return isinstance(result, dict) and 'status' in result


def measured_only(results):
    """The results that carry numbers, without the skipped and failed ones."""
    return {key: value for key, value in results.items() if not is_outcome(value)}


# ---------------------------------------------------------------------------------------------
# A crash leaves the JSON unfinished: keep every run it had written

def read_partial_benchmark_json(text):
    """Google Benchmark JSON, whole or cut off anywhere: {"context": ..., "benchmarks": [every run
    written in full]}. The harness's reporter flushes after each benchmark (gbench_main.cu), so a
    crash loses only the benchmark that was running."""
    try:
        data = json.loads(text)
        if isinstance(data, dict):
            return data
    except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deeply to read whole
        pass
    decoder = json.JSONDecoder()
    data = {'context': {}, 'benchmarks': []}
    context = re.search(r'"context"\s*:\s*', text)
    if context:
        try:
            data['context'], _ = decoder.raw_decode(text, context.end())
        except (json.JSONDecodeError, RecursionError):
            pass
    runs = re.search(r'"benchmarks"\s*:\s*\[', text)
    position = runs.end() if runs else len(text)
    while position < len(text):
        while position < len(text) and text[position] in ' \t\r\n,':
            position += 1
        try:
            run, position = decoder.raw_decode(text, position)
        except (json.JSONDecodeError, RecursionError):
            break  # the run that was being written when the binary died (or one nested too deeply)
        if isinstance(run, dict):
            data['benchmarks'].append(run)
    return data


def list_benchmarks(binary, timeout=1800):
    """The full names of a benchmark binary's benchmarks, in the order it runs them; a
    RuntimeError naming the binary when it cannot list them (within `timeout` seconds)."""
    try:
        completed = processes.run([str(binary), '--benchmark_list_tests=true'], timeout)
    except processes.CannotStart as error:
        raise RuntimeError(error.strerror)
    if completed.timed_out:
        raise RuntimeError(f'{binary}: listing its benchmarks took over {timeout} s; stopped')
    if completed.returncode != 0:
        last = (completed.stderr.strip().split('\n') or [''])[-1]
        raise RuntimeError(f'{binary}: cannot list its benchmarks (exit status '
                           f'{completed.returncode}: {last})')
    return [line.strip() for line in completed.stdout.split('\n') if line.strip()]


POSIX_SPECIAL = set('.[]()*+?{}|^$\\')


def exact_filter(names):
    """A --benchmark_filter that selects exactly these full names (an extended regular expression:
    only its special characters are escaped, since a backslash before any other is undefined)."""
    escaped = [''.join('\\' + c if c in POSIX_SPECIAL else c for c in name) for name in names]
    return '^(' + '|'.join(escaped) + ')$'


def crash_message(returncode, stderr_text):
    """The error message of the benchmark a binary died in: the exception's own message when the
    C++ runtime printed one (std::terminate's "what():  ...") and it marks a skip (an allocation
    that did not fit, thrown outside time_gpu: "skipped: needs ..."); otherwise its exit status or
    signal, and that message or the last line of stderr."""
    status = (f'killed by signal {-returncode}' if returncode < 0
              else f'exited with status {returncode}')
    lines = [line.strip() for line in stderr_text.strip().split('\n') if line.strip()]
    said = next((line.split('what():', 1)[1].strip() for line in reversed(lines) if 'what():' in line),
                lines[-1] if lines else '')
    if said.startswith(SKIP_PREFIX):
        return said
    return f'the benchmark binary {status} while running it' + (f': {said}' if said else '')


# ---------------------------------------------------------------------------------------------
# The table at the end of make measure

def collect(chapter, results, peers=None):
    """[(chapter, key, status, reason)] of a record's skipped and failed results and peers."""
    rows = [(chapter, key, value['status'], value['reason'])
            for key, value in results.items() if is_outcome(value)]
    rows += [(chapter, f'peer {script}', value['status'], value['reason'])
             for script, value in (peers or {}).items() if is_outcome(value)]
    return rows


def print_table(rows, out=None):
    """The skipped and failed results, one a line: chapter, status, key, reason."""
    if not rows:
        return
    out = out or sys.stderr
    skipped = sum(1 for row in rows if row[2] == 'skipped')
    print(f'measure: {skipped} result(s) skipped, {len(rows) - skipped} failed '
          '(recorded as such; the book shows each with its reason):', file=out)
    width_chapter = max(len('chapter'), *(len(row[0]) for row in rows))
    width_key = max(len('result'), *(len(row[1]) for row in rows))
    print(f'  {"chapter":<{width_chapter}}  {"status":<7}  {"result":<{width_key}}  reason', file=out)
    for chapter, key, status, reason in sorted(rows, key=lambda row: (row[2], row[0], row[1])):
        print(f'  {chapter:<{width_chapter}}  {status:<7}  {key:<{width_key}}  {reason}', file=out)
