#!/usr/bin/env python3
"""CHA-Solver's known-answer positions as PGN, one game a position.

Each position (crates/core/tests/fixtures/chasolver, `XY <FEN>` lines) becomes
a game set up from its FEN (SetUp/FEN tags) with no moves, lost on time by
the side to move: what `crates/core/examples/chasolver_check.rs` asks of it, as a file
that `remis classify` and `remis explain` read (docs/performance.md times
`remis explain --game N` on it). Usage: scripts/chasolver_pgn.py > FILE.pgn
"""
import pathlib
import sys

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / "crates/core/tests/fixtures/chasolver"

n = 0
out = sys.stdout
for name in ("positions.txt", "lichess-sample.txt"):
    for line in (FIXTURES / name).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        _, fen = line.split(" ", 1)
        n += 1
        result = "0-1" if fen.split()[1] == "w" else "1-0"
        out.write(
            f'[Event "CHA-Solver known answers"]\n[Site "{name}"]\n[Date "????.??.??"]\n'
            f'[Round "{n}"]\n[White "?"]\n[Black "?"]\n[Result "{result}"]\n'
            f'[SetUp "1"]\n[FEN "{fen}"]\n[Termination "Time forfeit"]\n\n{result}\n\n'
        )
