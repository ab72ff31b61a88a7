"""The records' two clocks agree (issue 25, appendix A): for every profiled result of a record made
by the in-window harness, the SM clock of its timed windows (sm_clock_mhz, the median) is within
CLOCK_AGREEMENT of the clock Nsight Compute saw while counting it (sm_clock, Hz).

Records made before the harness stamped its windows have no `clock_in_window` quantity; their
sm_clock_mhz is a clock read after the work, and they are left out (the test says how many).
A result whose window was not seen (clock_in_window 0) is left out too."""
import json
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEASUREMENTS = ROOT / 'book' / 'measurements'
CLOCK_AGREEMENT = 0.03


def disagreements(record, source):
    """['file: key: ...'] for every profiled, in-window result whose two clocks differ by more
    than CLOCK_AGREEMENT; and the number of results checked."""
    found, checked = [], 0
    for key, quantities in record.get('results', {}).items():
        if not all(q in quantities for q in ('sm_clock', 'sm_clock_mhz', 'clock_in_window')):
            continue
        if quantities['clock_in_window']['median'] < 1:
            continue
        checked += 1
        window = quantities['sm_clock_mhz']['median'] * 1e6
        profiled = quantities['sm_clock']['median']
        if profiled <= 0 or abs(window / profiled - 1) > CLOCK_AGREEMENT:
            found.append(f'{source}: {key}: the timed windows ran at {window / 1e6:.0f} MHz, '
                         f'Nsight Compute saw {profiled / 1e6:.0f} MHz (more than '
                         f'{CLOCK_AGREEMENT:.0%} apart): re-measure, and if it stays, find '
                         'which clock is wrong before any sentence reasons per clock')
    return found, checked


class RecordClocks(unittest.TestCase):
    def test_window_and_profiler_clocks_agree(self):
        found, checked = [], 0
        for path in sorted(MEASUREMENTS.glob('*/*.json')):
            if path.name == 'machine.json':
                continue
            record = json.loads(path.read_text(encoding='utf-8'))
            more, n = disagreements(record, path.relative_to(ROOT))
            found += more
            checked += n
        self.assertEqual(found, [], '\n'.join(found))
        if checked == 0:
            self.skipTest('no record made by the in-window harness has profiled results yet')

    def test_the_check_itself(self):
        def result(window_mhz, profiled_hz, in_window=1):
            return {'sm_clock_mhz': {'median': window_mhz}, 'sm_clock': {'median': profiled_hz},
                    'clock_in_window': {'median': in_window}}
        record = {'results': {'a@1': result(1600, 1.59e9), 'b@1': result(1980, 1.593e9),
                              'c@1': result(1980, 1.593e9, in_window=0),
                              'd@1': {'sm_clock_mhz': {'median': 1980}, 'sm_clock': {'median': 1.6e9}}}}
        found, checked = disagreements(record, 'x.json')
        self.assertEqual(checked, 2)
        self.assertEqual(len(found), 1)
        self.assertIn('x.json: b@1: the timed windows ran at 1980 MHz, Nsight Compute saw 1593 MHz',
                      found[0])


if __name__ == '__main__':
    unittest.main()
