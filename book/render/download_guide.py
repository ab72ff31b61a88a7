"""What a reader needs to know about a chapter's download, said once and written twice: into the
download's README.md (book/render/downloads.py) and onto the book's downloads page
(book/render/downloads_page.py). Every fact is read, not typed: the programs from the files packed
(<folder>_test where a *_test file is, <folder>_bench where a *_bench.cu is), the CMake version
from the download's CMakeLists.txt, the toolkit from the reference GPU's record
(book/measurements/<book/reference-gpu>/machine.json), and a compute capability 9.0 from a packed
file that compiles for sm_90a (chapters 3.2b and 4.3b, and appendix A's wgmma loop).

  facts(chapter, files)  {'top', 'programs': [(name, kind)], 'sm90a': [files], 'cmake', 'nvcc'}
  readme(chapter, facts) the README's Markdown"""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
CMAKE_TEMPLATE = os.path.join(HERE, 'download-CMakeLists.txt')
REFERENCE = os.path.join(BOOK, 'reference-gpu')
SM90A = re.compile(rb'compute_90a')   # a build setting (src/<folder>/<folder>.cmake) that compiles for sm_90a
TEST = re.compile(r'_test\.(cu|cpp)$')
BENCH = re.compile(r'_bench\.cu$')


def cmake_minimum():
    with open(CMAKE_TEMPLATE, encoding='utf-8') as f:
        found = re.search(r'cmake_minimum_required\(VERSION ([0-9.]+)\)', f.read())
    return found.group(1) if found else '?'


def reference_toolkit():
    """(GPU name, nvcc version) of the reference GPU's record, or (None, None)."""
    try:
        with open(REFERENCE, encoding='utf-8') as f:
            slug = f.read().strip()
        with open(os.path.join(BOOK, 'measurements', slug, 'machine.json'), encoding='utf-8') as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None, None
    context = record.get('context') or {}
    return record.get('gpu') or context.get('gpu'), context.get('nvcc')


def inputs():
    """What shapes facts() besides the files: for the downloads' digests."""
    gpu, nvcc = reference_toolkit()
    return [cmake_minimum(), gpu or '', nvcc or '', open(__file__, 'rb').read()]


def facts(chapter, files, top):
    """files: [(path inside src/, bytes)] as packed; top: the archive's folder."""
    folders = sorted({rel.split('/')[0] for rel, _ in files})
    programs = []
    for folder in folders:
        names = [rel for rel, _ in files if rel.split('/')[0] == folder and '/' not in rel[len(folder) + 1:]]
        if any(TEST.search(n) for n in names):
            programs.append((folder + '_test', 'test'))
        if any(BENCH.search(n) for n in names):
            programs.append((folder + '_bench', 'bench'))
    gpu, nvcc = reference_toolkit()
    return {'top': top, 'folders': folders, 'programs': programs, 'files': len(files),
            'sm90a': sorted(rel for rel, data in files if rel.endswith('.cmake') and SM90A.search(data)
                            and (not rel.startswith('bench/') or any(r.startswith('bench/sm90a/') for r, _ in files))),
            'cmake': cmake_minimum(), 'nvcc': nvcc, 'reference_gpu': gpu}


def prerequisites(facts):
    """The prerequisites as sentences (Markdown), one a list item."""
    toolkit = ('the CUDA toolkit (nvcc, cuBLAS); the book\'s records were built with nvcc %s on the %s'
               % (facts['nvcc'], facts['reference_gpu']) if facts['nvcc'] else 'the CUDA toolkit (nvcc, cuBLAS)')
    if facts['sm90a']:
        gpu = ('an NVIDIA GPU of compute capability 9.0 (an H100 or H200) to run this chapter\'s Hopper '
               'kernels (%s compiles them for sm_90a only); on any other GPU their tests and benchmarks skip'
               % ', '.join('`src/%s`' % f for f in facts['sm90a']))
    else:
        gpu = ('an NVIDIA GPU to run the tests and benchmarks (any the toolkit supports; without one, '
               'the code still builds, for compute capability 9.0, and the GPU tests skip)')
    return ['CMake %s or newer, and Ninja (or leave out `-G Ninja`)' % facts['cmake'], toolkit,
            'a C++20 host compiler (the book\'s CI uses Debian 12\'s g++)',
            'GoogleTest (Debian: `libgtest-dev`), and Google Benchmark for the benchmark program '
            '(`libbenchmark-dev`; without it the tests still build)', gpu]


