"""What the renderer remembers between runs: a digest of each output's inputs, so that an output
whose inputs did not change is not made again. Also the one way to write a file in the staging
folder: a new file renamed over the old name, never a write through the old name (the staging
folder starts as hard links to the previous book, which must stay intact until the swap)."""
import hashlib
import json
import os

STATE_FILE = os.path.join('.render', 'stamps.json')


def digest(*parts):
    """SHA-256 over strings, bytes and nested lists of them, each part framed by its length."""
    h = hashlib.sha256()

    def feed(part):
        if isinstance(part, (list, tuple)):
            h.update(b'[%d]' % len(part))
            for item in part:
                feed(item)
            return
        data = part if isinstance(part, bytes) else str(part).encode()
        h.update(b'%d:' % len(data))
        h.update(data)

    feed(list(parts))
    return h.hexdigest()


def read_bytes(path):
    with open(path, 'rb') as f:
        return f.read()


def tree_digest(root, skip=lambda rel: False):
    """Digest of every file under root: relative paths and contents, in path order."""
    parts = []
    if os.path.isdir(root):
        for folder, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, root)
                if not skip(rel):
                    parts += [rel, read_bytes(path)]
    return digest(parts)


def write_file(path, data):
    """Writes data to path through a new file and a rename; skips the write if nothing changed."""
    data = data if isinstance(data, bytes) else data.encode()
    try:
        if read_bytes(path) == data:
            return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    fresh = path + '.new'
    with open(fresh, 'wb') as f:
        f.write(data)
    os.replace(fresh, path)
    return True


class State:
    """The digests recorded by the last successful render of this folder."""

    def __init__(self, out_dir):
        self.path = os.path.join(out_dir, STATE_FILE)
        try:
            with open(self.path) as f:
                self.digests = json.load(f)
        except (OSError, ValueError):
            self.digests = {}

    def unchanged(self, name, value, *outputs):
        """True when name was last made from value and every output still exists."""
        return self.digests.get(name) == value and all(os.path.exists(p) for p in outputs)

    def record(self, name, value):
        self.digests[name] = value

    def forget(self, name):
        self.digests.pop(name, None)

    def save(self):
        write_file(self.path, json.dumps(self.digests, indent=1, sort_keys=True) + '\n')
