"""Writes the game's sounds as WAV files: wooden knocks and soft bells made from damped
sine partials and a little noise, so no third-party recordings are needed.

Run: python3 assets/sounds/make_sounds.py (standard library only). Mono, 16-bit, 22050 Hz:
the sounds are short and hold nothing above a few kHz, and the web page downloads them."""
import math, random, struct, wave, pathlib

RATE = 22050
random.seed(11)


def silence(seconds):
    return [0.0] * int(seconds * RATE)


def knock(freq, seconds=0.12, weight=1.0, click=0.35):
    """A piece set on wood: a wood block's inharmonic modes, dying fast, and a short tap."""
    modes = [(1.0, 1.0, 38.0), (2.76, 0.45, 60.0), (5.40, 0.2, 90.0)]
    out = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        v = sum(a * math.exp(-d * t / weight) * math.sin(2 * math.pi * freq * r * t) for r, a, d in modes)
        v += click * random.uniform(-1, 1) * math.exp(-t * 900)
        out.append(v)
    return out


def bell(freq, seconds, decay=5.0):
    """A soft bell: a fundamental, an octave and a fifth above, with a gentle attack."""
    out = []
    for i in range(int(seconds * RATE)):
        t = i / RATE
        attack = min(1.0, t / 0.008)
        v = math.sin(2 * math.pi * freq * t) + 0.35 * math.sin(2 * math.pi * freq * 2 * t) \
            + 0.12 * math.sin(2 * math.pi * freq * 3.01 * t)
        out.append(attack * math.exp(-decay * t) * v)
    return out


def sweep(start, end, seconds, decay=6.0):
    """A tone gliding from one pitch to another: something drawn in or fading out."""
    out, phase = [], 0.0
    n = int(seconds * RATE)
    for i in range(n):
        t = i / RATE
        freq = start * (end / start) ** (i / n)
        phase += 2 * math.pi * freq / RATE
        attack = min(1.0, t / 0.015)
        out.append(attack * math.exp(-decay * t) * (math.sin(phase) + 0.25 * math.sin(2 * phase)))
    return out


def mix(*parts):
    """Lays (start in seconds, samples) parts over each other."""
    length = max(int(at * RATE) + len(s) for at, s in parts)
    out = [0.0] * length
    for at, s in parts:
        first = int(at * RATE)
        for i, v in enumerate(s):
            out[first + i] += v
    return out


def write(name, samples, peak=0.7):
    top = max(abs(v) for v in samples) or 1.0
    # A short fade out, so no sound ends on a click.
    fade = int(0.01 * RATE)
    for i in range(fade):
        samples[-1 - i] *= i / fade
    frames = b"".join(struct.pack("<h", int(v / top * peak * 32767)) for v in samples)
    with wave.open(str(pathlib.Path(__file__).with_name(name + ".wav")), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(frames)


# A piece moves: one knock.
write("move", knock(520))
# A stack splits: two quick knocks, the second higher.
write("split", mix((0, knock(480)), (0.075, knock(640))), 0.65)
# Stacks merge: two knocks closing in, the second lower and fuller.
write("merge", mix((0, knock(640, 0.1)), (0.06, knock(430, 0.16, 1.4))), 0.65)
# A capture or consumption: a heavy knock with a sharp clack over it.
write("capture", mix((0, knock(300, 0.25, 1.8, 0.8)), (0.012, knock(1150, 0.08, 0.7, 0.5))))
# An absorption: a knock, then the stack drawn in with a rising tone.
write("absorb", mix((0, knock(420)), (0.04, sweep(260, 620, 0.3, 7.0))), 0.6)
# A new piece or limb: a bright rising pair of bell notes.
write("create", mix((0, bell(880, 0.3, 9.0)), (0.07, bell(1318.5, 0.35, 8.0))), 0.5)
# A piece starves: a tone sinking away.
write("starve", sweep(520, 220, 0.45, 5.0), 0.5)
# Your turn: two soft notes, a fourth apart.
write("your_turn", mix((0, bell(659.3, 0.45, 6.0)), (0.14, bell(880, 0.6, 5.0))), 0.45)
# The game is over: a rising triad that rings on.
write("game_over", mix((0, bell(523.3, 1.2, 3.0)), (0.13, bell(659.3, 1.1, 3.0)),
                       (0.26, bell(784, 1.0, 2.6)), (0.42, bell(1046.5, 0.9, 2.4))), 0.6)
