"""Built-in vector icons, drawn in a square of side ``size`` centred on (cx, cy).

Vector shapes print sharp at any size and need no art files. Each icon takes
a fill colour and an ink colour (outline and detail).
"""
from __future__ import annotations

import math
from collections.abc import Callable

from . import text

RGB = tuple[float, float, float]
Icon = Callable[..., None]


def draw_icon(canvas, name: str, cx: float, cy: float, size: float, fill: RGB, ink: RGB) -> None:
    canvas.saveState()
    canvas.setFillColor(fill)
    canvas.setStrokeColor(ink)
    canvas.setLineWidth(max(0.6, size * 0.05))
    canvas.setLineJoin(1)
    canvas.setLineCap(1)
    ICONS[name](canvas, cx, cy, size / 2, fill, ink)
    canvas.restoreState()


def _node(c, x, y, r, fill, ink, body=None):
    """Common Carrier's node: a filled disc (or another player's shape) with radio waves above a mast."""
    if body is None:
        c.circle(x, y, r * 0.92, stroke=1, fill=1)
    else:
        body(c, x, y, r * 1.02, fill, ink)
    c.setStrokeColor(ink)
    c.setLineWidth(r * 0.09)
    # mast below the centre, waves above it: the exact centre stays the fill colour
    c.line(x, y - r * 0.62, x, y - r * 0.22)
    c.line(x - r * 0.22, y - r * 0.62, x + r * 0.22, y - r * 0.62)
    for k in (0.32, 0.52):
        c.arc(x - r * k, y + r * 0.08 - r * k, x + r * k, y + r * 0.08 + r * k, 35, 110)


def _circle(c, x, y, r, fill, ink):
    c.circle(x, y, r * 0.9, stroke=1, fill=1)


def _square(c, x, y, r, fill, ink):
    c.rect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6, stroke=1, fill=1)


def _polygon(c, points, stroke=1, fill=1):
    p = c.beginPath()
    p.moveTo(*points[0])
    for pt in points[1:]:
        p.lineTo(*pt)
    p.close()
    c.drawPath(p, stroke=stroke, fill=fill)


def _regular(c, x, y, r, n, start=90.0, inner=None):
    pts = []
    for i in range(n * (2 if inner else 1)):
        rr = r if not inner or i % 2 == 0 else r * inner
        a = math.radians(start + i * 360 / (n * (2 if inner else 1)))
        pts.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    _polygon(c, pts)


def _triangle(c, x, y, r, fill, ink):
    _regular(c, x, y - r * 0.1, r * 0.95, 3)


def _diamond(c, x, y, r, fill, ink):
    _polygon(c, [(x, y + r * 0.95), (x + r * 0.7, y), (x, y - r * 0.95), (x - r * 0.7, y)])


def _star(c, x, y, r, fill, ink):
    _regular(c, x, y - r * 0.05, r * 0.95, 5, inner=0.45)


def _hexagon(c, x, y, r, fill, ink):
    _regular(c, x, y, r * 0.92, 6, start=0)


def _server(c, x, y, r, fill, ink):
    for k in range(3):
        top = y + r * 0.85 - k * r * 0.6
        c.roundRect(x - r * 0.8, top - r * 0.5, r * 1.6, r * 0.5, r * 0.08, stroke=1, fill=1)
        c.setFillColor(ink)
        c.circle(x + r * 0.55, top - r * 0.25, r * 0.07, stroke=0, fill=1)
        c.setFillColor(fill)


def _globe(c, x, y, r, fill, ink):
    c.circle(x, y, r * 0.9, stroke=1, fill=1)
    c.ellipse(x - r * 0.4, y - r * 0.9, x + r * 0.4, y + r * 0.9, stroke=1, fill=0)
    c.line(x - r * 0.9, y, x + r * 0.9, y)
    c.line(x, y - r * 0.9, x, y + r * 0.9)


def _chair(c, x, y, r, fill, ink):
    c.roundRect(x - r * 0.45, y - r * 0.05, r * 0.9, r * 0.95, r * 0.25, stroke=1, fill=1)
    c.roundRect(x - r * 0.6, y - r * 0.3, r * 1.2, r * 0.3, r * 0.1, stroke=1, fill=1)
    c.line(x, y - r * 0.3, x, y - r * 0.7)
    c.line(x - r * 0.55, y - r * 0.85, x + r * 0.55, y - r * 0.85)
    c.line(x - r * 0.3, y - r * 0.7, x + r * 0.3, y - r * 0.7)


