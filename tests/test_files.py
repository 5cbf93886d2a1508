"""Files cardgen writes: whole or not at all, with the mode the umask gives."""
from __future__ import annotations

import os
import stat

import pytest

from cardgen.build import build_decks
from cardgen.files import atomic_path, new_temp
from cardgen.prepare import BuildSettings
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


def test_a_killed_runs_temporaries_are_removed_by_the_next_write(tmp_path):
    import subprocess
    import sys

    from cardgen.files import atomic_path, new_temp, remove_stale_temps

    target = tmp_path / "deck.pdf"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    stale = tmp_path / f".deck.pdf.{dead}-0123abcd.tmp"
    stale.write_bytes(b"half a PDF")
    stale_folder = tmp_path / f".deck.pdf.{dead}-89abcdef.tmp"
    stale_folder.mkdir()
    mine = new_temp(target)  # this process is alive: its temporary stays
    other = tmp_path / f".other.pdf.{dead}-0123abcd.tmp"  # another target's: not ours to judge here
    other.write_bytes(b"")
    with atomic_path(target) as tmp:
        tmp.write_bytes(b"%PDF")
    assert target.read_bytes() == b"%PDF"
    assert not stale.exists() and not stale_folder.exists()
    assert mine.exists() and other.exists()
    assert remove_stale_temps(target) == []


def test_sigterm_removes_the_temporary_and_keeps_the_previous_file(tmp_path):
    import os
    import signal
    import subprocess
    import sys
    import time

    from conftest import ROOT

    out = tmp_path / "out"
    out.mkdir()
    (out / "dotcombust.pdf").write_bytes(b"%PDF previous")
    process = subprocess.Popen([sys.executable, "-m", "cardgen", "build", "dotcombust", "--out", str(out),
                                "--format", "png", "--format", "pdf"], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    deadline = time.time() + 30
    while time.time() < deadline and not any(p.name.endswith(".tmp") for p in out.iterdir()):
        time.sleep(0.01)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    if process.returncode != 0:  # else the build won the race
        assert process.returncode == 143 and err.strip().endswith("terminated"), err
    assert (out / "dotcombust.pdf").read_bytes().startswith(b"%PDF")
    # a signal landing in the instant between making a temporary and using it may leave one; the next
    # build of that target removes it
    again = subprocess.run([sys.executable, "-m", "cardgen", "build", "dotcombust", "--out", str(out)],
                           cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert again.returncode == 0, again.stderr
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []


def test_a_killed_new_leaves_no_scratch_folder_for_long(tmp_path):
    import subprocess
    import sys

    from cardgen.starter import write_starter

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True).stdout.strip()
    scratch = tmp_path / f".mygame.{dead}-0123abcd.tmp"
    scratch.mkdir()
    (scratch / "half.yaml").write_text("deck: half")
    write_starter("mygame", tmp_path)
    assert (tmp_path / "mygame").is_dir() and not scratch.exists()
