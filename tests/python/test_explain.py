"""`remis explain` checked against an independent replay (python-chess):
for every game of every rules fixture, the moves remis lists replay
legally from its start position, every event's FEN is the position
python-chess reaches at that ply, the occurrences of a repeated position
are one position (python-chess's transposition key: pieces, side to move,
castling rights, a legal en-passant capture) and all of its occurrences,
and every helpmate line replays legally to checkmate of the flagged side."""
import json
import os
import pathlib
import subprocess

import chess
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
REMIS = os.environ.get("REMIS", str(ROOT / "target" / "debug" / "remis"))
FIXTURES = sorted((ROOT / "crates" / "core" / "tests" / "fixtures").glob("*.pgn"))


def trails(path):
    """Every game of a fixture, explained, until remis says there is none."""
    n = 1
    while True:
        run = subprocess.run([REMIS, "explain", str(path), "--game", str(n), "--format", "json"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            assert "there is no game" in run.stderr or "no games read" in run.stderr, run.stderr
            return
        yield json.loads(run.stdout)
        n += 1


def key(board):
    return board._transposition_key()


def fen(board):
    return board.fen(en_passant="legal")


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_every_trail_replays_independently(path):
    checked = 0
    checked_similar = []
    for trail in trails(path):
        # A set-up position whose castling rights standard chess cannot
        # hold (a Chess960 start) is read as Chess960.
        standard = chess.Board(trail["start_fen"])
        chess960 = standard.fen().split()[2] != trail["start_fen"].split()[2]
        board = chess.Board(trail["start_fen"], chess960=chess960)
        boards = [board.copy()]
        for san in trail["moves"]:
            board.push_san(san)  # raises if remis listed an illegal move
            boards.append(board.copy())
        assert len(trail["moves"]) == trail["plies"]
        for event in trail["events"]:
            ply = event["ply"]
            if ply <= trail["plies"]:
                at = boards[ply]
            else:
                # A written, unplayed move: one past the last ply.
                assert ply == trail["plies"] + 1, event
                at = boards[-1].copy()
                at.push_san(event["san"].split(".")[-1])
            assert fen(at).split()[:4] == event["fen"].split()[:4], (trail["game_no"], event)
        # The move counts: where a count is said to be complete, the
        # half-move clock python-chess keeps says so too.
        for e in trail["events"]:
            if "moves by each side completed" in e["kind"]:
                at = boards[min(e["ply"], trail["plies"])].copy()
                if e["ply"] > trail["plies"]:
                    at.push_san(e["san"].split(".")[-1])
                limit = 150 if e["kind"].startswith("75") else 100
                assert at.halfmove_clock >= limit, (path.name, trail["game_no"], e["kind"], at.halfmove_clock)
        repeated = [e for e in trail["events"] if "repetition" in e["kind"]]
        if repeated:
            positions = []
            for e in repeated:
                if e["ply"] <= trail["plies"]:
                    positions.append(boards[e["ply"]])
                else:
                    b = boards[-1].copy()
                    b.push_san(e["san"].split(".")[-1])
                    positions.append(b)
            keys = {key(b) for b in positions}
            assert len(keys) == 1, (path.name, trail["game_no"], "not one position")
            # Every occurrence up to the last listed one, and no other.
            last = max(e["ply"] for e in repeated)
            (the_key,) = keys
            played = [b for b in boards[: min(last, trail["plies"]) + 1] if key(b) == the_key]
            listed_played = [e for e in repeated if e["ply"] <= trail["plies"]]
            assert len(played) == len(listed_played), (path.name, trail["game_no"])
            needed = 5 if trail["ending"] == "fivefold_repetition" else 3
            assert len(repeated) >= needed, (path.name, trail["game_no"], len(repeated))
        # A position that looks the same but is not (castling or en-passant
        # rights): same pieces and player to move, another position.
        for e in (e for e in trail["events"] if e["kind"].startswith("similar position")):
            reference = next(x for x in trail["events"]
                             if "repetition" in x["kind"] or x["kind"] == "final position")
            ref = boards[min(reference["ply"], trail["plies"])]
            b = boards[e["ply"]]
            assert b.board_fen() == ref.board_fen() and b.turn == ref.turn, (path.name, trail["game_no"])
            assert key(b) != key(ref), (path.name, trail["game_no"], "the same position after all")
            checked_similar.append(e)
        if trail["helpmate"]:
            b = chess.Board(trail["helpmate_fen"], chess960=chess960)
            assert fen(b).split()[:4] == trail["events"][-1]["fen"].split()[:4]
            for san in trail["helpmate"]:
                b.push_san(san)
            assert b.is_checkmate(), (path.name, trail["game_no"], trail["helpmate"])
            mated = "white" if b.turn == chess.WHITE else "black"
            assert mated != trail["helpmate_side"], (path.name, trail["game_no"])
        if trail["ending"] in ("threefold_repetition", "fivefold_repetition", "fifty_moves",
                               "seventy_five_moves", "checkmate", "stalemate", "dead_position",
                               "insufficient_material", "time_forfeit", "timeout_vs_insufficient_material"):
            assert trail["article"] != "–" and trail["events"], (path.name, trail["game_no"])
        checked += 1
    assert checked > 0 or path.stem == "utf8_bom"
    if path.stem == "repetition":
        # The fixture's three near-repetitions (castling twice, en passant).
        assert len(checked_similar) >= 3, checked_similar
