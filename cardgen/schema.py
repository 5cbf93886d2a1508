"""The deck file format, as one JSON Schema.

The loader checks every deck against this schema (with file:line:column on
each failure) and ``cardgen schema`` prints it for editors, so the format is
written down exactly once. docs/deck-format.md explains it in prose.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
LENGTH_PATTERN = r"^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)\s*(mm|in|cm|pt)$"
#: kinds a deck file may write in ``cards``; the others are made by the build
CARD_KINDS = ["tile", "reference", "generic"]
#: every kind cardgen itself makes: those a deck writes, asset parts (from ``assets``) and playing cards
#: (from ``standard_deck``); a game adds the kinds it makes (``GameInfo.card_kinds``)
BUILT_KINDS = (*CARD_KINDS, "asset", "playing")
#: an element's ``mirror``: horizontal swaps left and right, vertical top and bottom
MIRRORS = ("horizontal", "vertical")
#: an element's ``rotate``, in degrees clockwise as the card is seen, from -MAX_TURN to MAX_TURN
MAX_TURN = 360
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
_name = {"type": "string", "pattern": ID_PATTERN, "maxLength": 60,
         "description": "lower-case letters, digits, - and _"}
_span = {"type": ["string", "number"], "maxLength": 60,
         "description": "a length: 3mm, 0.5in, 12pt, 50% of the card, or a sum such as 100% - 6mm"}
_size = {"type": ["string", "number"], "maxLength": 20, "description": "a text size in points, e.g. 9 or 9pt"}
_condition = {"type": "string", "maxLength": 80,
              "description": "a field or rule option: shown when it is set (NAME) or equal (NAME=VALUE)"}
_layout_color = {"type": "string", "minLength": 1, "maxLength": 200,
                 "description": "a colour, a {field}, or lighten(C, 0.3), darken(C, 0.3), mix(C1, C2, 0.5), ink_on(C)"}

ELEMENT = {
    "type": "object",
    "additionalProperties": False,
    "description": "one thing drawn on the card: text, rect, ellipse, line, image, icon or list",
    "properties": {
        "name": {"type": "string", "minLength": 1, "maxLength": 60,
                 "description": "names the element, so a layout that extends this one can override it"},
        "type": {"type": "string", "enum": ["text", "rect", "ellipse", "line", "image", "icon", "list"]},
        "x": _span, "y": _span, "width": _span, "height": _span,
        "anchor": {"type": "string", "enum": ["top-left", "top", "top-right", "left", "center", "right",
                                              "bottom-left", "bottom", "bottom-right"],
                   "description": "which point of the element x and y place (default top-left)"},
        "area": {"type": "string", "enum": ["trim", "safe"],
                 "description": "what x, y and % measure from: the card's trim (default) or its safe area"},
        "bleed": {"type": "boolean", "description": "sides on the trim reach into the bleed (backgrounds)"},
        "rotate": {"type": "number", "minimum": -MAX_TURN, "maximum": MAX_TURN,
                   "description": "degrees the element turns clockwise about its box's centre (after mirror)"},
        "mirror": {"type": "string", "enum": list(MIRRORS),
                   "description": "flip the element in its box: horizontal swaps left and right, vertical "
                                  "top and bottom"},
        "when": _condition,
        "unless": _condition,
        "remove": {"type": "boolean", "description": "drop this inherited element"},
        "text": {"type": ["string", "number"], "maxLength": 4000,
                 "description": "text with {fields}, <b>, <i>, <color red>, <br> and :icon:"},
        "font": {"type": "string", "minLength": 1, "maxLength": 60, "description": "a font family of the deck"},
        "size": _size,
        "min_size": _size,
        "color": _layout_color,
        "align": {"type": "string", "enum": ["start", "end", "left", "center", "right"],
                  "description": "start (the default) and end follow the paragraph's direction; left, center "
                                 "and right do not"},
        "direction": {"type": "string", "enum": ["auto", "ltr", "rtl"],
                      "description": "each paragraph's direction: auto (from its first letter, the default), "
                                     "ltr or rtl"},
        "valign": {"type": "string", "enum": ["top", "middle", "bottom"]},
        "leading": {"type": "number", "minimum": 0.8, "maximum": 3},
        "group": {"type": "string", "minLength": 1, "maxLength": 60,
                  "description": "text elements of one group share one size on a card"},
        "max_lines": {"type": "integer", "minimum": 1, "maximum": 100},
        "bold": {"type": "boolean"},
        "italic": {"type": "boolean"},
        "fill": _layout_color,
        "stroke": _layout_color,
        "stroke_width": _span,
        "radius": _span,
        "file": {"type": "string", "minLength": 1, "maxLength": 400,
                 "description": "a PNG, JPEG or SVG file beside the deck or in the bundled art, or a {field}"},
        "fit": {"type": "string", "enum": ["contain", "cover", "stretch"]},
        "icon": {"type": "string", "minLength": 1, "maxLength": 60,
                 "description": "a built-in or deck icon, or a {field}"},
        "items": {"type": "string", "minLength": 1, "maxLength": 400,
                  "description": "the list's entries: a {field} holding a list, or lines of text"},
        "mark": {"type": "string", "maxLength": 400, "description": "the entry drawn marked (bold, ticked)"},
        "marker": {"type": "string", "enum": ["bullet", "check", "none"]},
        "columns": {"type": "integer", "minimum": 1, "maximum": 4},
        "rows": {"type": "integer", "minimum": 1, "maximum": 40,
                 "description": "at most this many entries a column; more make another column"},
        "gap": {"type": "number", "minimum": 0, "maximum": 3,
                "description": "space between entries, in line heights"},
    },
}

LAYOUT = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "extends": {"type": "string", "minLength": 1, "maxLength": 60,
                    "description": "a layout whose elements this one starts from"},
        "elements": {"type": "array", "items": ELEMENT, "maxItems": 100},
    },
}

LAYOUTS = {"type": "object", "additionalProperties": LAYOUT,
           "description": "named layouts; a card names its layout, or takes the one named after its kind"}

#: cardgen's own layout files (cardgen/layouts/*.yaml)
LAYOUTS_FILE_SCHEMA = {"type": "object", "required": ["layouts"], "additionalProperties": False,
                       "properties": {"layouts": LAYOUTS}}

_font_file = {"type": "string", "minLength": 1, "maxLength": 400,
              "description": "a font file (.ttf, .otf, .ttc or .otc) beside the deck or in the bundled art folder"}
_font_face = {"anyOf": [_font_file,
                        {"type": "object", "required": ["file"], "additionalProperties": False,
                         "properties": {"file": _font_file,
                                        "index": {"type": "integer", "minimum": 0, "maximum": 255,
                                                  "description": "the face in a collection (.ttc, .otc)"}}}],
              "description": "a font file, or {file, index} for one face of a collection"}
FONT = {
    "anyOf": [
        _font_file,
        {"type": "object", "additionalProperties": False,
         "properties": {"regular": _font_face, "bold": _font_face, "italic": _font_face,
                        "bold_italic": _font_face,
                        "system": {"type": "string", "minLength": 1, "maxLength": 100,
                                   "description": "a font family installed on this machine, found by fontconfig"},
                        "features": {"type": "object", "maxProperties": 40,
                                     "additionalProperties": {"anyOf": [{"type": "boolean"},
                                                                        {"type": "integer", "minimum": 0,
                                                                         "maximum": 99}]},
                                     "description": "OpenType features: on, off or an alternate's number"}}},
    ],
    "description": "a font file, a mapping of regular, bold, italic and bold_italic files, or {system: family}; "
                   "either may add features",
}

_field_value = {"anyOf": [_scalar, {"type": "array", "maxItems": 40,
                                    "items": {"type": ["string", "integer", "number"]}}],
                "description": "text, a number, true/false, or a list"}

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
        "layout": {**_name, "description": "the layout this card is drawn with"},
        "back": {**_name, "description": "a layout drawn as this card's back"},
        "fields": {"type": "object", "additionalProperties": _field_value, "maxProperties": 100,
                   "description": "the card's own data, filled into its layout as {name}"},
        "shared": {"type": "boolean",
                   "description": "per-player decks: print this card once, not once per player"},
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
        "author": {"type": "string", "minLength": 1, "maxLength": 120,
                   "description": "who made the deck: the PDFs' Author"},
        "game": {"type": "string", "pattern": ID_PATTERN, "maxLength": 60,
                 "description": "the game: a bundled game, a game an installed plug-in adds, or none"},
        "orientation": {"type": "string", "enum": ["landscape", "portrait"],
                        "description": "which way the card stands; by default the way its card size does"},
        "card": {"type": "string", "minLength": 1, "maxLength": 40,
                 "description": "the card size: business, business-eu, poker, bridge, mini, tarot, euro, "
                                "square, or WIDTHxHEIGHT with a unit (63x88mm, 2.5x3.5in); default business"},
        "paper": {"type": "string", "minLength": 1, "maxLength": 40,
                  "description": "the paper to print on, the cards imposed automatically: letter, a4, legal, "
                                 "a3, tabloid, or WIDTHxHEIGHT with a unit; --paper and --sheet override it"},
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
                "layout": {**_name, "description": "the layout the backs are drawn with (default: back)"},
            },
        },
        "backs": {"type": "object", "additionalProperties": _name,
                  "description": "a back layout per card kind or per layout name"},
        "shared_cards": {"type": "string", "enum": ["each", "separate"],
                         "description": "per-player decks: shared cards go in each player's PDF, or one "
                                        "separate PDF"},
        "layouts": LAYOUTS,
        "fonts": {"type": "object", "additionalProperties": FONT, "maxProperties": 20,
                  "description": "font families by name"},
        "font_fallback": {"type": "array", "maxItems": 10,
                          "items": {"type": "string", "minLength": 1, "maxLength": 60},
                          "description": "families tried in order for every character; DejaVu Sans comes last"},
        "icons": {"type": "object", "maxProperties": 200,
                  "additionalProperties": {"type": "string", "minLength": 1, "maxLength": 400,
                                           "description": "a PNG, JPEG or SVG file"},
                  "description": "icons of the deck, by name: :name: in text, or an icon element"},
        "xlsx": {"anyOf": [
            {"type": "string", "minLength": 1, "maxLength": 400},
            {"type": "object", "required": ["file"], "additionalProperties": False,
             "properties": {"file": {"type": "string", "minLength": 1, "maxLength": 400},
                            "sheet": {"type": "string", "minLength": 1, "maxLength": 100}}},
        ], "description": "an XLSX workbook of cards (a file, or file and sheet), relative to the deck file"},
        "options": {"type": "object", "additionalProperties": _scalar},
        "style": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"accent": _color, "safe_margin": {"type": "string", "pattern": LENGTH_PATTERN,
                                                              "description": "a length such as 3mm"}},
        },
        "cards": {"type": "array", "items": CARD, "maxItems": MAX_CARDS},
        "csv": {"type": "string", "minLength": 1, "maxLength": 400,
                "description": "a CSV file of cards, one row each, relative to the deck file"},
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


def schema_json(games: Iterable[str] = ()) -> str:
    """The schema as editors read it, naming ``games`` (the bundled game ids, from the game registry)
    where a deck names its game; the loader itself takes any id there and the resolve step checks it."""
    schema: dict[str, Any] = DECK_SCHEMA
    names = ", ".join(games)
    if names:
        game = {**schema["properties"]["game"],
                "description": f"the game: {names}, a game an installed plug-in adds, or none"}
        schema = {**schema, "properties": {**schema["properties"], "game": game}}
    return json.dumps(schema, indent=2)
