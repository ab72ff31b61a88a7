#!/usr/bin/env python3
"""The slowest tests of the last ctest run: tests/slowest.py BUILD_DIR [COUNT=10].

Reads BUILD_DIR/Testing/Temporary/LastTest.log (ctest writes it on every run; each test's block
ends in "Test time = S sec") and prints the COUNT slowest, with each one's share of the summed test
time and its TIMEOUT budget (ctest --show-only=json-v1), so a test that creeps towards its budget
shows before it fails. Exit 0 always: it reports, the budgets (TIMEOUT) enforce."""
import json
import os
import re
import subprocess
import sys

# a test's block: its name, its output, then ctest's own "<end of output>" and its time (a test that
# prints "Test time = ..." itself is not read as its time)
BLOCK = re.compile(r'^\d+/\d+ Test: (?P<name>.+?)\n.*?^<end of output>\nTest time = +(?P<seconds>[0-9.]+) sec',
                   re.S | re.M)


def times(log_text):
    """{test name: seconds} from a LastTest.log's text (a test run twice keeps its last time)."""
    return {m.group('name'): float(m.group('seconds')) for m in BLOCK.finditer(log_text)}


def budgets(build):
    """{test name: TIMEOUT in seconds} from ctest's own listing; {} where ctest cannot list. The
    listing rewrites LastTest.log, so the log is kept aside and put back."""
    log = os.path.join(build, 'Testing', 'Temporary', 'LastTest.log')
    with open(log, 'rb') as f:
        kept = f.read()
    try:
        done = subprocess.run(['ctest', '--test-dir', build, '--show-only=json-v1'], capture_output=True,
                              text=True, timeout=120)
        tests = json.loads(done.stdout)['tests']
    except (OSError, ValueError, KeyError, subprocess.TimeoutExpired):
        return {}
    finally:
        with open(log, 'wb') as f:
            f.write(kept)
    found = {}
    for test in tests:
        for prop in test.get('properties', []):
            if prop.get('name') == 'TIMEOUT':
                found[test['name']] = float(prop['value'])
    return found


def main(argv):
    if not argv or len(argv) > 2:
        print('usage: tests/slowest.py BUILD_DIR [COUNT=10]', file=sys.stderr)
        return 2
    build, count = argv[0], int(argv[1]) if len(argv) > 1 else 10
    log = os.path.join(build, 'Testing', 'Temporary', 'LastTest.log')
    try:
        with open(log, encoding='utf-8', errors='replace') as f:
            found = times(f.read())
    except OSError as e:
        print('slowest: no ctest log to read (%s): run ctest first' % e, file=sys.stderr)
        return 0
    if not found:
        print('slowest: %s holds no test times' % log)
        return 0
    total = sum(found.values())
    limits = budgets(build)
    print('slowest: the %d slowest of %d tests (%.0f s of test time in all; budget = the test\'s TIMEOUT):'
          % (min(count, len(found)), len(found), total))
    for name, seconds in sorted(found.items(), key=lambda item: -item[1])[:count]:
        budget = limits.get(name)
        print('  %7.1f s  %4.1f%%  budget %s  %s' % (seconds, 100 * seconds / total if total else 0,
                                                   '%4.0f s' % budget if budget else '   none', name))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
