"""Files cardgen writes: whole or not at all, with the mode the umask gives."""
from __future__ import annotations

import os
import stat

import pytest

from cardgen.build import BuildSettings, build_decks
from cardgen.files import atomic_path, new_temp
from cardgen.starter import write_starter


@pytest.fixture
def umask():
    """Set the process umask for one test, restoring it afterwards."""
    old = os.umask(0o022)
    os.umask(old)
    yield os.umask
    os.umask(old)


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_built_pdf_gets_the_mode_open_would_give(tmp_path, umask, mask, expected):
    umask(mask)
    build_decks(["clusterfuck"], tmp_path, BuildSettings())
    assert mode(tmp_path / "clusterfuck.pdf") == expected


@pytest.mark.parametrize("mask", [0o022, 0o077])
def test_atomic_files_and_starter_folders_follow_the_umask(tmp_path, umask, mask):
    umask(mask)
    with atomic_path(tmp_path / "chart.png") as tmp:
        tmp.write_bytes(b"x")
    assert mode(tmp_path / "chart.png") == 0o666 & ~mask
    folder = write_starter("demo", tmp_path)
    assert mode(folder) == 0o777 & ~mask
    assert mode(folder / "demo.yaml") == 0o666 & ~mask


def test_a_failed_write_leaves_neither_the_file_nor_a_temporary(tmp_path):
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "x.pdf") as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("disk full")
    assert list(tmp_path.iterdir()) == []


def test_temporaries_are_named_after_their_target_and_process(tmp_path):
    tmp = new_temp(tmp_path / "deck.pdf")
    assert tmp.name.startswith(f".deck.pdf.{os.getpid()}-") and tmp.name.endswith(".tmp")
    assert new_temp(tmp_path / "deck.pdf") != tmp
