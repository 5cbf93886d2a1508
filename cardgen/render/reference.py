"""Rules and reference cards: a title and lines filled in from the rule options.

A line may say ``when: option`` or ``unless: option``; ``{option}`` in the
text is replaced by the option's value, so the card states the target and
the optional rules actually in use.
"""
from __future__ import annotations

import re

from . import text
from .common import INK, band, fitted


def draw(canvas, card, ctx) -> None:
    w, h, s = ctx.width, ctx.height, ctx.safe
    band_h = h * 0.22
    band(canvas, ctx, h, band_h, ctx.accent)
    fitted(canvas, ctx, card.id, "title", card.title or ctx.deck_name, text.BOLD, band_h * 0.5, s,
           h - band_h * 0.22, w - 2 * s, band_h * 0.7, color=(1, 1, 1), max_lines=1)
    items = ([fill(card.text, ctx.options)] if card.text else []) + reference_lines(card, ctx.options)
    indent = 7.0
    top, height = h - band_h - 4, h - band_h - 4 - s
    blocks, fits = text.fit_list(items, text.REGULAR, 8, w - 2 * s, height, indent)
    if not fits:
        ctx.text_problem(card.id, f"rules text does not fit in {w - 2 * s:.0f} x {height:.0f} pt "
                                  f"even at {text.MIN_SIZE:g} pt")
    canvas.setFillColorRGB(*INK)
    for block in blocks:
        canvas.setFont(text.BOLD, block.size)
        canvas.drawString(s, top - block.size * 0.93, "\u2022")
        top = text.draw_block(canvas, block, text.REGULAR, s + indent, top) - block.size * 0.35


def reference_lines(card, options: dict) -> list[str]:
    """The card's lines that apply under ``options``, filled in."""
    return [fill(line, options) for line, when, unless in card.lines
            if (not when or option_on(when, options)) and not (unless and option_on(unless, options))]


def option_on(condition: str, options: dict, default: bool = False) -> bool:
    """``"hole_card"`` is on when truthy; ``"tie_resolution=1"`` when equal; ``""`` is ``default``."""
    if not condition:
        return default
    key, sep, value = condition.partition("=")
    if not sep:
        return bool(options.get(key))
    return str(options.get(key.strip())).lower() == value.strip().lower()


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def fill(words: str, options: dict) -> str:
    """Replace ``{option}`` by its value; any other brace is printed as written."""
    return _PLACEHOLDER.sub(lambda m: str(options[m.group(1)]) if m.group(1) in options else m.group(0), words)
