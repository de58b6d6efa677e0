"""Write a PGN file as a Parquet file in the layout of the lichess dataset on
the Hugging Face hub (Lichess/standard-chess-games): one row per game, the
lichess tag columns (Elo and rating differences as int16) and the raw
`movetext`. For measuring remis on that layout where the hub is out of
reach (docs/scale.md); the games are the PGN's own.

    python scripts/pgn_to_lichess_parquet.py IN.pgn[.zst] OUT.parquet [--row-group-rows N]
"""
import argparse
import re
import subprocess

import polars as pl

TEXT = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle",
        "UTCDate", "UTCTime", "ECO", "Opening", "Termination", "TimeControl"]
INT16 = ["WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"]
TAG = re.compile(r'^\[(\w+) "(.*)"\]$')


def games(text):
    """Yields (tags, movetext) of each game: a tag section, a blank line,
    the movetext up to the next tag section."""
    tags, moves = {}, []
    for line in text.splitlines():
        m = TAG.match(line)
        if m and moves:
            yield tags, " ".join(moves).strip()
            tags, moves = {}, []
        if m:
            tags[m.group(1)] = m.group(2)
        elif line.strip():
            moves.append(line.strip())
    if tags or moves:
        yield tags, " ".join(moves).strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pgn")
    parser.add_argument("out")
    parser.add_argument("--row-group-rows", type=int, default=100_000)
    args = parser.parse_args()
    if args.pgn.endswith(".zst"):
        raw = subprocess.run(["zstd", "-dc", args.pgn], check=True, capture_output=True).stdout
    else:
        raw = open(args.pgn, "rb").read()
    rows = list(games(raw.decode("utf-8", errors="replace")))

    def elo(tags, name):
        value = tags.get(name, "")
        return int(value) if re.fullmatch(r"[+-]?\d{1,5}", value) and abs(int(value)) < 32768 else None

    frame = pl.DataFrame(
        {name: [t.get(name) for t, _ in rows] for name in TEXT}
        | {name: pl.Series(name, [elo(t, name) for t, _ in rows], dtype=pl.Int16) for name in INT16}
        | {"movetext": [m for _, m in rows]})
    frame.write_parquet(args.out, row_group_size=args.row_group_rows)
    print(f"{len(rows)} games -> {args.out}")


if __name__ == "__main__":
    main()
