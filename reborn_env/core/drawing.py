"""Drawing shared by every game's RGB render: colours and a tiny bitmap font, numpy only.

Each game draws its own board (squares, hexes); the text on it (status strips, numbers on
figures, captions) is written with this one font so that every picture reads the same.
"""

from __future__ import annotations

from functools import cache

import numpy as np

Colour = tuple[int, int, int]

GLYPH = 2  # font scale: glyphs are 6 x 10 px, 8 px apart
ADVANCE = 4 * GLYPH

# A tiny 3 x 5 bitmap font, rows top to bottom; characters missing from it draw as blanks.
_FONT = {
    "0": "111101101101111", "1": "010110010010111", "2": "110001010100111",
    "3": "110001010001110", "4": "101101111001001", "5": "111100110001110",
    "6": "011100110101010", "7": "111001010010010", "8": "010101010101010",
    "9": "010101011001110", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111",
    "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101010", "K": "101101110101101",
    "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011",
    "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101",
    "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    "/": "001001010100100",
}  # fmt: skip


@cache
def _glyph(char: str) -> np.ndarray:
    """The pixel mask of one character at the font scale."""
    bits = np.array([b == "1" for b in _FONT.get(char, "0" * 15)]).reshape(5, 3)
    return np.kron(bits, np.ones((GLYPH, GLYPH), dtype=bool)).astype(bool)


def draw_text(img: np.ndarray, x: int, y: int, text: str, colour: Colour) -> None:
    """Write ``text`` (upper-cased) with its top-left corner at (x, y), clipped at the right."""
    for i, char in enumerate(text.upper()):
        gx = x + i * ADVANCE
        if gx + 3 * GLYPH > img.shape[1]:
            break
        img[y : y + 5 * GLYPH, gx : gx + 3 * GLYPH][_glyph(char)] = colour


def text_width(text: str) -> int:
    """Pixels ``text`` covers when drawn, from its first glyph's left to its last glyph's right."""
    return len(text) * ADVANCE - GLYPH
