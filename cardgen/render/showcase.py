"""Pictures of several cards for a rulebook or a crowdfunding page: a fanned hand and a showcase row.

Pure image code: the cards arrive as PIL images (the same rasters ``build``
writes as PNGs) and leave as one RGBA picture on a transparent background.
Every length is in points times ``scale`` (pixels per point, ``dpi / 72``),
so a picture at twice the dpi is the same picture twice the size.

The hand turns each card about one point below the cards, as a player holds
them: the cards lean 10 degrees apart (closer when there are many, the whole
fan at most 80 degrees), each lying over the one to its left and casting a
soft shadow on it. The showcase stands the cards in a row, each turned 30
degrees about its upright axis and seen in perspective (its near edge full
height, its far edge smaller), on a glossy floor that reflects them, with a
soft shadow behind each: Squib's ``showcase`` (andymeneely/squib,
lib/squib/graphics/showcase.rb) is the model, drawn here with one projective
transform per card instead of Squib's strips.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFilter

#: the hand: degrees between neighbouring cards, the widest fan, and the pivot's distance from each
#: card's centre in card lengths (the longer side)
HAND_STEP = 10.0
HAND_SPREAD = 80.0
HAND_PIVOT = 1.2
#: the showcase: how far each card turns about its upright axis (degrees), the camera's distance in
#: card widths, the room between cards (a share of a card's drawn width), and the reflection: how
#: much of the card it shows and how strongly at the card's foot
SHOWCASE_TURN = 30.0
SHOWCASE_CAMERA = 2.0
SHOWCASE_GAP = 0.08
REFLECTION_SHARE = 0.3
REFLECTION_STRENGTH = 0.28
#: shadows, in points: blur radius, offset (x right, y down) and darkness (0-1)
SHADOW_BLUR = 4.0
SHADOW_OFFSET = (1.5, 3.0)
SHADOW_OPACITY = 0.45
#: the hairline round each card, in points, and its darkness: white cards keep an edge on white paper
EDGE = 0.6
EDGE_OPACITY = 0.22
#: the transparent border (pixels) round each card before it is turned, so its edges come out smooth
PAD = 3
#: transparent room round the picture, in points, beyond what the shadows reach
MARGIN = 6.0

Point = tuple[float, float]


@dataclass(frozen=True)
class Placement:
    """Where a card of the hand lies on the picture: its centre (pixels) and its lean (degrees, clockwise)."""

    centre: Point
    angle: float


def hand_angles(count: int) -> list[float]:
    """Each card's lean, left to right, in degrees clockwise: symmetric about upright."""
    if count == 1:
        return [0.0]
    step = min(HAND_STEP, HAND_SPREAD / (count - 1))
    return [(i - (count - 1) / 2) * step for i in range(count)]


def hand_layout(count: int, width: float, height: float, scale: float) -> tuple[list[Placement], tuple[int, int]]:
    """The hand of ``count`` cards of ``width`` x ``height`` pixels: each card's placement and the picture's size."""
    radius = HAND_PIVOT * max(width, height)
    angles = hand_angles(count)
    centres = [(radius * math.sin(math.radians(a)), -radius * math.cos(math.radians(a))) for a in angles]
    corners = [p for (cx, cy), a in zip(centres, angles) for p in _turned_box(cx, cy, width, height, a)]
    left, top, size = _frame(corners, scale)
    return [Placement((cx - left, cy - top), a) for (cx, cy), a in zip(centres, angles)], size


def fan_size(count: int, width: float, height: float, scale: float) -> tuple[int, int]:
    """The size in pixels of the hand of ``count`` cards of ``width`` x ``height`` pixels."""
    return hand_layout(count, width, height, scale)[1]


def fan(cards: Sequence[Image.Image], scale: float) -> Image.Image:
    """A fanned hand of ``cards`` (equal-sized images), left to right, on a transparent background."""
    width, height = cards[0].size
    placements, size = hand_layout(len(cards), width, height, scale)
    picture = Image.new("RGBA", size, (0, 0, 0, 0))
    for card, place in zip(cards, placements):
        tl, bl, tr, br = _turned_box(*place.centre, width, height, place.angle)
        _draw(picture, _with_edge(_padded(card), scale), [tl, tr, br, bl], card.size, scale)
    return picture


