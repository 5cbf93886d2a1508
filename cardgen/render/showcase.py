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


def fan(cards: Sequence[Image.Image], scale: float) -> Image.Image:
    """A fanned hand of ``cards`` (equal-sized images), left to right, on a transparent background."""
    width, height = cards[0].size
    placements, size = hand_layout(len(cards), width, height, scale)
    picture = Image.new("RGBA", size, (0, 0, 0, 0))
    for card, place in zip(cards, placements):
        layer = _place(_with_edge(_padded(card), scale), size, _turn_map(place, width, height))
        picture = _with_shadow(picture, layer, scale)
    return picture


def showcase(cards: Sequence[Image.Image], scale: float) -> Image.Image:
    """``cards`` (equal-sized images) standing in a row in perspective, with shadows and a floor reflection."""
    width, height = cards[0].size
    card_quad = perspective_quad(width, height)
    floor_quad = _reflection_quad(width, height)
    drawn = max(x for x, _ in card_quad) - min(x for x, _ in card_quad)
    step = drawn * (1 + SHOWCASE_GAP)
    quads = [[(x + i * step, y) for x, y in quad] for i in range(len(cards)) for quad in (card_quad, floor_quad)]
    left, top, size = _frame([p for quad in quads for p in quad], scale)
    picture = Image.new("RGBA", size, (0, 0, 0, 0))
    for i, card in enumerate(cards):
        card_at = [(x - left, y - top) for x, y in quads[2 * i]]
        floor_at = [(x - left, y - top) for x, y in quads[2 * i + 1]]
        padded = _padded(card)
        reflection = _place(_reflection(padded), size, _quad_map(floor_at, card.size, REFLECTION_SHARE))
        picture = Image.alpha_composite(picture, reflection)
        layer = _place(_with_edge(padded, scale), size, _quad_map(card_at, card.size))
        picture = _with_shadow(picture, layer, scale)
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
    room = (MARGIN + 3 * SHADOW_BLUR + max(map(abs, SHADOW_OFFSET))) * scale
    xs, ys = [x for x, _ in points], [y for _, y in points]
    left, top = math.floor(min(xs) - room), math.floor(min(ys) - room)
    return left, top, (math.ceil(max(xs) + room) - left, math.ceil(max(ys) + room) - top)


def _turned_box(cx: float, cy: float, width: float, height: float, angle: float) -> list[Point]:
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return [(cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
            for dx in (-width / 2, width / 2) for dy in (-height / 2, height / 2)]


def _turn_map(place: Placement, width: float, height: float) -> tuple[Image.Transform, tuple[float, ...]]:
    """The affine map from picture pixels to card pixels for a card centred at ``place``, turned by its angle."""
    cos, sin = math.cos(math.radians(place.angle)), math.sin(math.radians(place.angle))
    cx, cy = place.centre
    return Image.Transform.AFFINE, (cos, sin, PAD + width / 2 - cos * cx - sin * cy,
                                    -sin, cos, PAD + height / 2 + sin * cx - cos * cy)


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


def _place(card: Image.Image, size: tuple[int, int], mapping: tuple[Image.Transform, tuple[float, ...]]) -> Image.Image:
    """The card drawn on a transparent picture of ``size`` through ``mapping`` (picture -> card pixels)."""
    method, data = mapping
    return card.transform(size, method, data, resample=Image.Resampling.BICUBIC,
                                          fillcolor=(0, 0, 0, 0))


def _with_edge(card: Image.Image, scale: float) -> Image.Image:
    """The (padded) card with a faint hairline round its edge, following round corners where it has them."""
    out = card
    line = Image.new("RGBA", out.size, (0, 0, 0, 0))
    alpha = out.getchannel("A")
    inner = alpha.filter(ImageFilter.MinFilter(2 * max(1, round(EDGE * scale)) + 1))
    ring = Image.new("L", out.size, 0)
    ring.paste(alpha)
    ring.paste(0, mask=inner)
    line.putalpha(ring.point(lambda a: round(a * EDGE_OPACITY)))
    return Image.alpha_composite(out, line)


def _with_shadow(picture: Image.Image, layer: Image.Image, scale: float) -> Image.Image:
    """``layer`` laid on ``picture`` over its own soft shadow (blurred only where it falls, for speed)."""
    dx, dy = (round(d * scale) for d in SHADOW_OFFSET)
    alpha = layer.getchannel("A").point(lambda a: round(a * SHADOW_OPACITY))
    shadow_alpha = Image.new("L", layer.size, 0)
    shadow_alpha.paste(alpha, (dx, dy))
    box = shadow_alpha.getbbox()
    if box:
        reach = math.ceil(3 * SHADOW_BLUR * scale)
        box = (max(0, box[0] - reach), max(0, box[1] - reach), min(layer.width, box[2] + reach),
               min(layer.height, box[3] + reach))
        shadow_alpha.paste(shadow_alpha.crop(box).filter(ImageFilter.GaussianBlur(SHADOW_BLUR * scale)), box[:2])
    shadow = Image.new("RGBA", layer.size, (0, 0, 0, 0))
    shadow.putalpha(shadow_alpha)
    return Image.alpha_composite(Image.alpha_composite(picture, shadow), layer)


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
