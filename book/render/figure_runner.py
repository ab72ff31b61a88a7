"""Figure scripts (figures/plots/*.py, figures/roofline.py) run as `python3 SCRIPT ARG...` runs
them, each in a child forked from this process once Matplotlib and NumPy are imported: their
import is most of a small figure's time (about 0.8 s of CPU of a draw's 1), and it is the same in
every child. book/render/main.py draws the book's plots through the command line below, one
process for all of them; the render tests call run_script for each draw they check.

    book/render/figure_runner.py JOBS ARGS_JSON SCRIPT...
runs each SCRIPT with the arguments ARGS_JSON lists, JOBS at a time; exit 0 where every one
exited 0, else 1 and, for each that failed, 'SCRIPT failed (exit N):' and its stderr on stderr.

What a script meets is what a fresh interpreter gives it: globals of its own (run as '__main__',
its __file__ the script), sys.argv, sys.path as `python3 SCRIPT` starts with (the script's folder
first), its stdout and stderr into files of their own (descriptors 1 and 2, so what the C
libraries print is caught too), and no module of the repository imported: the book's own modules
(plotlib, roofline_draw, ...) are imported by the script anew, with their side effects (plotlib's
Agg backend and SVG hash salt). Its exit status is the interpreter's: 0, the code of a SystemExit
(1 and the message, for a message), or 1 and the traceback for an exception. Fork from a process
with one thread only (this command, a test): a child of a threaded process may inherit a lock
another thread held."""
import json
import os
import runpy
import subprocess
import sys
import tempfile
import traceback

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_fresh_path = None


def _preload():
    """Matplotlib (its Agg backend, as plotlib chooses) and NumPy, once; and the sys.path a fresh
    interpreter starts with, less its first entry (the script's folder)."""
    global _fresh_path
    if _fresh_path is None:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot  # noqa: F401
        import numpy  # noqa: F401
        done = subprocess.run([sys.executable, '-c', 'import json, sys; print(json.dumps(sys.path[1:]))'],
                              capture_output=True, text=True, check=True)
        _fresh_path = json.loads(done.stdout)


def _child(script, args, out, err):
    """In the forked child: never returns."""
    code = 1
    try:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        for name, module in list(sys.modules.items()):
            if name != '__main__' and (getattr(module, '__file__', None) or '').startswith(REPO + os.sep):
                del sys.modules[name]
        sys.argv = [script] + list(args)
        sys.path[:] = [os.path.dirname(os.path.abspath(script))] + _fresh_path
        try:
            runpy.run_path(script, run_name='__main__')
            code = 0
        except SystemExit as e:
            if e.code is None or isinstance(e.code, int):
                code = e.code or 0
            else:
                print(e.code, file=sys.stderr)
                code = 1
        except BaseException:   # noqa: BLE001 (as the interpreter does: the traceback, exit 1)
            traceback.print_exc()
            code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def _start(script, args):
    """(pid, stdout file, stderr file) of a child running script."""
    _preload()
    sys.stdout.flush()
    sys.stderr.flush()
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        _child(script, args, out, err)
    return pid, out, err


def _finish(script, args, status, out, err):
    with out, err:
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess([sys.executable, script] + list(args), os.waitstatus_to_exitcode(status),
                                           out.read().decode('utf-8', 'replace'), err.read().decode('utf-8', 'replace'))


def run_script(script, *args):
    """subprocess.run([python3, script, *args], capture_output=True, text=True), forked."""
    pid, out, err = _start(script, args)
    _, status = os.waitpid(pid, 0)
    return _finish(script, args, status, out, err)


def run_scripts(scripts, args, jobs):
    """{script: CompletedProcess} for each script run with args, jobs at a time."""
    pending, running, done = list(scripts), {}, {}
    while pending or running:
        while pending and len(running) < max(1, jobs):
            script = pending.pop(0)
            pid, out, err = _start(script, args)
            running[pid] = (script, out, err)
        pid, status = os.wait()
        if pid in running:
            script, out, err = running.pop(pid)
            done[script] = _finish(script, args, status, out, err)
    return done


def main(argv):
    jobs, args, scripts = int(argv[0]), json.loads(argv[1]), argv[2:]
    failed = 0
    for script, result in run_scripts(scripts, args, jobs).items():
        if result.returncode != 0:
            failed += 1
            print('%s failed (exit %d):\n%s' % (os.path.relpath(script, REPO), result.returncode, result.stderr.strip()),
                  file=sys.stderr)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
