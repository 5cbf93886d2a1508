"""Writing output files: whole or not at all, with the permissions a user expects.

Every file cardgen writes goes through ``atomic_path``: it is written under a
temporary name beside its target and renamed into place only when complete,
so a failed or killed build never leaves half a file or destroys the
previous good one. Temporary files are made as ``open()`` and ``mkdir()``
make files (mode 0666 or 0777 less the umask), so the finished file gets
the same permissions as any other file the user writes, not mkstemp's
private 0600.
"""
from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

TEMP_SUFFIX = ".tmp"


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` that replaces it only on success."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = new_temp(path)
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def new_temp(target: Path, folder: bool = False) -> Path:
    """Create an empty file (or folder) beside ``target``, named ``.NAME.PID-XXXXXXXX.tmp``.

    The name says which target and which process it belongs to; the mode is
    what ``open()`` or ``mkdir()`` would give under the current umask.
    """
    for _ in range(100):
        candidate = target.parent / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}{TEMP_SUFFIX}"
        try:
            if folder:
                os.mkdir(candidate, 0o777)
            else:
                os.close(os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except FileExistsError:
            continue
        return candidate
    raise FileExistsError(f"could not create a temporary file beside {target}")
