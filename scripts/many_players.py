#!/usr/bin/env python3
"""Rewrites generated games so that their players are many: each White and
Black tag gets a name drawn at random from a pool (default 900,000 names),
seeded, so that a summary's players fold as a lichess month's do.

    python3 scripts/many_players.py target/bench/generated-1000000.pgn OUT.pgn

The games stay generated games (their `Synthetic` tag says so): for scale
tests only (docs/performance.md, "A table of many players").
"""

import argparse
import random

GIVEN = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="a PGN of generated games")
    parser.add_argument("out", help="where to write the rewritten games")
    parser.add_argument("--pool", type=int, default=900_000, help="names drawn from")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.source) as source, open(args.out, "x") as out:
        for line in source:
            if line.startswith('[White "') or line.startswith('[Black "'):
                n = rng.randrange(args.pool)
                out.write(f'[{line[1:6]} "Q{n:06d}, {GIVEN[n % 8]}"]\n')
            else:
                out.write(line)


if __name__ == "__main__":
    main()
