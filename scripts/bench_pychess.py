"""The python-chess peer of make bench: read games and ask each final
position for its outcome with draw claims, the closest python-chess gets to
`remis classify`. Prints games and seconds for the first N games."""
import sys
import time

import chess.pgn

path, limit = sys.argv[1], int(sys.argv[2])
games = 0
started = time.perf_counter()
with open(path, encoding="utf-8", errors="replace") as handle:
    while games < limit:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        game.end().board().outcome(claim_draw=True)
        games += 1
seconds = time.perf_counter() - started
print(f"{games} {seconds:.3f}")
