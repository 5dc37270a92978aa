"""The second held-out family: a new family of table styles for when the first one had been
looked at. Every axis takes values no other split uses: block, stencil and inline letters,
cork, marble and parchment tiles (vision/synth/family2_faces.py), backs with stars, zigzags
or nested squares, a key, a candlestick or a revolver for the victim, terrazzo, striped and
flowered oilcloth tables (vision/synth/family2_scene.py), the room's light and the lens, and
every colour. Nothing is ever tuned on it, and no one looks at what the reader makes of it:
it stays a fair measure only while it stays unseen."""

from __future__ import annotations

from vision.synth.styles import (BackPattern, Colour, Lens, Lettering, Light, Material, Style,
                                 Table, TileColours, Victim, _pick)

# (material, face, ink, back, back_ink, radius): colours that suit the material; none of
# these colours or corner radii is any other split's
_TILES: tuple[TileColours, ...] = (
    (Material.CORK, (105, 155, 200), (25, 20, 90), (70, 40, 25), (170, 140, 110), 0.07),
    (Material.MARBLE, (226, 230, 224), (60, 35, 15), (40, 60, 30), (120, 170, 120), 0.11),
    (Material.PARCHMENT, (165, 215, 232), (30, 45, 60), (30, 35, 110), (90, 140, 210), 0.03),
    (Material.MARBLE, (205, 208, 218), (35, 25, 30), (110, 100, 95), (190, 185, 180), 0.16),
    (Material.CORK, (130, 175, 215), (80, 30, 10), (25, 25, 60), (50, 120, 185), 0.2),
)
_PATTERNS: tuple[BackPattern, ...] = (BackPattern.STARS, BackPattern.CHEVRON,
                                      BackPattern.CONCENTRIC)
_VICTIMS: tuple[Victim, ...] = (Victim.KEY, Victim.CANDLESTICK, Victim.REVOLVER)
# in an order whose kinds follow neither the letterings' nor the backs' cycle
_TABLES: tuple[tuple[Table, Colour], ...] = (
    (Table.TERRAZZO, (175, 180, 185)), (Table.OILCLOTH, (60, 140, 210)),
    (Table.STRIPED, (140, 60, 20)), (Table.STRIPED, (40, 120, 40)),
    (Table.TERRAZZO, (120, 150, 165)), (Table.OILCLOTH, (150, 110, 90)),
)
_LETTERINGS: tuple[Lettering, ...] = (Lettering.BLOCK, Lettering.STENCIL, Lettering.INLINE)
_LIGHTS: tuple[Light, ...] = (
    Light(cast=(0.92, 1.1, 0.95), gradient=0.2),  # a fluorescent tube's green tint
    Light(cast=(1.08, 0.9, 1.06), spot=0.2),  # a lamp with a pink shade
    Light(cast=(0.8, 0.9, 1.12), gradient=0.3, spot=0.15),  # candle-warm, from one side
    Light(cast=(1.12, 1.05, 0.92), gradient=0.45),  # overcast daylight fading off
)
_LENSES: tuple[Lens, ...] = (
    Lens(barrel=0.09, vignette=0.15), Lens(vignette=0.4, defocus=0.0018),
    Lens(barrel=0.035, vignette=0.1, defocus=0.002), Lens(barrel=0.11),
)


def family2_styles(count: int = 12) -> list[Style]:
    """The second held-out family, made as the first: each axis cycles with its own period
    (three letterings, five tile sets, three backs, three victims moving on every fourth
    style, six tables, four lights and four lenses), so the styles mix them in many ways."""
    out: list[Style] = []
    for i in range(count):
        material, face, ink, back, back_ink, radius = _pick(_TILES, i)
        pattern = _pick(_PATTERNS, i)
        table, table_colour = _pick(_TABLES, i)
        lettering = _LETTERINGS[i % len(_LETTERINGS)]
        out.append(Style(
            name=f"family2-{i}-{lettering.value}-{material.value}-{pattern.value}",
            font=None, face=face, ink=ink, back=back, back_ink=back_ink, pattern=pattern,
            victim=_VICTIMS[(i + i // 4) % len(_VICTIMS)], table=table,
            table_colour=table_colour, radius=radius,
            letter_scale=(0.61, 0.57, 0.63)[i // 2 % 3], lettering=lettering,
            material=material, light=_pick(_LIGHTS, i), lens=_LENSES[i % len(_LENSES)],
        ))
    return out
