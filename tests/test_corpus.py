"""Hostile inputs (issue 14): each gives its exit code and one clear line, never a traceback or a file."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

CORPUS = ROOT / "tests" / "corpus"
CASES = yaml.safe_load((CORPUS / "cases.yaml").read_text(encoding="utf-8"))
DECK = "deck: a\nname: A\ncards:\n  - {id: a, title: A}\n"


def run(args: list[str], cwd, timeout: float = 60, plugin: str = "") -> subprocess.CompletedProcess:
    """cardgen in its own process, as a user runs it (a hang fails by the timeout); ``plugin`` names a
    folder of tests/corpus/plugins whose plug-in game (a module and its entry point) is installed."""
    path = os.pathsep.join([str(ROOT)] + ([str(CORPUS / "plugins" / plugin)] if plugin else []))
    return subprocess.run([sys.executable, "-m", "cardgen", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "PYTHONPATH": path})


def check(result: subprocess.CompletedProcess, code: int, message: str, out) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == code, output
    assert message in output, output
    assert "Traceback" not in output, output
    if code == 2:
        assert len(output.strip().splitlines()) == 1, output
        assert not list(out.iterdir()), "nothing is written on bad input"


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_corpus_case(case, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    line = case.get("run", "validate {file} --games 0").format(file=CORPUS / case["file"], out=out, corpus=CORPUS)
    check(run(shlex.split(line), tmp_path, plugin=case.get("plugin", "")), case["exit"], case["message"], out)
    for name in case.get("files", []):
        assert (out / name).is_file(), (name, sorted(p.name for p in out.rglob("*")))


def test_debug_shows_what_a_plugin_raised(tmp_path):
    deck = CORPUS / "plugins" / "check-deck-raises" / "check-deck-raises.yaml"
    result = run(["--debug", "validate", str(deck), "--games", "0"], tmp_path, plugin="check-deck-raises")
    assert result.returncode == 2, result.stderr
    assert "Traceback" in result.stderr and "ZeroDivisionError: division by zero" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("Error: plug-in game 'plugin-check-deck-raises'")


def special_inputs(tmp):
    """Inputs that cannot be files in git: made here, each with its expected message."""
    fifo = tmp / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp / "zero.yaml").symlink_to("/dev/zero")
    (tmp / "loop1.yaml").symlink_to(tmp / "loop2.yaml")
    (tmp / "loop2.yaml").symlink_to(tmp / "loop1.yaml")
    (tmp / "csv-loop.yaml").write_text("deck: a\nname: A\ncsv: l1.csv\n")
    (tmp / "l1.csv").symlink_to(tmp / "l2.csv")
    (tmp / "l2.csv").symlink_to(tmp / "l1.csv")
    (tmp / "csv-fifo.yaml").write_text("deck: a\nname: A\ncsv: pipe.csv\n")
    os.mkfifo(tmp / "pipe.csv")
    (tmp / "image-device.yaml").write_text(DECK.replace("title: A}", "title: A, image: null.png}"))
    os.mkfifo(tmp / "null.png")
    (tmp / "image-loop.yaml").write_text(DECK.replace("title: A}", "title: A, image: i1.png}"))
    (tmp / "i1.png").symlink_to(tmp / "i2.png")
    (tmp / "i2.png").symlink_to(tmp / "i1.png")
    (tmp / "random.yaml").symlink_to("/dev/urandom")
    return [("fifo.yaml", "is a FIFO (named pipe), not a file"), ("zero.yaml", "is a device, not a file"),
            ("loop1.yaml", "link loop"), ("csv-loop.yaml", "link loop"),
            ("csv-fifo.yaml", "is a FIFO (named pipe), not a file"),
            ("image-device.yaml", "image 'null.png' is a FIFO (named pipe), not a file"),
            ("image-loop.yaml", "link loop"), ("random.yaml", "is a device, not a file")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and /dev/zero are POSIX")
def test_special_files_are_refused_without_waiting(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    for name, message in special_inputs(tmp_path):
        check(run(["validate", str(tmp_path / name), "--games", "0"], tmp_path, timeout=30), 2, message, out)
    check(run(["build", "/dev/zero", "--out", str(out)], tmp_path, timeout=30), 2, "is a device, not a file", out)


@pytest.mark.parametrize("args,message", [
    (["--option", "target=+-6"], "option 'target' must be a whole number"),
    (["--option", "target=²"], "option 'target' must be a whole number"),
    (["--gray", "pbx=²"], "--gray must be all, none"),
])
def test_typed_numbers(args, message, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    check(run(["build", "common-carrier", "--out", str(out), *args], tmp_path), 2, message, out)


def test_a_file_larger_than_its_cap_is_refused_whatever_its_size_says(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text(DECK + "# " + "x" * 2_100_000 + "\n")
    out = tmp_path / "out"
    out.mkdir()
    check(run(["validate", str(big), "--games", "0"], tmp_path), 2, "is larger than 2,000,000 bytes", out)


def test_outputs_that_would_collide_are_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    slugs = tmp_path / "slug.yaml"
    slugs.write_text("deck: p\nname: P\nper_player: true\nplayers: [{name: Player 1, color: red}, "
                     "{name: player-1, color: blue}]\ncards:\n  - {id: a, title: A}\n")
    check(run(["build", str(slugs), "--out", str(out)], tmp_path), 2,
          "p-player-1.pdf would be written twice: for deck 'p' (slug.yaml), player 'Player 1' and for deck 'p' "
          "(slug.yaml), player 'player-1'", out)
    mine = tmp_path / "mine.yaml"
    mine.write_text("deck: dotcombust\nname: Mine\ncards:\n  - {id: a, title: A}\n")
    check(run(["build", "dotcombust", str(mine), "--out", str(out)], tmp_path), 2,
          "dotcombust.pdf would be written twice", out)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_an_output_that_is_not_a_regular_file_is_not_replaced(tmp_path):
    deck = tmp_path / "m.yaml"
    deck.write_text(DECK.replace("deck: a", "deck: m"))
    out = tmp_path / "out"
    out.mkdir()
    os.mkfifo(out / "m.pdf")
    result = run(["build", str(deck), "--out", str(out)], tmp_path)
    assert result.returncode == 2 and "exists and is not a regular file" in result.stderr
    assert not (out / "m.pdf").is_file() and (out / "m.pdf").exists()
    device = run(["build", str(deck), "--out", "/dev/null"], tmp_path)
    assert device.returncode == 2 and "is not a folder" in device.stderr and "Traceback" not in device.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.parametrize("command,option", [(["calibrate"], "--out"),
                                            (["playtest", "common-carrier", "--games", "2"], "--report"),
                                            (["analyze", "common-carrier", "--quick", "--games", "2"], "--report")])
def test_every_command_refuses_to_replace_what_is_not_a_regular_file(tmp_path, command, option):
    """Issue 26 row 9: the reports and the calibration sheet go through build's check (files.check_output)."""
    out = tmp_path / "out"
    out.mkdir()
    suffix = ".html" if command[0] == "analyze" else ".pdf"
    os.mkfifo(tmp_path / f"fifo{suffix}")
    for target in (tmp_path / f"fifo{suffix}", Path("/dev/null")):
        check(run([*command, option, str(target)], tmp_path, timeout=60), 2,
              f"{target} exists and is not a regular file; cardgen replaces only files it could have written "
              f"(remove it or choose another {option})", out)
    assert (tmp_path / f"fifo{suffix}").exists() and not (tmp_path / f"fifo{suffix}").is_file()


