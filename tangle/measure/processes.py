"""make measure's child processes: the test and benchmark binaries, the peer scripts and ncu.

Each child runs in a process group of its own, with its standard input closed, an environment
without the variables that change what a benchmark or test runs (BENCHMARK_*, GTEST_*), and a time
limit. At the limit, or when make measure stops (an error, Ctrl-C, SIGTERM), the whole group is
stopped: SIGTERM, then SIGKILL after GRACE_SECONDS. Its standard error goes to an unnamed temporary
file, of which only the last TAIL_BYTES are read (a binary may print without bound), and any
output is decoded with undecodable bytes replaced: no output can crash the run.
"""
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

# Google Benchmark reads its flags from BENCHMARK_<FLAG> (BENCHMARK_FILTER, BENCHMARK_REPETITIONS,
# ...) and GoogleTest from GTEST_<FLAG>: one left exported would cut or change every chapter's
# record (tools.md MS01).
CLEARED_PREFIXES = ('BENCHMARK_', 'GTEST_')
TAIL_BYTES = 64 * 1024
GRACE_SECONDS = 5

_live = set()  # the Children running now, in any thread
_lock = threading.Lock()
_stopping = threading.Event()  # set by a signal: no new child starts
_told_cleared = []


class CannotStart(OSError):
    """A child that could not be started (a bad interpreter line, a file that is not a program):
    its message names the command."""


class Stopped(KeyboardInterrupt):
    """make measure was told to stop (Ctrl-C, SIGTERM); `signal` is the signal's number."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signal = signum


def child_environment(extra=None):
    """os.environ without BENCHMARK_* and GTEST_* (said once, naming them), plus `extra`."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(CLEARED_PREFIXES)}
    cleared = sorted(set(os.environ) - set(environment))
    if cleared and not _told_cleared:
        _told_cleared.append(cleared)
        print(f'measure: note: {", ".join(cleared)} cleared from the environment of the binaries '
              'it runs: a measure runs every benchmark and test as the chapters register them',
              file=sys.stderr, flush=True)
    environment.update(extra or {})
    return environment


def stop_group(process, grace=GRACE_SECONDS):
    """Stops a child's process group: SIGTERM, then SIGKILL to whatever is left after `grace`."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        return
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


class Child:
    """A running child process (subprocess.Popen's arguments) with a time limit, used as a `with`
    block: leaving it stops the child's group unless it ended by itself, and waits for it.
    `timed_out` says whether the limit stopped it."""

    def __init__(self, command, timeout, env=None, **popen):
        if _stopping.is_set():
            raise Stopped(signal.SIGTERM)
        self.timeout = timeout
        self.timed_out = False
        popen.setdefault('stdin', subprocess.DEVNULL)
        try:
            self.process = subprocess.Popen(command, env=child_environment() if env is None else env,
                                            start_new_session=True, **popen)
        except OSError as error:
            raise CannotStart(error.errno, f'{command[0]}: cannot run it ({error.strerror})')
        with _lock:
            _live.add(self)
        self._timer = threading.Timer(timeout, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def _expire(self):
        if self.process.poll() is None:  # not one that ended just now by itself
            self.timed_out = True
            stop_group(self.process)

    def __enter__(self):
        return self

    def __exit__(self, kind, error, trace):
        self._timer.cancel()
        if self.process.poll() is None or kind is not None:
            stop_group(self.process)
        self.process.wait()
        with _lock:
            _live.discard(self)
        return False


def read_tail(handle, limit=TAIL_BYTES):
    """(the last `limit` bytes of an open binary file as text, the file's whole size). A tail cut
    mid-line starts at its next line."""
    size = handle.seek(0, os.SEEK_END)
    handle.seek(max(0, size - limit))
    data = handle.read()
    if size > limit and b'\n' in data:
        data = data[data.index(b'\n') + 1:]
    return data.decode('utf-8', errors='replace'), size


def run(command, timeout, env=None, capture=True):
    """Runs a command to its end or its time limit: a CompletedProcess whose stdout is the whole
    standard output as text (None when not captured: it goes to ours) and stderr the last
    TAIL_BYTES of its standard error, with `timed_out` and `stderr_size` (bytes) added."""
    with tempfile.TemporaryFile() as errors:
        with Child(command, timeout, env=env, stdout=subprocess.PIPE if capture else None,
                   stderr=errors) as child:
            out, _ = child.process.communicate()
        stderr, size = read_tail(errors)
    done = subprocess.CompletedProcess(
        command, child.process.returncode,
        out.decode('utf-8', errors='replace') if out is not None else None, stderr)
    done.timed_out, done.stderr_size = child.timed_out, size
    return done


def stop_all():
    """Stops every running child: SIGTERM to each group now, SIGKILL after GRACE_SECONDS (in the
    background: a signal handler must return); no child starts after this."""
    _stopping.set()
    with _lock:
        children = list(_live)
    for child in children:
        try:
            os.killpg(child.process.pid, signal.SIGTERM)
        except (ProcessLookupError, PermissionError):
            pass

    def kill_the_rest():
        time.sleep(GRACE_SECONDS)
        for child in children:
            if child.process.poll() is None:
                try:
                    os.killpg(child.process.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
    threading.Thread(target=kill_the_rest, daemon=True).start()


class stopping_children_on_signals:
    """A `with` block in which SIGINT (Ctrl-C) and SIGTERM stop every child and raise Stopped in the
    main thread, so that each `with` around a child, a temporary folder or the records' writing
    cleans up as it unwinds. The previous handlers come back at its end."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __enter__(self):
        self.previous = {}
        _stopping.clear()
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self.previous[signum] = signal.signal(signum, self._handle)
        return self

    @staticmethod
    def _handle(signum, frame):
        stop_all()
        raise Stopped(signum)

    def __exit__(self, kind, error, trace):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        _stopping.clear()
        return False