def _code(c, x, y, r, fill, ink):
    c.roundRect(x - r * 0.9, y - r * 0.7, r * 1.8, r * 1.4, r * 0.15, stroke=1, fill=1)
    c.lines([(x - r * 0.3, y + r * 0.35, x - r * 0.6, y), (x - r * 0.6, y, x - r * 0.3, y - r * 0.35),
             (x + r * 0.3, y + r * 0.35, x + r * 0.6, y), (x + r * 0.6, y, x + r * 0.3, y - r * 0.35),
             (x + r * 0.12, y + r * 0.45, x - r * 0.12, y - r * 0.45)])


def _people(c, x, y, r, fill, ink):
    for dx, s in ((-0.45, 0.8), (0.45, 0.8), (0.0, 1.0)):
        cx = x + dx * r
        c.circle(cx, y + r * 0.35 * s, r * 0.25 * s, stroke=1, fill=1)
        c.wedge(cx - r * 0.42 * s, y - r * 0.85, cx + r * 0.42 * s, y + r * 0.05 * s, 0, 180, stroke=1, fill=1)


def _cup(c, x, y, r, fill, ink):
    c.roundRect(x - r * 0.6, y - r * 0.7, r * 1.0, r * 1.25, r * 0.12, stroke=1, fill=1)
    c.arc(x + r * 0.15, y - r * 0.3, x + r * 0.75, y + r * 0.3, -90, 180)
    for dx in (-0.35, -0.1, 0.15):
        c.line(x + dx * r, y + r * 0.7, x + dx * r, y + r * 0.95)


def _gear(c, x, y, r, fill, ink):
    _regular(c, x, y, r * 0.95, 8, inner=0.75, start=0)
    c.setFillColor(ink)
    c.circle(x, y, r * 0.25, stroke=0, fill=1)


def _doc(c, x, y, r, fill, ink):
    _polygon(c, [(x - r * 0.65, y - r * 0.9), (x + r * 0.65, y - r * 0.9), (x + r * 0.65, y + r * 0.55),
                 (x + r * 0.3, y + r * 0.9), (x - r * 0.65, y + r * 0.9)])
    for k in range(3):
        yy = y + r * 0.3 - k * r * 0.35
        c.line(x - r * 0.4, yy, x + r * 0.4, yy)


def _phone(c, x, y, r, fill, ink):
    c.roundRect(x - r * 0.45, y - r * 0.9, r * 0.9, r * 1.8, r * 0.18, stroke=1, fill=1)
    c.setFillColor(ink)
    c.circle(x, y - r * 0.68, r * 0.09, stroke=0, fill=1)
    c.line(x - r * 0.2, y + r * 0.72, x + r * 0.2, y + r * 0.72)


def _ball(c, x, y, r, fill, ink):
    c.circle(x, y, r * 0.9, stroke=1, fill=1)
    c.setFillColor(ink)
    _regular(c, x, y, r * 0.32, 5)


def _crown(c, x, y, r, fill, ink):
    _polygon(c, [(x - r * 0.85, y - r * 0.55), (x - r * 0.85, y + r * 0.45), (x - r * 0.42, y),
                 (x, y + r * 0.75), (x + r * 0.42, y), (x + r * 0.85, y + r * 0.45), (x + r * 0.85, y - r * 0.55)])


def _coin(c, x, y, r, fill, ink):
    c.circle(x, y, r * 0.9, stroke=1, fill=1)
    c.circle(x, y, r * 0.65, stroke=1, fill=0)
    text.draw(c, x, y - r * 0.32, "$", r * 0.9, bold=True, align="center", color=ink)


def _bolt(c, x, y, r, fill, ink):
    _polygon(c, [(x + r * 0.15, y + r * 0.95), (x - r * 0.55, y - r * 0.1), (x - r * 0.05, y - r * 0.1),
                 (x - r * 0.2, y - r * 0.95), (x + r * 0.55, y + r * 0.15), (x + r * 0.05, y + r * 0.15)])


def _heart(c, x, y, r, fill, ink):
    p = c.beginPath()
    p.moveTo(x, y - r * 0.85)
    p.curveTo(x - r * 1.3, y + r * 0.05, x - r * 0.6, y + r * 1.05, x, y + r * 0.4)
    p.curveTo(x + r * 0.6, y + r * 1.05, x + r * 1.3, y + r * 0.05, x, y - r * 0.85)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


