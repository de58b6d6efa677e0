"""make sample: rebuild data/lichess-sample.pgn.zst, the real games that
`make run` reports on, from the lichess collections in ../shared/data
(lichess publishes its games under CC0, so a sample may ship).

The selection is deterministic: games are ordered by a hash of their Site
(the game's URL) and taken in that order until each stratum is full:

- every game of lichess_2025-05_sample.pgn (the monthly rated database:
  players of every strength, every speed);
- from lichess_users_2018-2022.pgn.zst (three accounts, two of them Magnus
  Carlsen's, 2018-2022): all classical and rapid standard games, and a share
  of blitz and bullet per year, so that no speed or year swamps the rest;
- a handful of Chess960 and of other variants, to show how they are counted.

Usage: python3 scripts/make_sample.py [SHARED_DATA_DIR]"""
import hashlib
import io
import pathlib
import re
import subprocess
import sys
from collections import Counter

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "lichess-sample.pgn.zst"

# Games kept from the accounts' collection, per (speed, year); None = all.
QUOTA = {"classical": None, "rapid": None, "blitz": 260, "bullet": 380}
CHESS960 = 30
OTHER_VARIANTS = 12


def games(text):
    """Splits PGN text into games (each starting with its [Event tag)."""
    starts = [m.start() for m in re.finditer(r"^\[Event ", text, re.M)]
    for a, b in zip(starts, starts[1:] + [len(text)]):
        yield text[a:b].strip() + "\n\n"


def tag(game, name):
    m = re.search(r'^\[' + name + r' "([^"]*)"\]', game, re.M)
    return m.group(1) if m else None


def speed(game):
    tc = tag(game, "TimeControl") or "-"
    m = re.match(r"(\d+)\+(\d+)", tc)
    if not m:
        return "correspondence"
    estimate = int(m.group(1)) + 40 * int(m.group(2))
    if estimate < 180:
        return "bullet"
    if estimate < 480:
        return "blitz"
    if estimate < 1500:
        return "rapid"
    return "classical"


def order(game):
    return hashlib.sha1((tag(game, "Site") or game[:200]).encode()).hexdigest()


def main():
    shared = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "data"
    lichess = shared / "lichess"
    monthly = (lichess / "lichess_2025-05_sample.pgn").read_text(encoding="utf-8")
    users = subprocess.run(["zstd", "-dc", lichess / "lichess_users_2018-2022.pgn.zst"],
                           check=True, capture_output=True).stdout.decode("utf-8")
    chosen = list(games(monthly))
    taken = Counter()
    for game in sorted(games(users), key=order):
        variant = (tag(game, "Variant") or "Standard").lower()
        year = (tag(game, "UTCDate") or "????")[:4]
        if variant == "standard":
            quota = QUOTA.get(speed(game), 0)
            key = (speed(game), year)
            if quota is None or taken[key] < quota:
                taken[key] += 1
                chosen.append(game)
        elif variant == "chess960" and taken["chess960"] < CHESS960:
            taken["chess960"] += 1
            chosen.append(game)
        elif variant not in ("standard", "chess960", "from position") and taken["other"] < OTHER_VARIANTS:
            taken["other"] += 1
            chosen.append(game)
    text = "".join(chosen).encode("utf-8")
    OUT.write_bytes(subprocess.run(["zstd", "-19", "-q", "-c"], input=text, check=True,
                                   capture_output=True).stdout)
    print(f"make_sample: {len(chosen)} games, {len(text) / 2**20:.1f} MiB of PGN, "
          f"{OUT.stat().st_size / 2**20:.2f} MiB compressed -> {OUT.relative_to(ROOT)}")
    for key, n in sorted(taken.items(), key=str):
        print(f"  {key}: {n}")


if __name__ == "__main__":
    main()
