"""The deck's game data: which asset each card is a part of, the asset's part list, and the
bundled deck's assets the engine plays when given none.

The bottom of the package: the rules take their default assets from here (one source for the
engine and the printed deck), and printing.py reads and checks a deck with the same readers.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ...errors import CardgenError


def bundled_assets() -> dict[str, tuple[str, ...]]:
    """The bundled deck's assets, {name: part names}, as ``game_from_deck`` reads them."""
    return dict(_bundled_asset_items())


@functools.lru_cache(maxsize=1)
def _bundled_asset_items() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Read once per process: engines are made often (a playtest, every test)."""
    from .. import bundled_deck

    return tuple(deck_assets(bundled_deck("dotcombust")).items())


def deck_assets(deck: Any) -> dict[str, tuple[str, ...]]:
    """Each asset's printed part list, in the order the deck first shows it."""
    assets: dict[str, tuple[str, ...]] = {}
    for card in deck.cards:
        if card.kind == "asset" and asset_of(card) not in assets:
            assets[asset_of(card)] = parts_of(card)
    return assets


def asset_of(card: Any) -> str:
    """The asset an asset card is a part of (the deck's ``assets`` put it in the card's fields)."""
    return str(card.fields.get("asset", ""))


def parts_of(card: Any) -> tuple[str, ...]:
    """The part names of the asset an asset card belongs to."""
    return tuple(card.fields.get("parts", ()))


def asset_table(assets: Any) -> tuple[list[str], list[int], list[tuple[str, ...]]]:
    """Names, sizes and part names from {name: size}, {name: parts} or [sizes]."""
    if isinstance(assets, Mapping):
        items = list(assets.items())
    else:
        items = [(f"Asset {i + 1}", size) for i, size in enumerate(assets)]
    names, sizes, parts = [], [], []
    for name, spec in items:
        if isinstance(spec, int):
            part_names = tuple(f"{name} part {i + 1}" for i in range(spec))
        else:
            part_names = tuple(spec)
        names.append(name)
        sizes.append(len(part_names))
        parts.append(part_names)
    return names, sizes, parts


def keep_assets(names: list[str], keep: int) -> list[str]:
    """The smaller deck: the first ``keep`` assets (0: all of them)."""
    if keep > len(names):
        raise CardgenError(f"dotcombust: option 'assets' must be at most "
                           f"{len(names)} (the deck has {len(names)} assets), got {keep}")
    return list(names[:keep] if keep else names)
