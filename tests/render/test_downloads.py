#!/usr/bin/python3
"""book/render/downloads.py: a chapter's download packs the harness headers its code includes
(gpu_test.cuh among them), leaves out the harness's own tests and benchmarks, and refuses to make
a download whose quoted includes name no file; another chapter's header that a chapter includes
goes in with it."""
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import downloads  # noqa: E402


class ChapterFiles(unittest.TestCase):
    def setUp(self):
        self.src = tempfile.mkdtemp(prefix='downloads-test.')
        self.addCleanup(shutil.rmtree, self.src)
        self.write('bench/check.cuh', '#pragma once\n')
        self.write('bench/gpu_test.cuh', '#include "bench/check.cuh"\n')
        self.write('bench/harness_test.cu', '#include "bench/gpu_test.cuh"\n')
        self.write('bench/ceilings_bench.cu', '#include "bench/check.cuh"\n')
        self.write('waves/waves_test.cu', '#include <gtest/gtest.h>\n#include "bench/gpu_test.cuh"\n')
        self.chapter = {'id': '1.2', 'src': 'waves'}

    def write(self, rel, text, tangled=True):
        """src/REL, listed in src/.tangle-manifest as the tangler lists what it writes, unless
        not `tangled` (a stray file beside the chapter's)."""
        path = os.path.join(self.src, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        if tangled:
            self.list(rel)

    def list(self, rel):
        with open(os.path.join(self.src, '.tangle-manifest'), 'a') as f:
            f.write('chapters/%s.md\tsrc/%s\n' % (rel.split('/')[0], rel))

    def test_packs_the_headers_and_not_the_harness_programs(self):
        packed = [rel for rel, _ in downloads.chapter_files(self.src, self.chapter)]
        self.assertEqual(packed, ['bench/check.cuh', 'bench/gpu_test.cuh', 'waves/waves_test.cu'])

    def test_an_include_that_names_no_file_is_an_error(self):
        self.write('waves/waves.cu', '#include "bench/no_such.cuh"\n')
        with self.assertRaises(downloads.DownloadError) as caught:
            downloads.chapter_files(self.src, self.chapter)
        self.assertIn('chapter 1.2', str(caught.exception))
        self.assertIn('src/bench/no_such.cuh', str(caught.exception))

    def test_another_chapters_header_goes_in_with_what_it_includes(self):
        self.write('fusion/fusion_graph.cuh', '#include "fusion/fusion_util.cuh"\n')
        self.write('fusion/fusion_util.cuh', '#include <cuda_runtime.h>\n')
        self.write('fusion/fusion_bench.cu', 'int main() {}\n')
        self.write('waves/waves.cu', '#include "fusion/fusion_graph.cuh"\n#include "cub/cub.cuh"\n')
        packed = [rel for rel, _ in downloads.chapter_files(self.src, self.chapter)]
        self.assertIn('fusion/fusion_graph.cuh', packed)
        self.assertIn('fusion/fusion_util.cuh', packed)
        self.assertNotIn('fusion/fusion_bench.cu', packed)

    def test_a_link_out_of_src_is_an_error_not_a_packed_file(self):  # tools.md O9, row R7
        outside = tempfile.mkdtemp(prefix='downloads-outside.')
        self.addCleanup(shutil.rmtree, outside)
        secret = os.path.join(outside, 'passwd')
        with open(secret, 'w') as f:
            f.write('root:x:0:0\n')
        os.symlink(secret, os.path.join(self.src, 'waves', 'leak.h'))
        packed = [rel for rel, _ in downloads.chapter_files(self.src, self.chapter)]
        self.assertNotIn('waves/leak.h', packed)   # no file the tangler wrote: not packed (RD04)
        self.list('waves/leak.h')                  # a tangled file replaced by a link
        with self.assertRaises(downloads.DownloadError) as caught:
            downloads.chapter_files(self.src, self.chapter)
        self.assertIn('chapter 1.2: src/waves/leak.h is a symbolic link', str(caught.exception))
        os.remove(os.path.join(self.src, 'waves', 'leak.h'))
        os.symlink(secret, os.path.join(self.src, 'bench', 'leak.cuh'))  # one a file includes
        self.list('bench/leak.cuh')
        self.write('waves/waves.cu', '#include "bench/leak.cuh"\n')
        with self.assertRaisesRegex(downloads.DownloadError, 'src/bench/leak.cuh is a symbolic link'):
            downloads.chapter_files(self.src, self.chapter)


    def test_only_the_files_the_tangler_wrote_are_packed(self):  # tools.md RD04, RD05
        self.write('waves/sm90a/waves_sm90a.cu', '#include "bench/check.cuh"\n')
        for stray in ['waves/.env', 'waves/.git/config', 'waves/.waves_test.cu.swp', 'waves/waves_test.cu~',
                      'waves/core', 'waves/__pycache__/x.cpython-311.pyc', 'waves/.w.cu.tangle-tmp-12345',
                      'bench/.env', 'waves/sm90a/notes.txt']:
            self.write(stray, 'API_KEY=abc\n', tangled=False)
        os.mkfifo(os.path.join(self.src, 'waves', 'sm90a', 'pipe'))   # was read, and blocked for ever
        packed = [rel for rel, _ in downloads.chapter_files(self.src, self.chapter)]
        self.assertEqual(packed, ['bench/check.cuh', 'bench/gpu_test.cuh', 'waves/sm90a/waves_sm90a.cu',
                                  'waves/waves_test.cu'])

    def test_an_include_of_a_stray_file_is_an_error(self):
        self.write('waves/stray.cuh', '\n', tangled=False)
        self.write('waves/waves.cu', '#include "waves/stray.cuh"\n')
        with self.assertRaisesRegex(downloads.DownloadError, 'would lack src/waves/stray.cuh, which '
                                    'src/waves/waves.cu includes'):
            downloads.chapter_files(self.src, self.chapter)

    def test_an_included_path_is_packed_under_its_normal_name(self):  # tools.md RD06
        self.write('fusion/fusion_graph.cuh', '#pragma once\n')
        self.write('waves/waves.cu', '#include "fusion/../fusion/fusion_graph.cuh"\n')
        packed = [rel for rel, _ in downloads.chapter_files(self.src, self.chapter)]
        self.assertIn('fusion/fusion_graph.cuh', packed)
        self.assertFalse([rel for rel in packed if '..' in rel], packed)

    def test_a_file_over_the_cap_is_refused_unread(self):  # tools.md RD07
        # a 2 GB file an included header named was read whole (MemoryError); a sparse file of
        # the cap and one byte stands for it here, with no disk and nothing read
        self.write('waves/huge.cuh', '')
        with open(os.path.join(self.src, 'waves', 'huge.cuh'), 'r+b') as f:
            f.truncate(downloads.MAX_FILE_BYTES + 1)
        with self.assertRaisesRegex(downloads.DownloadError, r'chapter 1.2: src/waves/huge.cuh is '
                                    r'over 64 MiB, more than any chapter\'s source'):
            downloads.chapter_files(self.src, self.chapter)

    def test_no_manifest_is_an_error(self):
        os.remove(os.path.join(self.src, '.tangle-manifest'))
        with self.assertRaisesRegex(downloads.DownloadError, 'src/.tangle-manifest cannot be read'):
            downloads.chapter_files(self.src, self.chapter)


class PackDownloads(unittest.TestCase):
    """book/render/pack_downloads.py packs the real book's archives outside `make book`, for
    .ci/device-downloads; an id naming no chapter with code is a usage error (exit 2)."""

    def run_script(self, *args):
        import subprocess
        script = os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render', 'pack_downloads.py')
        return subprocess.run([sys.executable, script, *args], capture_output=True, text=True)

    def test_packs_a_chapter_of_the_book(self):
        out = tempfile.mkdtemp(prefix='pack-downloads-test.')
        self.addCleanup(shutil.rmtree, out)
        done = self.run_script(out, 'A')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(os.listdir(out), ['A-bench.tar.gz'])

    def test_an_unknown_id_is_refused(self):
        done = self.run_script(tempfile.gettempdir(), '9.9')
        self.assertEqual(done.returncode, 2)
        self.assertIn('9.9', done.stderr)

if __name__ == '__main__':
    unittest.main()