def showcase_layout(count: int, width: float, height: float, scale: float) -> tuple[list[list[Point]],
                                                                                   list[list[Point]], tuple[int, int]]:
    """The showcase of ``count`` cards of ``width`` x ``height`` pixels: each card's corners and its
    reflection's (top left, top right, bottom right, bottom left) and the picture's size."""
    card_quad = perspective_quad(width, height)
    floor_quad = _reflection_quad(width, height)
    drawn = max(x for x, _ in card_quad) - min(x for x, _ in card_quad)
    step = drawn * (1 + SHOWCASE_GAP)
    cards = [[(x + i * step, y) for x, y in card_quad] for i in range(count)]
    floors = [[(x + i * step, y) for x, y in floor_quad] for i in range(count)]
    left, top, size = _frame([p for quad in cards + floors for p in quad], scale)
    return ([[(x - left, y - top) for x, y in quad] for quad in cards],
            [[(x - left, y - top) for x, y in quad] for quad in floors], size)


def showcase_size(count: int, width: float, height: float, scale: float) -> tuple[int, int]:
    """The size in pixels of the showcase of ``count`` cards of ``width`` x ``height`` pixels."""
    return showcase_layout(count, width, height, scale)[2]


def showcase(cards: Sequence[Image.Image], scale: float) -> Image.Image:
    """``cards`` (equal-sized images) standing in a row in perspective, with shadows and a floor reflection."""
    width, height = cards[0].size
    card_quads, floor_quads, size = showcase_layout(len(cards), width, height, scale)
    picture = Image.new("RGBA", size, (0, 0, 0, 0))
    for card, card_at, floor_at in zip(cards, card_quads, floor_quads):
        padded = _padded(card)
        _draw(picture, _reflection(padded), floor_at, card.size, scale, share=REFLECTION_SHARE, shadow=False)
        _draw(picture, _with_edge(padded, scale), card_at, card.size, scale)
    return picture


def perspective_quad(width: float, height: float) -> list[Point]:
    """The card's corners (top left, top right, bottom right, bottom left) as the camera sees it turned
    SHOWCASE_TURN degrees about its upright axis, right edge away; its near (left) edge keeps its
    height, its centre is at the origin."""
    return [_project(x, y, width, height) for x, y in ((-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5))]


# --- helpers --------------------------------------------------------------------------------

def _project(u: float, v: float, width: float, height: float) -> Point:
    """The picture point of the card point (u, v) (shares of width and height from the centre, y down)."""
    turn = math.radians(SHOWCASE_TURN)
    distance = SHOWCASE_CAMERA * width
    near = distance / (distance - 0.5 * width * math.sin(turn))  # the near edge's magnification
    depth = distance + u * width * math.sin(turn)
    return u * width * math.cos(turn) * distance / depth / near, v * height * distance / depth / near


def _reflection_quad(width: float, height: float) -> list[Point]:
    """The reflection's corners: the card mirrored in the floor its foot stands on, REFLECTION_SHARE of it."""
    foot = 0.5 + REFLECTION_SHARE
    return [_project(u, v, width, height) for u, v in ((-0.5, 0.5), (0.5, 0.5), (0.5, foot), (-0.5, foot))]


def _frame(points: Sequence[Point], scale: float) -> tuple[float, float, tuple[int, int]]:
    """The left and top of a picture holding ``points`` with room for shadows, and its size in pixels."""
    room = MARGIN * scale + _room(scale)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    left, top = math.floor(min(xs) - room), math.floor(min(ys) - room)
    return left, top, (math.ceil(max(xs) + room) - left, math.ceil(max(ys) + room) - top)


def _room(scale: float) -> float:
    """How far beyond a card its shadow reaches, in pixels."""
    return (3 * SHADOW_BLUR + max(map(abs, SHADOW_OFFSET))) * scale


def _turned_box(cx: float, cy: float, width: float, height: float, angle: float) -> list[Point]:
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
            for dx in (-width / 2, width / 2) for dy in (-height / 2, height / 2)]


def _quad_map(quad: Sequence[Point], size: tuple[int, int], share: float = 1.0) -> tuple[Image.Transform,
                                                                                         tuple[float, ...]]:
    """The projective map from picture pixels to the top ``share`` of a (padded) card of ``size`` drawn on ``quad``."""
    width, height = size
    source = [(PAD, PAD), (PAD + width, PAD), (PAD + width, PAD + height * share), (PAD, PAD + height * share)]
    return Image.Transform.PERSPECTIVE, tuple(perspective_coefficients(quad, source))


