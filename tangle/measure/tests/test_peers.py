"""Unit tests of tangle/measure/measure.py's peers: hook (scripts that measure someone else's kernels and
print Google Benchmark JSON). The scripts here are tiny stand-ins: no GPU, no PyTorch needed."""
import io
import json
import sys
import tempfile
import textwrap
import unittest
from contextlib import redirect_stderr
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / 'fixtures' / 'peers' / 'sdpa_like.json'


def write_script(folder, name, body):
    """A peer script where peers live, under <root>/src/ (a chapter tangles it)."""
    path = Path(folder) / 'src' / 'peer' / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(body), encoding='utf-8')
    return f'src/peer/{name}'


class Peers(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = self.folder.name

    def tearDown(self):
        self.folder.cleanup()

    def test_a_script_printing_benchmark_json_adds_its_results(self):
        script = write_script(self.root, 'peer.py', f'''
            import sys
            sys.stdout.write(open({str(FIXTURE)!r}).read())
        ''')
        results = {'attention/v2_flash@4x16x4096x128x0': {}}
        contexts = measure.measure_peers(self.root, [script], results, 'ch.md:5')
        key = 'attention/peer_torch_flash@4x16x4096x128x0'
        self.assertIn(key, results)
        self.assertAlmostEqual(results[key]['time']['median'], 1100e-6)
        self.assertEqual(results[key]['time']['n'], 3)
        self.assertEqual(results[key]['flop_rate']['unit'], 'FLOP/s')
        self.assertEqual(contexts, {script: {'torch': '2.11.0'}})

    def test_a_script_without_torch_is_skipped_with_one_line(self):
        script = write_script(self.root, 'peer.py', '''
            import sys
            print('no torch: No module named torch', file=sys.stderr)
            sys.exit(77)
        ''')
        results = {}
        said = io.StringIO()
        with redirect_stderr(said):
            contexts = measure.measure_peers(self.root, [script], results, 'ch.md:5')
        self.assertEqual(results, {})
        self.assertEqual(contexts, {script: {'status': 'skipped',
                                             'reason': 'no torch: No module named torch'}})
        lines = said.getvalue().strip().split('\n')
        self.assertEqual(len(lines), 1)
        self.assertIn('skipped: no torch', lines[0])

    def test_a_failing_script_is_recorded_failed_and_the_chapter_goes_on(self):
        script = write_script(self.root, 'peer.py', '''
            import sys
            print('boom', file=sys.stderr)
            sys.exit(3)
        ''')
        with redirect_stderr(io.StringIO()):
            contexts = measure.measure_peers(self.root, [script], {}, 'ch.md:5')
        self.assertEqual(contexts[script]['status'], 'failed')
        self.assertIn('status 3 (boom)', contexts[script]['reason'])

    def test_output_that_is_not_json_is_recorded_failed(self):
        script = write_script(self.root, 'peer.py', 'print("hello")\n')
        with redirect_stderr(io.StringIO()):
            contexts = measure.measure_peers(self.root, [script], {}, 'ch.md:5')
        self.assertEqual(contexts[script]['status'], 'failed')
        self.assertIn('not JSON', contexts[script]['reason'])

    def test_a_key_the_chapter_gives_too_is_an_error(self):
        script = write_script(self.root, 'peer.py', f'''
            import sys
            sys.stdout.write(open({str(FIXTURE)!r}).read())
        ''')
        results = {'attention/peer_torch_flash@4x16x4096x128x0': {}}
        with self.assertRaisesRegex(measure.MeasureError, 'rename one'):
            measure.measure_peers(self.root, [script], results, 'ch.md:5')

    def test_a_missing_script_and_a_bad_list_name_the_chapter_line(self):
        with self.assertRaisesRegex(measure.MeasureError, 'ch.md:5: peers: names src/nope.py'):
            measure.measure_peers(self.root, ['src/nope.py'], {}, 'ch.md:5')
        with self.assertRaisesRegex(measure.MeasureError, 'ch.md:5: peers: must be a list'):
            measure.measure_peers(self.root, 'nope.py', {}, 'ch.md:5')

    def test_no_peers_is_nothing(self):
        self.assertEqual(measure.measure_peers(self.root, None, {}, 'ch.md:1'), {})

    def test_the_front_matter_list_parses(self):
        text = '---\nid: "4.3"\nsrc: attention\npeers: ["src/attention/sdpa_peer.py"]\n---\n'
        front = measure.parse_front_matter(text, 'ch.md')
        self.assertEqual(front['peers'], ['src/attention/sdpa_peer.py'])
        self.assertEqual(front.lines['peers'], 4)


if __name__ == '__main__':
    unittest.main()
