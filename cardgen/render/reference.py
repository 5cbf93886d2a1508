"""Rules and reference cards: lines filled in from the rule options.

A line may say ``when: option`` or ``unless: option``; ``{option}`` in the
text is replaced by the option's value, so the card states the target and
the optional rules actually in use. The built-in ``reference`` layout draws
the lines as a bulleted list.
"""
from __future__ import annotations

import re


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
    if "{" not in words:  # most cards' title and text
        return words
    return _PLACEHOLDER.sub(lambda m: str(options[m.group(1)]) if m.group(1) in options else m.group(0), words)
