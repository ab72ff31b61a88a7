"""src/bench/ballast.py (appendix A, "Fitting the device") on the CPU: its sizes, and how it takes
memory from a fake CUDA runtime that gives pieces of at most a set size."""
import importlib.util
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[3] / 'src' / 'bench' / 'ballast.py'
spec = importlib.util.spec_from_file_location('ballast', SCRIPT)
ballast = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ballast)

GiB = 2**30


class FakeRuntime:
    """cudaMemGetInfo and cudaMalloc over `free` bytes; an allocation above `largest` fails."""

    def __init__(self, free, total, largest):
        self.free, self.total, self.largest = free, total, largest

    def cudaMemGetInfo(self, free, total):
        free._obj.value, total._obj.value = self.free, self.total
        return 0

    def cudaMalloc(self, pointer, size):
        if size.value > min(self.largest, self.free):
            return 2  # cudaErrorMemoryAllocation
        self.free -= size.value
        return 0


class Ballast(unittest.TestCase):
    def test_sizes_by_the_harness_rule(self):
        self.assertEqual(ballast.parse_size('24GiB'), 24 * GiB)
        self.assertEqual(ballast.parse_size('12G'), 12 * GiB)
        self.assertEqual(ballast.parse_size('512MiB'), GiB // 2)
        self.assertEqual(ballast.parse_size('1.5GiB'), 3 * GiB // 2)
        for bad in ('', 'lots', '-1GiB', '24 parsecs'):
            with self.assertRaises(ValueError):
                ballast.parse_size(bad)

    def test_leaves_what_is_asked_for(self):
        runtime = FakeRuntime(free=139 * GiB + 123, total=141 * GiB, largest=GiB)
        held, free, total = ballast.hold(runtime, 24 * GiB)
        self.assertLess(free - 24 * GiB, 2**20)
        self.assertGreaterEqual(free, 24 * GiB)
        self.assertEqual(held, 139 * GiB + 123 - free)
        self.assertEqual(total, 141 * GiB)

    def test_takes_smaller_pieces_when_large_ones_fail(self):
        runtime = FakeRuntime(free=8 * GiB, total=16 * GiB, largest=GiB // 8)
        held, free, _ = ballast.hold(runtime, 2 * GiB)
        self.assertEqual(held, 6 * GiB)
        self.assertEqual(free, 2 * GiB)

    def test_nothing_to_take(self):
        runtime = FakeRuntime(free=10 * GiB, total=16 * GiB, largest=GiB)
        self.assertEqual(ballast.hold(runtime, 12 * GiB), (0, 10 * GiB, 16 * GiB))


if __name__ == '__main__':
    unittest.main()
