"""Writes wood.png, the board texture: a procedural grain, so no third-party art is needed.

Run: python3 assets/textures/make_wood.py (standard library only)."""
import math, random, struct, zlib, pathlib

SIZE = 256
random.seed(7)
bumps = [(random.uniform(0, SIZE), random.uniform(0, SIZE), random.uniform(8, 30)) for _ in range(12)]

def shade(x, y):
    warp = 0.0
    for bx, by, r in bumps:
        d2 = (x - bx) ** 2 + (y - by) ** 2
        warp += 6.0 * math.exp(-d2 / (2 * r * r))
    wave = 3.0 * math.sin(x * 2 * math.pi / SIZE) + 1.5 * math.sin(x * 6 * math.pi / SIZE + 1.0)
    ring = (y + wave + warp) / 23.0
    t = ring - math.floor(ring)
    t = 0.5 + 0.5 * math.cos(t * 2 * math.pi)
    fine = 0.04 * math.sin(y * 1.7 + 0.3 * math.sin(x * 0.5))
    v = 0.78 + 0.16 * t + fine
    return tuple(min(255, max(0, int(c * v))) for c in (196, 150, 102))

rows = b"".join(b"\x00" + bytes(c for x in range(SIZE) for c in shade(x, y)) for y in range(SIZE))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)) \
    + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
pathlib.Path(__file__).with_name("wood.png").write_bytes(png)
