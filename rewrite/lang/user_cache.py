"""The user's cache folder for things that make ``rewrite check`` start fast (the op table, the
parser tables): ``$REWRITE_CACHE_DIR``, else ``$XDG_CACHE_HOME/rewrite``, else ``~/.cache/rewrite``."""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Optional


def cache_dir() -> Path:
    if os.environ.get("REWRITE_CACHE_DIR"):
        return Path(os.environ["REWRITE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rewrite"


def private_cache_dir() -> Optional[Path]:
    """The cache folder, created if needed, if only the current user can write to it (so that
    what is read back from it was written by this user); else None."""
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        info = os.stat(folder)
    except OSError:
        return None
    getuid = getattr(os, "getuid", None)
    if getuid is not None and info.st_uid != getuid():
        return None
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) or not stat.S_ISDIR(info.st_mode):
        return None
    return folder