def _spade(c, x, y, r, fill, ink):
    p = c.beginPath()
    p.moveTo(x, y + r * 0.95)
    p.curveTo(x - r * 1.3, y - r * 0.05, x - r * 0.6, y - r * 0.95, x, y - r * 0.3)
    p.curveTo(x + r * 0.6, y - r * 0.95, x + r * 1.3, y - r * 0.05, x, y + r * 0.95)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    _polygon(c, [(x, y - r * 0.35), (x - r * 0.3, y - r * 0.95), (x + r * 0.3, y - r * 0.95)])


def _club(c, x, y, r, fill, ink):
    for dx, dy in ((0, 0.45), (-0.45, -0.1), (0.45, -0.1)):
        c.circle(x + dx * r, y + dy * r, r * 0.36, stroke=1, fill=1)
    _polygon(c, [(x, y), (x - r * 0.3, y - r * 0.95), (x + r * 0.3, y - r * 0.95)])


def _party(c, x, y, r, fill, ink):
    _polygon(c, [(x - r * 0.8, y - r * 0.9), (x - r * 0.1, y + r * 0.75), (x + r * 0.6, y - r * 0.1)])
    c.setFillColor(ink)
    for dx, dy in ((0.55, 0.75), (0.8, 0.35), (0.2, 0.9)):
        c.circle(x + dx * r, y + dy * r, r * 0.08, stroke=0, fill=1)


def _table(c, x, y, r, fill, ink):
    c.roundRect(x - r * 0.9, y - r * 0.35, r * 1.8, r * 0.9, r * 0.1, stroke=1, fill=1)
    c.line(x - r * 0.7, y - r * 0.35, x - r * 0.7, y - r * 0.9)
    c.line(x + r * 0.7, y - r * 0.35, x + r * 0.7, y - r * 0.9)
    for k in (-0.45, 0.0, 0.45):
        c.line(x + k * r, y + r * 0.75, x + k * r, y - r * 0.55)


def _key(c, x, y, r, fill, ink):
    c.circle(x - r * 0.45, y, r * 0.4, stroke=1, fill=1)
    c.rect(x - r * 0.05, y - r * 0.1, r * 0.95, r * 0.2, stroke=1, fill=1)
    c.rect(x + r * 0.55, y - r * 0.4, r * 0.15, r * 0.3, stroke=1, fill=1)


def _chart(c, x, y, r, fill, ink):
    c.line(x - r * 0.9, y - r * 0.85, x + r * 0.9, y - r * 0.85)
    for k, h in ((-0.6, 1.5), (-0.1, 1.0), (0.4, 0.55)):
        c.rect(x + k * r, y - r * 0.85, r * 0.38, r * h, stroke=1, fill=1)


def _mail(c, x, y, r, fill, ink):
    c.rect(x - r * 0.9, y - r * 0.6, r * 1.8, r * 1.2, stroke=1, fill=1)
    c.lines([(x - r * 0.9, y + r * 0.6, x, y - r * 0.05), (x, y - r * 0.05, x + r * 0.9, y + r * 0.6)])


def _node_shaped(body: Icon) -> Icon:
    def draw(c, x, y, r, fill, ink):
        _node(c, x, y, r, fill, ink, body)
    return draw


ICONS: dict[str, Icon] = {
    "node": _node,
    "circle": _circle,
    "square": _square,
    "triangle": _triangle,
    "diamond": _diamond,
    "star": _star,
    "hexagon": _hexagon,
    "server": _server,
    "globe": _globe,
    "chair": _chair,
    "code": _code,
    "people": _people,
    "cup": _cup,
    "gear": _gear,
    "document": _doc,
    "phone": _phone,
    "ball": _ball,
    "crown": _crown,
    "coin": _coin,
    "bolt": _bolt,
    "heart": _heart,
    "spade": _spade,
    "club": _club,
    "party": _party,
    "table": _table,
    "key": _key,
    "chart": _chart,
    "mail": _mail,
}
# Common Carrier's node in each player's shape (PLAYER_MARKS), so black-and-white prints tell players apart
ICONS.update({
    "node-square": _node_shaped(lambda c, x, y, r, fill, ink: c.roundRect(x - r * 0.8, y - r * 0.8, r * 1.6, r * 1.6,
                                                                         r * 0.18, stroke=1, fill=1)),
    "node-diamond": _node_shaped(lambda c, x, y, r, fill, ink: _polygon(c, [(x, y + r * 0.98), (x + r * 0.98, y),
                                                                            (x, y - r * 0.98), (x - r * 0.98, y)])),
    "node-hexagon": _node_shaped(lambda c, x, y, r, fill, ink: _regular(c, x, y, r * 0.95, 6, start=0)),
})
