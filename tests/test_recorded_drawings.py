"""Drawings as data, after Squib's regression specs: every layout-drawn card kind's ops, recorded.

Each case lays one card out and compares its drawing ops (rounded) with the
record in tests/recorded/. A change to a layout, the text fitting or a
bundled deck shows up as a readable diff of what moved. After a change you
meant, rewrite the records and read the diff before committing:

    CARDGEN_RECORD=1 .venv/bin/python -m pytest tests/test_recorded_drawings.py
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import ROOT

from cardgen.prepare import BuildSettings, deck_faces, deck_template, prepare
from cardgen.render.shaping import Glyphs
from cardgen.resolve import load_resolved

RECORDED = Path(__file__).resolve().parent / "recorded"

CASES = {
    # name: (deck, settings, card id, side)
    "dotcombust-asset": ("dotcombust", {}, "server-farm-rack-of-blades", "face"),
    "dotcombust-reference": ("dotcombust", {}, "reference-passing", "face"),
    "dotcombust-back": ("dotcombust", {}, "server-farm-rack-of-blades", "back"),
    "clusterfuck-status-1": ("clusterfuck", {"players": 8}, "status-1", "face"),
    "clusterfuck-status-4": ("clusterfuck", {"players": 8}, "status-4", "face"),
    "common-carrier-back-player-1": ("common-carrier", {}, "end-vertical", "back"),
    "argonauts-hero": (str(ROOT / "examples" / "argonauts" / "argonauts.yaml"), {}, "jason", "face"),
    "argonauts-monster-back": (str(ROOT / "examples" / "argonauts" / "argonauts.yaml"), {}, "hydra", "back"),
    # the built-in layout `playing`: the bottom-right index turned 180 degrees
    "clusterfuck-playing": ("clusterfuck", {"standard_deck": "true"}, "10-of-hearts", "face"),
    # JOKER turned 90 and 270 degrees, the hat mirrored
    "poker-joker-black": (str(ROOT / "examples" / "poker" / "poker.yaml"), {}, "joker-black", "face"),
}


def plain(value):
    """Ops as JSON: numbers to 0.01, paths by file name, a text op's shaped runs by their glyph ids
    in drawing order (however they are cut into runs)."""
    if isinstance(value, Glyphs):
        return list(value.ids)
    if isinstance(value, tuple) and value and all(isinstance(v, Glyphs) for v in value):
        return [i for glyphs in value for i in glyphs.ids]
    if isinstance(value, float):
        return round(value, 2) + 0.0
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, Path):
        return value.name
    return value


def recorded_ops(deck: str, options: dict, card_id: str, side: str) -> list:
    settings = BuildSettings(options={k: str(v) for k, v in options.items()})
    built = prepare(load_resolved(deck), settings)
    faces = deck_faces(built, deck_template(built, settings))
    card = next(c for c in built.cards if c.id == card_id and c.owner in (-1, 0))
    key = faces.face(card) if side == "face" else faces.back(card)
    return plain(faces.drawings[key].ops)


@pytest.mark.parametrize("name", sorted(CASES))
def test_drawing_matches_its_record(name):
    ops = recorded_ops(*CASES[name])
    path = RECORDED / f"{name}.json"
    text = "[\n" + ",\n".join(json.dumps(op, ensure_ascii=False) for op in ops) + "\n]\n"
    if os.environ.get("CARDGEN_RECORD"):
        RECORDED.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.is_file(), f"no record for {name}: run with CARDGEN_RECORD=1 to write it"
    expected = path.read_text(encoding="utf-8").splitlines()
    assert text.splitlines() == expected
