"""A file's stamp: what tells, within one process, that it is still the file a build left.

Size, mtime and inode: an edit changes the size or the mtime, and a file replaced by another has a
new inode. The build writer (`pinup.output`) and the output watches (`pinup.outwatch`) compare them.
"""

from __future__ import annotations

import os


def stamp(path: str) -> list[int] | None:
    """[size, mtime_ns, inode] of `path`, None when it cannot be read."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]
