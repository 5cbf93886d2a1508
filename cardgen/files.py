"""Reading input files safely, and writing output files whole or not at all.

Every file cardgen reads (deck, CSV/XLSX, sheet template, image, font, SVG) comes in through
``read_input``: only regular files, never more than the cap (whatever ``st_size`` claims), and
every OS error turned into one located line.

Every file cardgen writes goes through ``atomic_path``: it is written under a
temporary name beside its target and renamed into place only when complete,
so a failed or killed build never leaves half a file or destroys the
previous good one. Temporary files are made as ``open()`` and ``mkdir()``
make files (mode 0666 or 0777 less the umask), so the finished file gets
the same permissions as any other file the user writes, not mkstemp's
private 0600.
"""
from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import CardgenError, Location

TEMP_SUFFIX = ".tmp"
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def resolved(path: Path, what: str, where: Location | None = None) -> Path:
    """``path`` made absolute with its links followed, or a one-line error: a link loop, or a name
    no file can have (a NUL in it)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError) as exc:  # RuntimeError: a link loop before Python 3.13
        raise CardgenError(f"{what} '{path}' cannot be resolved: a link loop?", where or Location(str(path))) \
            from exc
    except ValueError:
        raise CardgenError(f"{what} {str(path)!r} is not a possible file name (a NUL character?)",
                           where or Location(repr(str(path)))) from None


def read_input(path: Path, what: str, limit: int, where: Location | None = None) -> bytes:
    """The bytes of an input file, or a one-line error located at ``where`` (else at the file).

    Refuses anything but a regular file (opening a FIFO does not wait for a writer), reads at
    most ``limit`` bytes whatever the file system says its size is (``/dev/zero`` has size 0),
    and reports link loops, missing files and permissions in words.
    """
    at = where or Location(str(path))
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise CardgenError(f"{what}: no such file", at) from None
    except OSError as exc:
        reason = "a link loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        raise CardgenError(f"{what} cannot be read: {reason}", at) from None
    try:
        mode = os.fstat(fd).st_mode
        for test, kind in _KINDS:
            if test(mode):
                raise CardgenError(f"{what} is {kind}, not a file", at)
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise CardgenError(f"{what} is larger than {limit:,} bytes", at)
        return b"".join(chunks)
    except OSError as exc:
        raise CardgenError(f"{what} cannot be read: {exc.strerror or exc}", at) from None
    finally:
        os.close(fd)


def check_output(path: Path, choose: str = "another path") -> None:
    """Refuse to write ``path`` when something there is not a regular file: a FIFO, a device, a
    folder, a socket or a link is never replaced (every command's outputs, asked before the work starts)."""
    try:
        mode = Path(path).lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CardgenError(f"cannot write {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise CardgenError(f"{path} exists and is not a regular file; cardgen replaces only files it could "
                           f"have written (remove it or choose {choose})")


@contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary file beside ``path`` that replaces it only on success (``check_output`` first)."""
    path = Path(path)
    check_output(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temps(path)
    tmp: Path | None = None
    try:
        tmp = new_temp(path)
        yield tmp
        os.replace(tmp, path)
    finally:
        if tmp is not None and tmp.exists():
            tmp.unlink()


def remove_stale_temps(target: Path) -> list[Path]:
    """Remove what a killed run left beside ``target``: its temporaries whose process is gone."""
    import re
    import shutil

    pattern = re.compile(rf"\.{re.escape(target.name)}\.(\d+)-[0-9a-f]{{8}}{re.escape(TEMP_SUFFIX)}")
    removed: list[Path] = []
    try:
        entries = list(target.parent.iterdir())
    except OSError:
        return removed
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if not match or _alive(int(match.group(1))):
            continue
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
            removed.append(entry)
        except OSError:
            pass  # another cardgen removed it first, or it is not ours to remove
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid() or os.name == "nt":  # Windows: os.kill(pid, 0) would send Ctrl-C, so keep all
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, OverflowError):
        return True  # someone else's process: leave its files alone
    return True


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
            return candidate
        except FileExistsError:
            continue
        except BaseException:  # a signal between creating and returning: the name was new, so it is ours
            if candidate.is_dir() and folder:
                candidate.rmdir()
            elif candidate.exists() and not folder:
                candidate.unlink()
            raise
    raise FileExistsError(f"could not create a temporary file beside {target}")
