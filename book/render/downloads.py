"""Each chapter's code as a download that builds on its own: downloads/<id>-<src>.tar.gz holds
src/<src>/ as tangled, the harness it includes (src/bench/, without the harness's own tests and
benchmarks), a CMakeLists.txt and a README. The archive is byte-identical for identical inputs
(sorted entries, zero times and owners), so its digest only moves when the code does."""
import gzip
import io
import os
import posixpath
import re
import tarfile

import download_guide
from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
CMAKE_TEMPLATE = os.path.join(HERE, 'download-CMakeLists.txt')
# The book's own choice of CUDA architectures (this machine's GPU, or 90), packed as it is.
ARCHITECTURES = os.path.join(HERE, '..', '..', 'cmake', 'cuda_architectures.cmake')
HARNESS = 'bench'
# The harness's own test and benchmark programs stay out of a download; its headers (gpu_test.cuh
# among them: the chapters' tests include it) go in.
HARNESS_OWN = re.compile(r'_test\.(cu|cpp)$|_bench\.cu$')
MANIFEST = '.tangle-manifest'  # the tangler's list of what it wrote: "<chapter>\t<src/path>" a line
MAX_FILE_BYTES = 64 << 20  # the weaver's cap on an input
INCLUDE = re.compile(rb'^\s*#\s*include\s*"([^"]+)"', re.M)


class DownloadError(RuntimeError):
    """A download that would not build: the message names the chapter and the missing file."""


def archive_name(chapter):
    return '%s-%s' % (chapter['id'], chapter['src'])


def href(chapter):
    return 'downloads/%s.tar.gz' % archive_name(chapter)


def inside_src(src_dir, chapter, rel, path):
    """`path`, unless a symbolic link takes it out of src/ (a link to /etc/passwd was packed into a
    download: tools.md O9); the tangler makes no links, so one is an error naming it."""
    real, top = os.path.realpath(path), os.path.realpath(src_dir)
    if os.path.commonpath([real, top]) != top:
        raise DownloadError('chapter %s: src/%s is a symbolic link to %s, outside src/; the tangler '
                            'makes no links: remove it' % (chapter['id'], rel, real))
    return path


def tangled_files(src_dir):
    """The files the tangler wrote, as src/.tangle-manifest lists them (paths under src/): a
    download packs these and nothing else, so a .env, .git/config, an editor's swap file, a cache
    or a tangler's temporary beside them stays out (tools.md RD04), as does a FIFO (RD05)."""
    path = os.path.join(src_dir, MANIFEST)
    if not os.path.isfile(path):
        raise DownloadError('src/%s cannot be read: it lists the files the downloads pack; run make '
                            'tangle' % MANIFEST)
    listed = set()
    for line in read_bytes(path).decode('utf-8', 'replace').splitlines():
        chapter, tab, rel = line.partition('\t')
        if tab and not chapter.startswith('#') and rel.startswith('src/'):
            listed.add(rel[len('src/'):])
    return listed


def checked(src_dir, chapter, rel):
    """src/REL as a path, once it is known to be a regular file inside src/ of a size a book's
    source has (a 2 GB file was read whole: tools.md RD07)."""
    path = inside_src(src_dir, chapter, rel, os.path.join(src_dir, rel))
    if not os.path.isfile(path):
        raise DownloadError('chapter %s: src/%s is listed in src/%s but is no file: run make tangle'
                            % (chapter['id'], rel, MANIFEST))
    if os.path.getsize(path) > MAX_FILE_BYTES:
        raise DownloadError('chapter %s: src/%s is over %d MiB, more than any chapter\'s source: '
                            'it is not packed' % (chapter['id'], rel, MAX_FILE_BYTES >> 20))
    return path


def chapter_files(src_dir, chapter):
    """[(path inside src/, absolute path)] of the chapter's folder (its subfolders too: appendix A's
    sm90a/) and the harness it builds on (its top folder, without the harness's own programs),
    each a file the tangler wrote; then what they include."""
    listed = tangled_files(src_dir)
    own = chapter['src']
    files = []
    for rel in sorted(listed):
        folder, _, name = rel.partition('/')
        if folder == own or (folder == HARNESS and '/' not in name and not HARNESS_OWN.search(name)):
            files.append((rel, checked(src_dir, chapter, rel)))
    return add_included(src_dir, chapter, files, listed)


