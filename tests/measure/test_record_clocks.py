"""The records' two clocks agree (issue 25, appendix A): for the profiled results of records made by
the in-window harness, the SM clock of its timed windows (sm_clock_mhz, the median) is within
CLOCK_AGREEMENT of the clock Nsight Compute saw while counting it (sm_clock, Hz), for at least
AGREEING_SHARE of them, and within CLOCK_BOUND for every one.

Why two bounds, not one: the two instruments read different runs of the kernel, a timed burst of
samples and ncu's replays of one launch. On the H200's first whole-book record (2026-12-01), 88 of
94 profiled results agreed within 3%. Of the six that did not, reuse/sweep_ca@8388608 (a 78 us
kernel) is one where ncu read a clock above the chip's maximum (2089 MHz against 1980), so ncu's
reading is the wrong one there; the five others ran faster in the timed windows than under ncu's
replays, by 3.1-4.3%: histogram/v4_lane_private@268435456x256, method/gemv_v3_float4@16384x16384,
and 3.2b's v3_persistent, v6_tma_store and the cuBLASLt bias-GELU peer at 4096^3 (why is not
measured). A gap past CLOCK_BOUND would
mean that one of the two instruments is broken.

Records made before the harness stamped its windows have no `clock_in_window` quantity; their
sm_clock_mhz is a clock read after the work, and they are left out (the test says how many).
A result whose window was not seen (clock_in_window 0) is left out too."""
import json
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEASUREMENTS = ROOT / 'book' / 'measurements'
CLOCK_AGREEMENT = 0.03
AGREEING_SHARE = 0.9
CLOCK_BOUND = 0.06


def disagreements(record, source, bound=CLOCK_AGREEMENT):
    """['file: key: ...'] for every profiled, in-window result whose two clocks differ by more
    than `bound`; and the number of results checked."""
    found, checked = [], 0
    for key, quantities in record.get('results', {}).items():
        if not all(q in quantities for q in ('sm_clock', 'sm_clock_mhz', 'clock_in_window')):
            continue
        if quantities['clock_in_window']['median'] < 1:
            continue
        checked += 1
        window = quantities['sm_clock_mhz']['median'] * 1e6
        profiled = quantities['sm_clock']['median']
        if profiled <= 0 or abs(window / profiled - 1) > bound:
            found.append(f'{source}: {key}: the timed windows ran at {window / 1e6:.0f} MHz, '
                         f'Nsight Compute saw {profiled / 1e6:.0f} MHz (more than '
                         f'{bound:.0%} apart): re-measure, and if it stays, find '
                         'which clock is wrong before any sentence reasons per clock')
    return found, checked


class RecordClocks(unittest.TestCase):
    def records(self):
        for path in sorted(MEASUREMENTS.glob('*/*.json')):
            if path.name != 'machine.json':
                yield path.relative_to(ROOT), json.loads(path.read_text(encoding='utf-8'))

    def test_window_and_profiler_clocks_agree(self):
        near, far, checked = [], [], 0
        for source, record in self.records():
            more, n = disagreements(record, source)
            near += more
            far += disagreements(record, source, CLOCK_BOUND)[0]
            checked += n
        if checked == 0:
            self.skipTest('no record made by the in-window harness has profiled results yet')
        self.assertEqual(far, [], '\n'.join(far))
        self.assertLessEqual(len(near), (1 - AGREEING_SHARE) * checked,
                             f'{len(near)} of {checked} profiled results are more than '
                             f'{CLOCK_AGREEMENT:.0%} apart:\n' + '\n'.join(near))

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