def perspective_coefficients(picture: Sequence[Point], source: Sequence[Point]) -> list[float]:
    """Pillow's eight PERSPECTIVE coefficients sending each of four ``picture`` points to its ``source`` point:
    x = (a X + b Y + c) / (g X + h Y + 1), y = (d X + e Y + f) / (g X + h Y + 1)."""
    rows = []
    for (px, py), (sx, sy) in zip(picture, source):
        rows.append([px, py, 1.0, 0.0, 0.0, 0.0, -sx * px, -sx * py, sx])
        rows.append([0.0, 0.0, 0.0, px, py, 1.0, -sy * px, -sy * py, sy])
    return _solve(rows)


def _solve(rows: list[list[float]]) -> list[float]:
    """Gaussian elimination with partial pivoting of an augmented n x (n + 1) system."""
    n = len(rows)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def _padded(card: Image.Image) -> Image.Image:
    """The card in RGBA on a transparent border PAD pixels wide, so that its edges are smoothed when drawn turned."""
    out = Image.new("RGBA", (card.width + 2 * PAD, card.height + 2 * PAD), (0, 0, 0, 0))
    out.paste(card.convert("RGBA"), (PAD, PAD))
    return out


def _draw(picture: Image.Image, card: Image.Image, quad: Sequence[Point], size: tuple[int, int], scale: float,
          share: float = 1.0, shadow: bool = True) -> None:
    """Lay the top ``share`` of a (padded) card of ``size`` on ``picture`` with its corners at ``quad``, over
    its soft shadow; only the part of the picture it covers is drawn, so memory stays a card's worth."""
    room = _room(scale) if shadow else 2
    xs, ys = [x for x, _ in quad], [y for _, y in quad]
    left, top = max(0, math.floor(min(xs) - room)), max(0, math.floor(min(ys) - room))
    right, bottom = min(picture.width, math.ceil(max(xs) + room)), min(picture.height, math.ceil(max(ys) + room))
    local = [(x - left, y - top) for x, y in quad]
    method, data = _quad_map(local, size, share)
    layer = card.transform((right - left, bottom - top), method, data, resample=Image.Resampling.BICUBIC,
                           fillcolor=(0, 0, 0, 0))
    picture.alpha_composite(_with_shadow(layer, scale) if shadow else layer, (left, top))


def _with_edge(card: Image.Image, scale: float) -> Image.Image:
    """The (padded) card with a faint hairline round its edge, following round corners where it has them.

    The hairline is the card less the card shrunk by its width; the shrinking is a box blur that keeps
    only what stays fully opaque (a rank filter of that size takes ten times as long)."""
    alpha = card.getchannel("A")
    inner = alpha.filter(ImageFilter.BoxBlur(max(1, round(EDGE * scale)))).point(lambda a: 255 if a == 255 else 0)
    ring = alpha.copy()
    ring.paste(0, mask=inner)
    line = Image.new("RGBA", card.size, (0, 0, 0, 0))
    line.putalpha(ring.point(lambda a: round(a * EDGE_OPACITY)))
    return Image.alpha_composite(card, line)


def _with_shadow(layer: Image.Image, scale: float) -> Image.Image:
    """``layer`` over its own soft shadow."""
    dx, dy = (round(d * scale) for d in SHADOW_OFFSET)
    shadow_alpha = Image.new("L", layer.size, 0)
    shadow_alpha.paste(layer.getchannel("A").point(lambda a: round(a * SHADOW_OPACITY)), (dx, dy))
    shadow = Image.new("RGBA", layer.size, (0, 0, 0, 0))
    shadow.putalpha(shadow_alpha.filter(ImageFilter.GaussianBlur(SHADOW_BLUR * scale)))
    return Image.alpha_composite(shadow, layer)


def _reflection(card: Image.Image) -> Image.Image:
    """The (padded) card upside down, fading from REFLECTION_STRENGTH at its foot to nothing REFLECTION_SHARE down."""
    flipped = card.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    reach = max(1, round((flipped.height - 2 * PAD) * REFLECTION_SHARE))
    fade = Image.new("L", flipped.size, 0)
    draw = ImageDraw.Draw(fade)
    for row in range(reach):
        draw.line([(0, PAD + row), (flipped.width, PAD + row)],
                  fill=round(255 * REFLECTION_STRENGTH * (1 - row / reach)))
    alpha = Image.new("L", flipped.size, 0)
    alpha.paste(flipped.getchannel("A"), mask=fade)
    flipped.putalpha(alpha)
    return flipped
