"""A build does its per-file work once per file, not once per card: counted, not timed."""
from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

from PIL import Image

from cardgen.build import BuildSettings, build_decks


def _image_deck(folder: Path, cards: int, images: int = 2) -> Path:
    """``cards`` distinct cards (no two faces alike) sharing ``images`` PNG files."""
    (folder / "art").mkdir(exist_ok=True)
    for i in range(images):
        Image.new("RGB", (480, 360), (40 * i, 120, 200)).save(folder / "art" / f"a{i}.png")
    rows = "".join(f"c{i},Card {i},Text {i},art/a{i % images}.png\n" for i in range(cards))
    (folder / "cards.csv").write_text("id,title,text,image\n" + rows, encoding="utf-8")
    path = folder / "d.yaml"
    path.write_text("deck: d\nname: D\ncsv: cards.csv\n", encoding="utf-8")
    return path


def _count_opens(monkeypatch, build) -> dict[str, int]:
    """How often each art file is opened (os.open, open, PIL's Image.open) while ``build`` runs."""
    import builtins

    counts: dict[str, int] = {}

    def note(target) -> None:
        if isinstance(target, (str, Path)) and Path(target).suffix == ".png":
            counts[Path(target).name] = counts.get(Path(target).name, 0) + 1

    real_os_open, real_open, real_image_open = os.open, builtins.open, Image.open

    def os_open(path, *args, **kwargs):
        note(path)
        return real_os_open(path, *args, **kwargs)

    def any_open(file, *args, **kwargs):
        note(file)
        return real_open(file, *args, **kwargs)

    def image_open(fp, *args, **kwargs):
        note(fp)
        return real_image_open(fp, *args, **kwargs)

    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(builtins, "open", any_open)
    monkeypatch.setattr(Image, "open", image_open)
    build()
    monkeypatch.undo()
    return counts


def test_an_image_is_opened_as_often_for_200_faces_as_for_2(tmp_path, monkeypatch):
    """Each art file is read by the loader's check and by the PDF writer's embedding, once each,
    however many faces show it (it used to be opened again for every face)."""
    counts = {}
    for cards in (2, 200):
        folder = tmp_path / str(cards)
        folder.mkdir()
        deck = _image_deck(folder, cards)
        counts[cards] = _count_opens(monkeypatch, lambda deck=deck, out=folder / "out":
                                     build_decks([str(deck)], out, BuildSettings()))
    assert counts[2] == counts[200]
    assert set(counts[200]) == {"a0.png", "a1.png"}
    assert all(n <= 2 for n in counts[200].values()), counts[200]


def test_art_paths_are_resolved_once_per_name_not_once_per_card(tmp_path, monkeypatch):
    from cardgen import deck as deck_module
    from cardgen.render import layout

    looked_up: list[str] = []
    real = deck_module.resolve_art
    monkeypatch.setattr(deck_module, "resolve_art", lambda name, *a: looked_up.append(name) or real(name, *a))
    found_again: list[str] = []
    real_find = layout._find_art
    monkeypatch.setattr(layout, "_find_art", lambda name, env: found_again.append(name) or real_find(name, env))
    build_decks([str(_image_deck(tmp_path, 300))], tmp_path / "out", BuildSettings())
    assert sorted(looked_up) == ["art/a0.png", "art/a1.png"]
    assert found_again == []  # the layout's {image} is the loader's file, already resolved and checked


def test_the_links_followed_do_not_grow_with_the_deck(tmp_path, monkeypatch):
    """Resolving a path walks it with an ``lstat`` per folder: page labels resolved the bundled font's
    path and every card its art's, 102,000 calls for 5,000 cards. Now a build resolves each path once."""
    import posixpath

    calls = {}
    for cards in (20, 400):
        folder = tmp_path / str(cards)
        folder.mkdir()
        deck = _image_deck(folder, cards)
        counter = [0]
        real = os.lstat

        def lstat(path, *args, counter=counter, real=real, **kwargs):
            counter[0] += 1
            return real(path, *args, **kwargs)

        monkeypatch.setattr(os, "lstat", lstat)
        assert posixpath.os is os  # realpath looks os.lstat up when it runs
        build_decks([str(deck)], folder / "out", BuildSettings())
        monkeypatch.undo()
        calls[cards] = counter[0]
    assert calls[400] <= calls[20] + 20, calls  # a few for the output files, none per card or page


def test_pngs_are_written_with_zlib_s_run_length_strategy(tmp_path):
    """As fast as zlib's fastest level, and smaller on flat colour (about 65% of the encoding time of
    Pillow's default on photo-like cards); PNG is lossless, so the pixels are the same whatever it is."""
    from cardgen.export.cards import PNG_OPTIONS

    assert PNG_OPTIONS == {"compress_type": zlib.Z_RLE}
    deck = _image_deck(tmp_path, 3)
    build_decks([str(deck)], tmp_path / "out", BuildSettings(formats=("png",), validate=False, dpi=100))
    files = sorted((tmp_path / "out" / "d").glob("*.png"))
    assert len(files) == 4  # three faces and the back
    for file in files:
        with Image.open(file) as img:
            again = tmp_path / "again.png"
            img.save(again, format="PNG", dpi=img.info["dpi"], compress_type=zlib.Z_RLE)
            pixels = img.tobytes()
        assert b"".join(_chunks(file.read_bytes(), b"IDAT")) == b"".join(_chunks(again.read_bytes(), b"IDAT"))
        with Image.open(again) as img:
            assert img.tobytes() == pixels


def _chunks(data: bytes, kind: bytes) -> list[bytes]:
    out, at = [], 8
    while at < len(data):
        length, name = struct.unpack(">I4s", data[at:at + 8])
        if name == kind:
            out.append(data[at + 8:at + 8 + length])
        at += 12 + length
    return out


def test_the_shipped_layouts_read_the_same_by_libyaml_as_by_pyyaml():
    """The built-in layouts, read by every build, are composed by libyaml when PyYAML has it: the
    same data and the same line and column for every value."""
    import yaml

    from cardgen.resources import bundled
    from cardgen.yamlio import load_located, parse_located

    for path in sorted(bundled("layouts").glob("*.yaml")):
        fast = load_located(path, path.name, shipped=True)
        plain = parse_located(path.read_text(encoding="utf-8"), path.name, yaml.SafeLoader)
        assert fast.data == plain.data and fast.locations == plain.locations


def test_a_shipped_file_with_a_mistake_is_reported_in_pyyaml_s_words(tmp_path):
    import pytest

    from cardgen.errors import CardgenError
    from cardgen.yamlio import load_located

    (tmp_path / "bad.yaml").write_text("layouts:\n  a: [1, 2\n", encoding="utf-8")
    with pytest.raises(CardgenError) as fast:
        load_located(tmp_path / "bad.yaml", shipped=True)
    with pytest.raises(CardgenError) as plain:
        load_located(tmp_path / "bad.yaml")
    assert str(fast.value) == str(plain.value)
