"""The deck file format, as one JSON Schema.

The loader checks every deck against this schema (with file:line:column on
each failure) and ``cardgen schema`` prints it for editors, so the format is
written down exactly once. docs/deck-format.md explains it in prose.
"""
from __future__ import annotations

import json

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
LENGTH_PATTERN = r"^-?(\d+(\.\d*)?|\.\d+)\s*(mm|in|cm|pt)$"
#: kinds a deck file may write in ``cards``; the others are made by the build
CARD_KINDS = ["tile", "reference", "generic"]
GAMES = ["common-carrier", "dotcombust", "clusterfuck", "none"]
MAX_COPIES = 1000
MAX_CARDS = 2000

_text = {"type": "string", "maxLength": 2000}
_color = {"type": "string", "minLength": 1, "maxLength": 40,
          "description": "a CSS colour name or #rrggbb"}
_icon = {"type": "string", "minLength": 1, "maxLength": 40,
         "description": "the name of a built-in icon (see `cardgen list`)"}
_image = {"type": "string", "minLength": 1, "maxLength": 400,
          "description": "a PNG or JPEG file, relative to the deck file or the bundled art folder"}
_edge = {"type": "string", "enum": ["line", "blank"]}
_scalar = {"type": ["string", "integer", "number", "boolean"]}

_line = {
    "anyOf": [
        {"type": "string", "maxLength": 400},
        {
            "type": "object",
            "required": ["text"],
            "additionalProperties": False,
            "properties": {
                "text": {"type": "string", "maxLength": 400},
                "when": {"type": "string", "description": "a rule option; the line is printed only when it is on"},
                "unless": {"type": "string", "description": "a rule option; the line is printed only when it is off"},
            },
        },
    ],
    "description": "text, or a mapping with text and when/unless",
}

CARD = {
    "type": "object",
    "required": ["id"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": ID_PATTERN, "maxLength": 60,
               "description": "lower-case letters, digits, - and _"},
        "kind": {"type": "string", "enum": CARD_KINDS,
                 "description": "tile, reference or generic (asset, status and playing cards are made "
                                "from assets, status and standard_deck)"},
        "copies": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES},
        "title": _text,
        "text": _text,
        "icon": _icon,
        "image": _image,
        "color": _color,
        "gray": {"type": "boolean"},
        "edges": {
            "type": "object",
            "required": ["top", "right", "bottom", "left"],
            "additionalProperties": False,
            "properties": {"top": _edge, "right": _edge, "bottom": _edge, "left": _edge},
        },
        "lines": {"type": "array", "items": _line, "maxItems": 40},
        "when": {"type": "string", "description": "a rule option; the card is printed only when it is on"},
    },
}

ASSET = {
    "type": "object",
    "required": ["name", "parts"],
    "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 60},
        "code": {"type": "string", "minLength": 1, "maxLength": 3},
        "color": _color,
        "icon": _icon,
        "parts": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 60},
                  "minItems": 1, "maxItems": 20},
    },
}

DECK_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://cardgen.example/deck.schema.json",
    "title": "cardgen deck",
    "description": "A deck of business-card sized cards for cardgen.",
    "type": "object",
    "required": ["deck", "name"],
    "additionalProperties": False,
    "properties": {
        "deck": {"type": "string", "pattern": ID_PATTERN, "maxLength": 60,
                 "description": "the deck id: lower-case letters, digits, - and _"},
        "name": {"type": "string", "minLength": 1, "maxLength": 80},
        "game": {"type": "string", "enum": GAMES},
        "orientation": {"type": "string", "enum": ["landscape", "portrait"]},
        "per_player": {"type": "boolean"},
        "players": {
            "type": "array",
            "minItems": 1,
            "maxItems": 12,
            "items": {
                "type": "object",
                "required": ["name", "color"],
                "additionalProperties": False,
                "properties": {"name": {"type": "string", "minLength": 1, "maxLength": 40}, "color": _color},
            },
        },
        "back": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "title": _text,
                "subtitle": _text,
                "icon": _icon,
                "image": _image,
                "color": _color,
                "tint": {"type": "string", "enum": ["player", "none"]},
            },
        },
        "options": {"type": "object", "additionalProperties": _scalar},
        "style": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"accent": _color, "safe_margin": {"type": "string", "pattern": LENGTH_PATTERN,
                                                              "description": "a length such as 3mm"}},
        },
        "cards": {"type": "array", "items": CARD, "maxItems": MAX_CARDS},
        "csv": {"type": "string", "minLength": 1, "maxLength": 400,
                "description": "a CSV file of generic cards, relative to the deck file"},
        "assets": {"type": "array", "items": ASSET, "maxItems": 100},
        "status": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"text": _text, "color": _color},
        },
        "standard_deck": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"when": {"type": "string",
                                    "description": "a rule option; the 52 cards are printed only when it is on"},
                           "text": {"type": "string", "maxLength": 120}},
        },
    },
}


def schema_json() -> str:
    return json.dumps(DECK_SCHEMA, indent=2)