def run_steps(facts):
    """The shell lines that build and run the download, from inside its folder, comments aligned."""
    steps = [('cmake -S . -B build -G Ninja', 'for the GPU nvidia-smi lists; -DCMAKE_CUDA_ARCHITECTURES=89 chooses'),
             ('cmake --build build', ''),
             ('ctest --test-dir build --output-on-failure', 'every kernel against its CPU reference')]
    for name, kind in facts['programs']:
        if kind == 'bench':
            steps += [('./build/%s' % name, 'the benchmarks, each with its median time'),
                      ('./build/%s --benchmark_out=%s.json --benchmark_out_format=json' % (name, name),
                       'the same, kept as JSON')]
    width = max(len(command) for command, _ in steps if len(command) < 50) + 2
    return [('%-*s# %s' % (max(width, len(command) + 2), command, note) if note else command)
            for command, note in steps]


def against_measure():
    """How the download's numbers relate to the book's."""
    return ('The book\'s numbers come from `make measure` in the book\'s repository, which runs these '
            'same programs on one GPU: the tests first (a chapter whose tests fail is not timed), then '
            'the benchmark program with `--benchmark_out`. A benchmark takes its samples by the '
            'harness\'s stopping rule (at least 10, until their median is steady: the book\'s appendix A) '
            'and reports their median as its time; the few registered with repetitions print each '
            'and a `_median`, and `make measure` keeps that median, with the minimum and maximum. So '
            'the time the benchmark program prints is the number the chapter would show, measured on '
            'your GPU; `make measure` writes it, with the GPU, clocks, driver and toolkit, into '
            '`book/measurements/<gpu>/<chapter>.json`, from which the chapter\'s numbers are woven. Not '
            'in a download: the hardware counters `make measure` adds with Nsight Compute for the '
            'benchmarks a chapter lists, the scripts of other libraries\' kernels a chapter compares '
            'with (its `peers:`), and the weaving itself: to read the chapter with your numbers, '
            'rebuild the whole book on your GPU (the book\'s appendix C).')


def readme(chapter, facts, url=None):
    what = ('`src/%s/`, this chapter\'s code as the book tangles it from the chapter, %s; '
            '%d files in all, with a CMakeLists.txt that builds them on their own.'
            % (chapter['src'], 'and the harness it builds on (`src/bench/`: timers, checks, the benchmark '
               'main)' if 'bench' in facts['folders'] and chapter['src'] != 'bench' else 'whole',
               facts['files']))
    others = [f for f in facts['folders'] if f not in ('bench', chapter['src'])]
    if others:
        what += ' It also holds what it includes of %s.' % ', '.join('`src/%s/`' % f for f in others)
    programs = ', '.join('`%s` (%s)' % (n, 'tests' if k == 'test' else 'benchmarks') for n, k in facts['programs'])
    text = ['# %s %s' % (chapter['id'], chapter['title']), '',
            'The code of chapter %s of "Kernels and the Machine"%s. These files are tangled from the '
            'chapter\'s text: a change you want to keep belongs in the chapter (`chapters/` of the '
            'book\'s repository), which the book re-tangles.' % (chapter['id'], ' (%s)' % url if url else ''), '',
            '## What is inside', '', what, '', 'It builds %s.' % (programs or 'a library'), '',
            '## Prerequisites', '']
    text += ['- %s' % p for p in prerequisites(facts)] + ['', '## Build and run', '', 'From this folder:', '']
    text += ['    ' + line for line in run_steps(facts)] + ['', '## Its numbers and the book\'s', '',
                                                            against_measure(), '']
    return '\n'.join(text)
