"""run_script(script, *args): a figure script (figures/plots/*.py, figures/roofline*.py) run as
`python3 script args...` runs it, in a child forked from the test's process with Matplotlib and
NumPy already imported. Their import is most of a small figure's time (about 0.8 s of CPU of each
draw; the plot tests draw about a hundred times), and it is the same in every child.

What the script meets is what a fresh interpreter gives it: globals of its own (run as
'__main__', its __file__ the script), sys.argv, sys.path as `python3 script` starts with (the
script's folder first), its stdout and stderr into pipes of their own (file descriptors 1 and 2,
so what the C libraries print is caught too), and no module of the repository imported: the
book's own modules (plotlib, roofline_draw, ...) are imported by the script anew, with their side
effects (plotlib's Agg backend and SVG hash salt). Its exit status is the interpreter's: 0, the
code of a SystemExit (1 and the message, for a message), or 1 and the traceback for an exception.
Returns a subprocess.CompletedProcess with text output, as subprocess.run(..., text=True) does."""
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
        _fresh_path = __import__('json').loads(done.stdout)


def _child(script, args, out, err):
    """In the forked child: never returns."""
    code = 1
    try:
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        for name, module in list(sys.modules.items()):
            if (getattr(module, '__file__', None) or '').startswith(REPO + os.sep):
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


def run_script(script, *args):
    _preload()
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:
            _child(script, args, out, err)
        _, status = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess([sys.executable, script] + list(args), os.waitstatus_to_exitcode(status),
                                           out.read().decode('utf-8', 'replace'), err.read().decode('utf-8', 'replace'))
