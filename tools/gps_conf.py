"""GPS Shogi's saved options: `gpsusi` writes every `setoption` to its configuration
file and starts from that file the next time, so a script that sets options puts
the file back as it found it (`with kept(path): ...`)."""

import contextlib
import os
import sys

DEFAULT = "/usr/share/gpsshogi-data/gpsusi.conf"


@contextlib.contextmanager
def kept(path=DEFAULT):
    """Restores `path` (or its absence) when the block ends, however it ends."""
    try:
        with open(path) as f:
            saved = f.read()
    except OSError:
        saved = None
    try:
        yield
    finally:
        try:
            if saved is None:
                if os.path.exists(path):
                    os.remove(path)
            else:
                with open(path, "w") as f:
                    f.write(saved)
        except OSError as e:
            print(f"could not restore {path}: {e}", file=sys.stderr)
