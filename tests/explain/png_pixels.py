"""Reading the pixels of a PNG screenshot with the standard library only (8-bit RGB or RGBA,
not interlaced, as Chromium writes them)."""
from __future__ import annotations

import struct
import zlib
from collections import Counter
from typing import Tuple


def read_png(path) -> Tuple[int, int, int, bytes]:
    """``(width, height, bytes per pixel, pixel bytes row after row)``."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    pos, idat = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "only 8-bit RGB(A), not interlaced"
        elif kind == b"IDAT":
            idat.append(body)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif kind == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, prev))
        elif kind == 3:
            for i in range(stride):
                left = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 255
        elif kind == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out[y * stride:(y + 1) * stride] = row
        prev = row
    return width, height, bpp, bytes(out)


def colour_counts(path) -> Tuple[int, int, Counter]:
    """``(width, height, {"#rrggbb": pixels})``."""
    width, height, bpp, pixels = read_png(path)
    counts = Counter(pixels[i:i + 3] for i in range(0, len(pixels), bpp))
    return width, height, Counter({"#" + bytes(k).hex(): v for k, v in counts.items()})


def near(counts: Counter, colour: str, tolerance: int) -> int:
    """Pixels within ``tolerance`` (per channel) of ``colour``: Chromium's software rasterizer
    picks its SIMD code by CPU, and on some CPUs it paints a fill one or two units off the colour
    it was given (seen in CI: every box of ``#f9cfca`` painted a shade beside it)."""
    want = bytes.fromhex(colour[1:])
    return sum(v for k, v in counts.items()
               if max(abs(a - b) for a, b in zip(bytes.fromhex(k[1:]), want)) <= tolerance)
