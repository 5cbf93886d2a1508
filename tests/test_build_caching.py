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


def test_the_loader_checks_a_png_without_decoding_its_pixels(tmp_path, monkeypatch):
    """A PNG's check inflates its stream and reads its rows' filters, but decodes no pixel: the PDF
    writer's embedding is the one decode (it used to be decoded twice). A PNG with text after its
    pixels, which Pillow reads only by decoding them, is still decoded by the check."""
    from PIL import ImageFile

    from cardgen import deck as deck_module

    decoded: list[str] = []
    real = ImageFile.ImageFile.load
    monkeypatch.setattr(ImageFile.ImageFile, "load", lambda self: decoded.append(self.format) or real(self))
    image = Image.new("RGB", (48, 36), (200, 40, 90))
    ex = Image.Exif()
    ex[0x0112] = 6
    image.save(tmp_path / "plain.png", exif=ex)
    data = (tmp_path / "plain.png").read_bytes()
    text = b"Comment\0late"
    late = struct.pack(">I", len(text)) + b"tEXt" + text + struct.pack(">I", zlib.crc32(b"tEXt" + text))
    (tmp_path / "late.png").write_bytes(data[:-12] + late + data[-12:])
    deck_module._GOOD_IMAGES.clear()
    facts = deck_module.check_image(tmp_path / "plain.png", "plain.png", None)
    assert decoded == []
    assert (facts.width, facts.height, facts.turn, facts.jpeg) == (48, 36, 6, False)
    assert deck_module.check_image(tmp_path / "late.png", "late.png", None).turn == 6
    assert decoded == ["PNG"]
    # an interlaced PNG (a pixel, Adam7): its rows are left to Pillow too
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 1)
    (tmp_path / "interlaced.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + b"".join(struct.pack(">I", len(body)) + kind + body
                                       + struct.pack(">I", zlib.crc32(kind + body))
                                       for kind, body in ((b"IHDR", header), (b"IDAT", zlib.compress(b"\0\1\2\3")),
                                                          (b"IEND", b""))))
    assert deck_module.check_image(tmp_path / "interlaced.png", "interlaced.png", None).width == 1
    assert len(decoded) > 1 and set(decoded) == {"PNG"}


def test_a_png_whose_rows_are_short_or_name_no_filter_is_refused(tmp_path):
    import pytest

    from cardgen import deck as deck_module
    from cardgen.errors import CardgenError

    def png(rows: bytes) -> bytes:
        def chunk(kind: bytes, body: bytes) -> bytes:
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

        header = struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows))
                + chunk(b"IEND", b""))

    for name, rows, reason in (("short.png", b"\0" * 100, "truncated"),
                               ("filter.png", (b"\x07" + b"\0" * 30) * 10, "unrecognized data stream")):
        (tmp_path / name).write_bytes(png(rows))
        with pytest.raises(CardgenError, match=f"image '{name}' is not a readable PNG or JPEG image.*{reason}"):
            deck_module.check_image(tmp_path / name, name, None)


def test_the_png_check_inflates_no_more_than_the_rows_need():
    """A 10 x 10 PNG whose stream inflates to 64 MB after its rows (a few kB on disk) is left to the
    full decode, which reads the rows only: the check itself never holds more than the rows."""
    import tracemalloc

    from cardgen.deck import _png_pixels_whole

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    rows = b"".join(b"\0" + bytes(range(30)) for _ in range(10))
    header = struct.pack(">IIBBBBB", 10, 10, 8, 2, 0, 0, 0)
    for extra, whole in ((0, True), (64 << 20, False)):
        data = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(rows + b"\0" * extra, 9)) + chunk(b"IEND", b""))
        tracemalloc.start()
        assert _png_pixels_whole(data, 10, 10) is whole
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < len(data) + (1 << 20), peak


def test_a_layout_s_texts_are_cut_into_fields_once_per_text_not_once_per_card(tmp_path, monkeypatch):
    from cardgen import layouts

    layouts._template.cache_clear()
    build_decks([str(_image_deck(tmp_path, 300))], tmp_path / "out", BuildSettings())
    info = layouts._template.cache_info()
    assert info.misses < 40, info  # the layouts' distinct texts, not one per card
    assert info.hits > 300 * 4, info


def test_a_raster_s_size_is_asked_once_per_build_not_once_per_face(tmp_path, monkeypatch):
    from cardgen.render import layout

    asked: list[str] = []
    real = layout.raster_size
    monkeypatch.setattr(layout, "raster_size", lambda path: asked.append(path.name) or real(path))
    build_decks([str(_image_deck(tmp_path, 300))], tmp_path / "out", BuildSettings())
    assert sorted(asked) == ["a0.png", "a1.png"]


def test_a_layout_s_conditions_are_read_once_per_condition_and_backs_once_per_layout(tmp_path, monkeypatch):
    from cardgen import layouts
    from cardgen.render.faces import Faces

    layouts._condition.cache_clear()
    counted: list[str] = []
    real = Faces._back_reads

    def back_reads(self, layout):
        if layout.name not in self._backs_read:
            counted.append(layout.name)
        return real(self, layout)

    monkeypatch.setattr(Faces, "_back_reads", back_reads)
    build_decks([str(_image_deck(tmp_path, 300))], tmp_path / "out", BuildSettings())
    info = layouts._condition.cache_info()
    assert info.misses < 20 and info.hits > 300, info
    assert len(counted) == len(set(counted)) == 1  # the one back layout, worked out once


def test_a_build_leaves_the_objects_older_than_it_to_the_collector_only_after_it(tmp_path, monkeypatch):
    """The objects alive when a build begins are frozen while it runs (a full collection need not
    walk every imported module again) and handed back when it ends, even when it fails."""
    import gc

    import pytest

    from cardgen import build as build_module
    from cardgen.errors import CardgenError

    seen: list[int] = []
    real = build_module._build_decks
    monkeypatch.setattr(build_module, "_build_decks", lambda *a: seen.append(gc.get_freeze_count()) or real(*a))
    build_decks([str(_image_deck(tmp_path, 20))], tmp_path / "out", BuildSettings())
    assert seen[0] > 1000 and gc.get_freeze_count() == 0
    (tmp_path / "bad.yaml").write_text("deck: bad\nname: B\ncards: 3\n", encoding="utf-8")
    with pytest.raises(CardgenError):
        build_decks([str(tmp_path / "bad.yaml")], tmp_path / "out2", BuildSettings())
    assert gc.get_freeze_count() == 0


def test_a_spreadsheet_s_cells_are_located_when_a_message_names_one(tmp_path, monkeypatch):
    """A 300-row CSV of 4 columns locates each row (the card's location) and the cell of its image
    (the loader's check may name it), not all 1,200 cells and the rows (1,500 before); a bad cell is
    still named by line and column."""
    import pytest

    from cardgen import deck as deck_module
    from cardgen.errors import CardgenError, Location

    made = [0]

    def location(*args, **kwargs):
        made[0] += 1
        return Location(*args, **kwargs)

    monkeypatch.setattr(deck_module, "Location", location)
    deck_module.load_deck(_image_deck(tmp_path, 300))
    assert made[0] <= 2 * 300 + 20, made[0]
    (tmp_path / "cards.csv").write_text("id,title,copies\na,A,1\nb,B,many\n", encoding="utf-8")
    with pytest.raises(CardgenError) as info:
        deck_module.load_deck(tmp_path / "d.yaml")
    assert str(info.value.location).endswith("cards.csv:3:3")  # line 3, the third column