def add_included(src_dir, chapter, files, listed):
    """Adds, transitively, every file of another chapter's folder that a packed file includes by a
    quoted path (chapter 1.4 reuses 3.3's fusion/fusion_graph.cuh). An included path that names no
    file the tangler wrote would break the reader's build: it is an error naming the chapter and
    both files. The member's name is the normal path (warps/../warps/warps.h was packed as written,
    a name tar refuses: tools.md RD06)."""
    files = list(files)
    packed = {rel for rel, _ in files}
    queue = list(files)
    while queue:
        rel, path = queue.pop()
        for included in INCLUDE.findall(read_bytes(path)):
            name = included.decode('utf-8', 'replace')
            if '/' not in name:
                continue
            name = posixpath.normpath(name)
            if name in packed:
                continue
            if name.startswith('../') or name.startswith('/') or name == '..':
                raise DownloadError('chapter %s: src/%s includes "%s", outside src/: a download holds '
                                    'src/ only' % (chapter['id'], rel, included.decode('utf-8', 'replace')))
            target = os.path.join(src_dir, name)
            if name not in listed:
                if (name.split('/')[0] in {HARNESS, chapter['src']} or os.path.isdir(os.path.dirname(target))
                        or os.path.exists(target)):
                    raise DownloadError('chapter %s: its download would lack src/%s, which src/%s includes '
                                        '(src/%s does not list it as a file the tangler wrote); fix the '
                                        'include or book/render/downloads.py\'s selection'
                                        % (chapter['id'], name, rel, MANIFEST))
                continue  # a library's header (cub/..., gtest/...): not ours to pack
            packed.add(name)
            files.append((name, checked(src_dir, chapter, name)))
            queue.append(files[-1])
    return sorted(files)

def cmake_lists(chapter, folders):
    text = read_bytes(CMAKE_TEMPLATE).decode()
    calls = '\n'.join('add_folder(%s)' % f for f in folders)
    return (text.replace('@ID@', chapter['id']).replace('@NAME@', chapter['src'])
                .replace('@FOLDERS@', calls))


def readme(chapter, files):
    """The README: what is inside, prerequisites, build and run, and how its numbers relate to
    make measure's (book/render/download_guide.py, which the downloads page shares)."""
    packed = [(rel, read_bytes(path)) for rel, path in files]
    return download_guide.readme(chapter, download_guide.facts(chapter, packed, archive_name(chapter)))


def archive_bytes(chapter, files):
    # the harness first, then by name (a set's order changes from run to run: the archive must not)
    folders = sorted({rel.split('/')[0] for rel, _ in files}, key=lambda f: (f != HARNESS, f))
    top = archive_name(chapter)
    members = [('CMakeLists.txt', cmake_lists(chapter, folders).encode()),
               ('README.md', readme(chapter, files).encode()),
               ('cmake/cuda_architectures.cmake', read_bytes(ARCHITECTURES))]
    members += [('src/' + rel, read_bytes(path)) for rel, path in files]
    buffer = io.BytesIO()
    with gzip.GzipFile(filename='', mode='wb', fileobj=buffer, mtime=0) as zipped:
        with tarfile.open(fileobj=zipped, mode='w', format=tarfile.GNU_FORMAT) as tar:
            dirs = sorted({'/'.join(n.split('/')[:i]) for n, _ in members for i in range(1, n.count('/') + 1)})
            for name in [''] + dirs:
                info = tarfile.TarInfo((top + '/' + name).rstrip('/'))
                info.type, info.mode, info.mtime = tarfile.DIRTYPE, 0o755, 0
                tar.addfile(info)
            for name, data in sorted(members):
                info = tarfile.TarInfo(top + '/' + name)
                info.size, info.mode, info.mtime = len(data), 0o644, 0
                tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def build(chapter, src_dir, out_dir, state):
    """Makes the chapter's archive if its inputs changed; returns its href, or '' if it has no code."""
    if not chapter['src'] or not os.path.isdir(os.path.join(src_dir, chapter['src'])):
        return '', None
    files = chapter_files(src_dir, chapter)
    target = os.path.join(out_dir, href(chapter))
    key = digest(chapter['id'], chapter['title'], [[rel, read_bytes(p)] for rel, p in files],
                 read_bytes(CMAKE_TEMPLATE), read_bytes(ARCHITECTURES), read_bytes(__file__), download_guide.inputs())
    name = 'download:' + chapter['basename']
    if not state.unchanged(name, key, target):
        write_file(target, archive_bytes(chapter, files))
    return href(chapter), (name, key)
