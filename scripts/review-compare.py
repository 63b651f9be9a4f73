#!/usr/bin/env python3
"""How close reviews come to a reference review of the same games.

Usage: scripts/review-compare.py REF DIR...: each a directory that scripts/review-bench.sh
filled (KEEP=DIR: GAME.out, the review's table, and GAME.time, its seconds). For each game
and review: seconds a position; the mean difference from the reference in how far each move
lowered its mover's chance; moves given the reference's mark; the reference's marked moves
it marks; its marked moves the reference marks; and the reference's mistakes and blunders it
marks at all.
"""
import os
import re
import sys

LINE = re.compile(
    r"^\s*(\d+)\s+(\S+)\s+(.*?)\s+([\d.]+)%\s+([\d.]+)%\s+(inaccuracy|mistake|blunder|-)\s+(.*)$"
)
RANK = {"-": 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
GAMES = ["absorption", "adamas", "adaptoid", "adomoc"]


def judged(directory, game):
    """Each ply's fall in its mover's chance and its mark's rank, or None without a table."""
    path = os.path.join(directory, f"{game}.out")
    if not os.path.exists(path):
        return None
    moves = {}
    with open(path) as table:
        for line in table:
            m = LINE.match(line)
            if m:
                fall = max(0.0, (float(m[4]) - float(m[5])) / 100)
                moves[int(m[1])] = (fall, RANK[m[6]])
    return moves


def seconds(directory, game):
    path = os.path.join(directory, f"{game}.time")
    return float(open(path).read()) if os.path.exists(path) else None


def row(name, game, counts):
    per_position = counts["t"] / counts["positions"] if counts["positions"] else float("nan")
    return (
        f"| {name} | {game} | {per_position:.2f} | {counts['err'] / counts['n']:.3f} "
        f"| {counts['same']}/{counts['n']} | {counts['found']}/{counts['refm']} "
        f"| {counts['agreed']}/{counts['mine']} | {counts['bigfound']}/{counts['refbig']} |"
    )


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ref = sys.argv[1]
    print(f"reference: {ref}")
    print("| review | game | s a position | mean fall difference | reference's mark "
          "| reference's marks it marks | its marks the reference marks | mistakes+ it marks |")
    print("|---|---|---|---|---|---|---|---|")
    for name in sys.argv[2:]:
        total = dict.fromkeys(
            ["n", "err", "same", "refm", "found", "mine", "agreed", "refbig", "bigfound", "t", "positions"], 0
        )
        for game in GAMES:
            r, x = judged(ref, game), judged(name, game)
            if not r or not x:
                continue
            plies = sorted(set(r) & set(x))
            took = seconds(name, game)
            counts = dict(
                n=len(plies),
                err=sum(abs(r[p][0] - x[p][0]) for p in plies),
                same=sum(r[p][1] == x[p][1] for p in plies),
                refm=sum(r[p][1] > 0 for p in plies),
                found=sum(r[p][1] > 0 and x[p][1] > 0 for p in plies),
                mine=sum(x[p][1] > 0 for p in plies),
                agreed=sum(x[p][1] > 0 and r[p][1] > 0 for p in plies),
                refbig=sum(r[p][1] >= 2 for p in plies),
                bigfound=sum(r[p][1] >= 2 and x[p][1] > 0 for p in plies),
                t=took or 0.0,
                positions=(len(plies) + 1) if took else 0,
            )
            print(row(name, game, counts))
            for key, value in counts.items():
                total[key] += value
        if total["n"]:
            print(row(name, "all", total))


main()
