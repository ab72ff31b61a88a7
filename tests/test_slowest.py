#!/usr/bin/env python3
"""tests/slowest.py reads each test's time from a ctest log, not a time a test printed itself."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import slowest  # noqa: E402

LOG = '''Start testing: Dec 05 18:35 UTC
----------------------------------------------------------
2/3 Testing: b.x
2/3 Test: b.x
Command: "/usr/bin/sleep" "0.1"
Output:
----------------------------------------------------------
<end of output>
Test time =   0.11 sec
----------------------------------------------------------
Test Passed.
----------------------------------------------------------

3/3 Testing: c
3/3 Test: c
Command: "/usr/bin/sh" "-c" "echo 'Test time = 99 sec'"
Output:
----------------------------------------------------------
Test time = 99 sec
<end of output>
Test time =   0.21 sec
----------------------------------------------------------
Test Passed.
----------------------------------------------------------

1/3 Testing: a
1/3 Test: a
Command: "/usr/bin/sleep" "42"
Output:
----------------------------------------------------------
<end of output>
Test time =  42.31 sec
----------------------------------------------------------
Test Failed.
End testing: Dec 05 18:36 UTC
'''


class Times(unittest.TestCase):
    def test_each_test_has_its_own_time(self):
        self.assertEqual(slowest.times(LOG), {'a': 42.31, 'b.x': 0.11, 'c': 0.21})

    def test_an_empty_log_has_no_times(self):
        self.assertEqual(slowest.times('Start testing: Dec 05 18:35 UTC\nEnd testing: Dec 05 18:35 UTC\n'), {})


if __name__ == '__main__':
    unittest.main()
