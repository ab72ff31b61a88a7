"""Packs chapters' downloads without rendering the book, for building them as a reader would:
    python3 book/render/pack_downloads.py OUT_DIR [ID ...]
writes OUT_DIR/<id>-<src>.tar.gz for the chapters named (by id, e.g. 3.1 A), or for every chapter
of book/chapters.txt that has code; the archives are the ones `make book` links (downloads.py).
.ci/device-downloads builds and runs them on the GPU machine."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, 'tangle', 'measure'))

import downloads  # noqa: E402
from measure import MeasureError, select_chapters  # noqa: E402  (one reader of the front matter)
from stamps import write_file  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out, wanted = argv[1], argv[2:]
    try:
        chosen = [front for _, front in select_chapters(REPO)]
    except MeasureError as error:
        print('pack_downloads: %s' % error, file=sys.stderr)
        return 1
    unknown = set(wanted) - {str(f['id']) for f in chosen}
    if unknown:
        print('pack_downloads: no chapter with code has id %s (book/chapters.txt)' % ', '.join(sorted(unknown)),
              file=sys.stderr)
        return 2
    src_dir = os.path.join(REPO, 'src')
    for front in chosen:
        chapter = {'id': str(front['id']), 'src': front['src'], 'title': front.get('title') or ''}
        if wanted and chapter['id'] not in wanted:
            continue
        try:
            files = downloads.chapter_files(src_dir, chapter)
        except downloads.DownloadError as error:
            print('pack_downloads: %s' % error, file=sys.stderr)
            return 1
        target = os.path.join(out, downloads.archive_name(chapter) + '.tar.gz')
        write_file(target, downloads.archive_bytes(chapter, files))
        print(target)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
