#!/usr/bin/python3
"""book/render/figure_runner.py, which the renderer draws the plots with and the figure tests run the
figure scripts with: a script meets what `python3 script args...` gives it, its exit status,
stdout and stderr come back as subprocess.run's would, and the command line names each script
that failed."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                'book', 'render'))
from figure_runner import REPO, run_script  # noqa: E402  (book/render/figure_runner.py)

RUNNER = os.path.join(REPO, 'book', 'render', 'figure_runner.py')

SCRIPT = r'''
import os, sys
print('argv', sys.argv[1:])
print('path0', sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
print('name', __name__)
print('repo modules', sorted(n for n, m in sys.modules.items()
                             if (getattr(m, '__file__', None) or '').startswith(%r)))
os.write(2, b'from the C level\n')
what = sys.argv[1]
if what == 'raise':
    raise ValueError('a bad record')
if what == 'message':
    sys.exit('a message')
sys.exit(int(what))
''' % (REPO + os.sep)


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='script-runner.')
        self.addCleanup(shutil.rmtree, self.work)
        self.script = os.path.join(self.work, 'figure.py')
        with open(self.script, 'w') as f:
            f.write(SCRIPT)
        sys.path.insert(0, os.path.join(REPO, 'figures'))   # as a test that imports the figures' code does
        self.addCleanup(sys.path.remove, os.path.join(REPO, 'figures'))
        import plotlib  # noqa: F401  (a module of the repository, imported here: the script must not find it)

    def test_a_script_meets_a_fresh_interpreter(self):
        done = run_script(self.script, '0', 'two words')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("argv ['0', 'two words']", done.stdout)
        self.assertIn('path0 True', done.stdout)
        self.assertIn('name __main__', done.stdout)
        self.assertIn('repo modules []', done.stdout)
        self.assertEqual(done.stderr, 'from the C level\n')

    def test_exit_codes_messages_and_tracebacks_are_the_interpreters(self):
        self.assertEqual(run_script(self.script, '2').returncode, 2)
        done = run_script(self.script, 'message')
        self.assertEqual((done.returncode, done.stderr), (1, 'from the C level\na message\n'))
        done = run_script(self.script, 'raise')
        self.assertEqual(done.returncode, 1)
        self.assertIn('Traceback', done.stderr)
        self.assertIn('ValueError: a bad record', done.stderr)

    def test_the_command_runs_each_script_and_names_each_that_failed(self):
        scripts = []
        for name, what in (('zero.py', '0'), ('two.py', '2'), ('bad.py', 'raise')):
            scripts.append(os.path.join(self.work, name))
            with open(scripts[-1], 'w') as f:
                f.write(SCRIPT.replace("what = sys.argv[1]", "what = %r" % what))
        done = subprocess.run([sys.executable, RUNNER, '2', json.dumps(['x', 'y'])] + scripts,
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 1)
        self.assertNotIn('zero.py', done.stderr)
        self.assertIn('two.py failed (exit 2):\nfrom the C level', done.stderr)
        self.assertIn('bad.py failed (exit 1):', done.stderr)
        self.assertIn('ValueError: a bad record', done.stderr)
        done = subprocess.run([sys.executable, RUNNER, '2', json.dumps(['x'])] + scripts[:1], capture_output=True, text=True)
        self.assertEqual((done.returncode, done.stderr), (0, ''))


if __name__ == '__main__':
    unittest.main()
