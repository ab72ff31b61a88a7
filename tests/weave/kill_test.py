#!/usr/bin/python3
"""Kills the tangler and the weaver at random points of a run that changes their outputs, and
checks after each kill that every output is whole: the previous version or the new one, never a
torn or missing file (tools.md rows T34, W33; goal 3 of issue 22). A last run, not killed, must
sweep what the killed runs left (temporaries of dead processes) and write the new outputs.

    kill_test.py TANGLE WEAVE WEAVE_FIXTURE_BOOK   (about 3 s)"""
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KILLS = 25


def snapshot(folder):
    """{relative path: bytes} of every file under `folder`."""
    files = {}
    for path in sorted(Path(folder).rglob('*')):
        if path.is_file():
            files[str(path.relative_to(folder))] = path.read_bytes()
    return files


def check_whole(folder, old, new, what):
    now = snapshot(folder)
    for name in set(old) | set(new):
        if name not in now:
            if name in old:  # a file of the previous output went missing
                raise SystemExit(f'{what}: {name} is missing after a kill')
            continue
        if now[name] not in (old.get(name), new.get(name)):
            raise SystemExit(f'{what}: {name} is torn after a kill ({len(now[name])} bytes, neither '
                             'the previous version nor the new one)')


def leftovers(folder):
    return [p.name for p in Path(folder).rglob('.*') if '.tmp.' in p.name or '.old.' in p.name
            or '.tangle-tmp-' in p.name]


def killed_runs(command, cwd, seconds):
    """Runs `command` KILLS times, each killed with SIGKILL after a random part of `seconds`."""
    for _ in range(KILLS):
        run = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, seconds))
        run.send_signal(signal.SIGKILL)
        run.wait()
        yield


def timed(command, cwd):
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f'{command[0]} failed: {done.stderr}')
    return time.monotonic() - started


def tangler(tangle, root):
    """A chapter writing a large file (a few MB, so a write takes a while) and a small one."""
    (root / 'book').mkdir(parents=True)
    (root / 'chapters').mkdir()
    (root / 'book' / 'chapters.txt').write_text('chapters/a.md\n')

    def chapter(version):
        lines = '\n'.join(f'int v{version}_{i} = {i};' for i in range(200000))
        return (f'# A\n\n```{{.cpp file=src/a/big.cpp}}\n{lines}\n```\n\n'
                f'```{{.cpp file=src/a/small.cpp}}\nint small = {version};\n```\n')

    (root / 'chapters' / 'a.md').write_text(chapter(1))
    seconds = timed([tangle], root)
    old = snapshot(root / 'src')
    (root / 'chapters' / 'a.md').write_text(chapter(2))
    scratch = Path(tempfile.mkdtemp())
    try:  # the new output, made in a copy
        shutil.copytree(root, scratch / 'r')
        timed([tangle], scratch / 'r')
        new = snapshot(scratch / 'r' / 'src')
    finally:
        shutil.rmtree(scratch)
    for _ in killed_runs([tangle], root, seconds * 1.5):
        check_whole(root / 'src', old, new, 'tangle')
    timed([tangle], root)
    if snapshot(root / 'src') != new:
        raise SystemExit('tangle: a run after the kills did not write the new output')
    if leftovers(root / 'src'):
        raise SystemExit(f'tangle: killed runs left {leftovers(root / "src")} after a full run')


def weaver(weave, fixture, root):
    shutil.copytree(fixture, root)
    command = [weave, '--root', str(root), '--out', 'build/book/woven']
    seconds = timed(command, root)
    out = root / 'build' / 'book' / 'woven'
    old = snapshot(out)
    chapter = root / 'chapters' / '1-alpha.md'
    chapter.write_text(chapter.read_text() + '\nA new paragraph, so the chapter and reports change.\n')
    beta = root / 'chapters' / '2-beta.md'
    beta.write_text(beta.read_text() + '\nAnother.\n')
    scratch = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(root, scratch / 'r')
        timed([weave, '--root', str(scratch / 'r'), '--out', 'build/book/woven'], scratch / 'r')
        new = snapshot(scratch / 'r' / 'build' / 'book' / 'woven')
    finally:
        shutil.rmtree(scratch)
    if new == old:
        raise SystemExit('weave: the change made no new output; the test tests nothing')
    for _ in killed_runs(command, root, seconds * 1.5):
        check_whole(out, old, new, 'weave')
    timed(command, root)
    if snapshot(out) != new:
        raise SystemExit('weave: a run after the kills did not write the new output')
    if leftovers(out):
        raise SystemExit(f'weave: killed runs left {leftovers(out)} after a full run')


def main():
    tangle, weave, fixture = (os.path.abspath(a) for a in sys.argv[1:4])
    random.seed(22)
    folder = Path(tempfile.mkdtemp(prefix='kill-test.'))
    try:
        tangler(tangle, folder / 'tangle')
        weaver(weave, fixture, folder / 'weave')
    finally:
        shutil.rmtree(folder)
    print(f'kill_test: {2 * KILLS} kills, every output whole after each')


if __name__ == '__main__':
    main()
