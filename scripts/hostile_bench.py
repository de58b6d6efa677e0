"""make bench-hostile: time and memory of `remis classify` on hostile inputs
at 1x, 2x and 4x their size, and the time of `remis summarize` of the table
it wrote, to show that both grow linearly (or stay flat) whatever the input
holds. Writes target/bench/hostile.md.

Every figure is a whole-process wall time (median of --runs) and the
process's peak RSS (from wait4). Inputs are generated into target/bench/
and removed afterwards."""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "bench"
# Where cargo builds: target/, or CARGO_TARGET_DIR when it is set.
BUILD = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
REMIS = BUILD / "release" / "remis"

GAME = b'[Event "ok"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'


def write_chunks(path, parts):
    """Writes an iterable of byte strings to a file."""
    with open(path, "wb") as f:
        for part in parts:
            f.write(part)


def many_tags(n):
    yield b'[Event "many tags"]\n'
    line = b'[Tag "x"]\n'
    batch = 10_000
    for i in range(0, n, batch):
        yield b"".join(b'[T%d "x"]\n' % j for j in range(i, min(n, i + batch)))
    yield b"\n1. e4 *\n\n" + GAME


def long_token(mib):
    yield b'[Event "long token"]\n\n1. '
    block = b"a" * (1 << 20)
    for _ in range(mib):
        yield block
    yield b" *\n\n" + GAME


def long_comment(mib):
    yield b'[Event "long comment"]\n\n1. e4 {'
    block = (b"c" * 1023) + b"\n"
    for _ in range(mib * 1024):
        yield block
    yield b"} *\n\n" + GAME


def long_game(plies):
    yield b'[Event "long game"]\n[Result "*"]\n\n'
    shuffle = b"Nf3 Nf6 Ng1 Ng8 "
    batch = 100_000
    for i in range(0, plies // 4, batch):
        yield shuffle * min(batch, plies // 4 - i)
    yield b"*\n\n" + GAME


def stray_braces(games):
    """Many games, every tenth with an unterminated comment."""
    broken = GAME.replace(b"2. Qh5", b"2. Qh5 { never closed")
    batch = 10_000
    for i in range(0, games, batch):
        yield b"".join(broken if (i + j) % 10 == 0 else GAME for j in range(min(batch, games - i)))


def leading_nul(mib):
    """A download whose first piece is missing: N MiB of NUL bytes on no
    line of their own, then 20 games (issue 19)."""
    block = b"\0" * (1 << 20)
    for _ in range(mib):
        yield block
    yield GAME * 20


def long_tag_lines(games, kib=100):
    """Issue 30: games whose Event tag is longer than a tag line may be
    (64 KiB); within the tag section's cap each is read as its own tag."""
    for _ in range(games):
        yield b'[Event "' + b"x" * (kib << 10) + b'"]\n' + GAME.split(b"\n", 1)[1]


def over_cap_tags(games):
    """Issue 30: tag lines past the tag section's cap (300 KiB): each game
    is cut and names the cap; the game before it stays whole."""
    for _ in range(games):
        yield GAME
        yield from long_tag_lines(1, kib=300)


def one_game_players(games):
    """Issue 30: every side a new player (the players' table at any count)."""
    batch = 10_000
    for i in range(0, games, batch):
        yield b"".join(
            b'[Event "p"]\n[White "w%d"]\n[Black "b%d"]\n[Result "1-0"]\n\n'
            b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" % (j, j)
            for j in range(i, min(games, i + batch))
        )


def one_player_many_ways(games):
    """One player written a new way in every game (the summary's list of a
    player's spellings at any length)."""
    batch = 10_000
    for i in range(0, games, batch):
        yield b"".join(
            b'[Event "p"]\n[White "Korchnoi, V (%d)"]\n[Black "b%d"]\n[Result "1-0"]\n\n'
            b"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n" % (j, j % 1000)
            for j in range(i, min(games, i + batch))
        )


CASES = [
    ("N MiB of NUL before 20 games", leading_nul, [256, 512, 1024], "MiB"),
    ("tag section of N tags", many_tags, [200_000, 400_000, 800_000], "tags"),
    ("one token of N MiB", long_token, [200, 400, 800], "MiB"),
    ("one comment of N MiB", long_comment, [200, 400, 800], "MiB"),
    ("one game of N plies", long_game, [3_125_000, 6_250_000, 12_500_000], "plies"),
    ("N games, 1 in 10 with a stray {", stray_braces, [200_000, 400_000, 800_000], "games"),
    ("N games behind 100 KiB Event tags", long_tag_lines, [500, 1_000, 2_000], "games"),
    ("N games, each before a 300 KiB tag", over_cap_tags, [500, 1_000, 2_000], "games"),
    ("N games of one-game players", one_game_players, [200_000, 400_000, 800_000], "games"),
    ("N games of one player written N ways", one_player_many_ways, [200_000, 400_000, 800_000], "games"),
]


def run(cmd):
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"bench-hostile: {' '.join(map(str, cmd))} failed: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024, err.decode(errors="replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not REMIS.exists():
        sys.exit("bench-hostile: build first: cargo build --release")
    OUT.mkdir(parents=True, exist_ok=True)
    lines = [
        "| input | size | bytes | wall (median) | wall / 1x | peak RSS | `summarize` wall |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, make, sizes, unit in CASES:
        base = None
        for size in sizes:
            path = OUT / "hostile.pgn"
            write_chunks(path, make(size))
            nbytes = path.stat().st_size
            walls, rss = [], []
            for _ in range(args.runs):
                wall, peak, err = run([REMIS, "classify", path, "--out", OUT / "hostile-out", "--threads", "2"])
                walls.append(wall)
                rss.append(peak)
            wall = statistics.median(walls)
            base = base or wall
            # The summary of the table just written, counted again from its rows.
            summarize = statistics.median(
                run([REMIS, "summarize", "--force", OUT / "hostile-out"])[0] for _ in range(args.runs)
            )
            summary = err.strip().splitlines()[0] if err.strip() else ""
            print(f"  {name.replace('N', str(size)):<45} {nbytes / 2**20:9.1f} MiB {wall:8.2f} s "
                  f"x{wall / base:5.2f} {max(rss):8.1f} MiB  summarize {summarize:6.2f} s   {summary[:60]}",
                  flush=True)
            lines.append(f"| {name} | {size:,} {unit} | {nbytes / 2**20:.1f} MiB | {wall:.2f} s "
                         f"| {wall / base:.2f} | {max(rss):.0f} MiB | {summarize:.2f} s |")
            path.unlink()
    report = OUT / "hostile.md"
    report.write_text("\n".join(lines) + "\n")
    print(f"bench-hostile: table in {report}")


if __name__ == "__main__":
    main()