@pytest.mark.parametrize("command", [["playtest", "common-carrier", "--games", "1000000", "--jobs", "2"],
                                     ["build", "--out", "out", "--format", "png", "--format", "tts", "--dpi", "600"]])
def test_ctrl_c_is_one_line_and_exit_130_workers_included(tmp_path, command):
    import signal
    import time

    process = subprocess.Popen([sys.executable, "-m", "cardgen", *command], cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert err.strip() == "interrupted" and "Traceback" not in out


def _photo(path, orientation: int) -> None:
    """A 40 x 20 JPEG, red on the left and blue on the right, with an EXIF orientation."""
    from PIL import Image

    img = Image.new("RGB", (40, 20), "red")
    img.paste((0, 0, 255), (20, 0, 40, 20))
    exif = Image.Exif()
    exif[0x0112] = orientation
    img.save(path, format="JPEG", exif=exif.tobytes())


def test_a_phone_photo_stands_as_its_exif_says(tmp_path):
    from PIL import Image

    from cardgen.render.images import _source, natural_size
    from cardgen.render.layout import raster_size

    _photo(tmp_path / "turned.jpg", 6)  # shown turned a quarter clockwise
    _photo(tmp_path / "plain.jpg", 1)
    assert raster_size(tmp_path / "turned.jpg") == (20, 40)
    assert natural_size(tmp_path / "turned.jpg") == (20, 40)
    assert natural_size(tmp_path / "plain.jpg") == (40, 20)
    assert _source(tmp_path / "plain.jpg") == str(tmp_path / "plain.jpg")  # embedded as it is
    # turned a quarter clockwise, the red left half is now on top
    with Image.open(_source(tmp_path / "turned.jpg")) as image:
        rgb = image.convert("RGB")
        top, bottom = rgb.getpixel((10, 2)), rgb.getpixel((10, 37))
    assert top[0] > 200 and top[2] < 80 and bottom[2] > 200


def test_broken_truncated_and_phone_images(tmp_path):
    from PIL import Image

    img = Image.new("RGB", (640, 640), "green")
    img.save(tmp_path / "whole.jpg", format="JPEG")
    data = (tmp_path / "whole.jpg").read_bytes()
    (tmp_path / "cut.jpg").write_bytes(data[: len(data) // 2])
    img.save(tmp_path / "phone.jpg", format="MPO", save_all=True, append_images=[Image.new("RGB", (640, 640))])
    assert Image.open(tmp_path / "phone.jpg").format == "MPO"
    out = tmp_path / "out"
    out.mkdir()
    for name, code, message in (("cut.jpg", 2, "image 'cut.jpg' is not a readable PNG or JPEG image"),
                                ("phone.jpg", 0, "playable")):
        deck = tmp_path / f"{name}.yaml"
        deck.write_text(DECK.replace("title: A}", f"title: A, image: {name}}}"))
        check(run(["validate", str(deck), "--games", "0"], tmp_path), code, message, out)


@pytest.mark.parametrize("color,ok", [("rgb(21, 101, 192)", True), ("hsl(210, 80%, 42%)", True),
                                      ("#1565c0", True), ("#1565c080", False), ("rgba(1, 2, 3, 128)", False),
                                      ("#15c8", False)])
def test_colours_with_alpha_are_refused_not_flattened(color, ok):
    from cardgen.colors import parse_color

    if ok:
        assert all(0 <= c <= 1 for c in parse_color(color))
    else:
        with pytest.raises(ValueError, match="alpha channel"):
            parse_color(color)


def test_huge_images_are_decoded_at_the_size_they_print(tmp_path):
    from PIL import Image

    from cardgen.render.images import MAX_SIDE, natural_size

    for i in range(3):  # 40 megapixels each
        Image.new("RGB", (8000, 5000), (20 * i, 40, 90)).save(tmp_path / f"big{i}.jpg", quality=50)
    (tmp_path / "big.jpg").write_bytes((tmp_path / "big0.jpg").read_bytes())
    Image.new("RGB", (6000, 1500), "teal").save(tmp_path / "wide.png")
    assert natural_size(tmp_path / "big.jpg") == (MAX_SIDE, MAX_SIDE * 5 // 8)
    assert natural_size(tmp_path / "wide.png") == (MAX_SIDE, MAX_SIDE // 4)
    # in a process of its own: drawing three 40-megapixel JPEGs onto a PDF page peaks far below the
    # 120 MB that one full decode alone would take on top of the interpreter
    probe = (f"import resource; from pathlib import Path; from reportlab.pdfgen.canvas import Canvas; "
             f"from cardgen.render.images import _draw_natural; c = Canvas({str(tmp_path / 'x.pdf')!r}); "
             f"[_draw_natural(c, Path({str(tmp_path)!r}) / f'big{{i}}.jpg', 10, 10) for i in range(3)]; "
             f"c.save(); print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    baseline = ("import resource, cardgen.render.images, PIL.Image, reportlab.pdfgen.canvas; "
                "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    used = int(subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env).stdout)
    base = int(subprocess.run([sys.executable, "-c", baseline], capture_output=True, text=True, env=env).stdout)
    assert (used - base) * 1024 < 150_000_000, (used - base) // 1024  # it was ~380 MB for one, kept


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="SIGKILL is POSIX")
def test_killed_builds_keep_the_pdf_and_leave_nothing_after_the_next_build():
    sys.path.insert(0, str(ROOT / "tools"))
    from killtest import run as kill_runs

    problems, stopped = kill_runs(8, seed=5)
    assert problems == []
    assert stopped >= 3  # the kills really land inside builds


def _png_with_broken_stream(path) -> None:
    """A PNG whose compressed pixels are garbage while every chunk's CRC is right."""
    import io
    import struct
    import zlib

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (800, 800), "orange").save(buffer, format="PNG")
    data = bytearray(buffer.getvalue())
    at = data.index(b"IDAT")
    length = struct.unpack(">I", data[at - 4:at])[0]
    body = bytearray(data[at + 4:at + 4 + length])
    body[2:] = bytes(b ^ 0x5A for b in body[2:])
    data[at + 4:at + 4 + length] = body
    data[at + 4 + length:at + 8 + length] = struct.pack(">I", zlib.crc32(b"IDAT" + bytes(body)) & 0xFFFFFFFF)
    path.write_bytes(bytes(data))


def test_a_png_with_a_broken_stream_is_one_located_line(tmp_path):
    _png_with_broken_stream(tmp_path / "broken.png")
    deck = tmp_path / "d.yaml"
    deck.write_text(DECK.replace("title: A}", "title: A, image: broken.png}"))
    out = tmp_path / "out"
    out.mkdir()
    check(run(["build", str(deck), "--out", str(out)], tmp_path), 2,
          "d.yaml:4:30: image 'broken.png' is not a readable PNG or JPEG image (broken data stream", out)


def test_a_csv_field_longer_than_131072_characters_is_read(tmp_path):
    (tmp_path / "c.csv").write_text("id,title,notes\na,A,\"" + "x" * 200_000 + "\"\n")
    deck = tmp_path / "d.yaml"
    deck.write_text("deck: d\nname: D\ncsv: c.csv\n")
    out = tmp_path / "out"
    out.mkdir()
    check(run(["validate", str(deck), "--games", "0"], tmp_path), 0, "playable", out)


def test_a_shared_image_is_checked_once_per_version(tmp_path, monkeypatch):
    """2,000 cards over one image decode it once; a file changed since is checked again."""
    from PIL import Image

    from cardgen import deck as deck_module

    calls = []
    real = deck_module._check_image
    monkeypatch.setattr(deck_module, "_check_image", lambda *a: calls.append(a[0]) or real(*a))
    Image.new("RGB", (600, 600), "teal").save(tmp_path / "art.png")
    (tmp_path / "c.csv").write_text("id,title,image\n" + "".join(f"c{i},C,art.png\n" for i in range(2000)))
    (tmp_path / "d.yaml").write_text("deck: d\nname: D\ncsv: c.csv\n")
    assert len(deck_module.load_deck(tmp_path / "d.yaml").cards) == 2000
    assert len(calls) == 1
    _png_with_broken_stream(tmp_path / "art.png")
    os.utime(tmp_path / "art.png", ns=(1, 1))  # a new version even on a coarse clock
    with pytest.raises(deck_module.CardgenError, match="not a readable PNG"):
        deck_module.load_deck(tmp_path / "d.yaml")
