"""make bench: remis against the bare replay loop, pgn-extract and
python-chess on the same decompressed input, side by side in one run on
this machine; peak memory at growing input sizes; compressed input against
plain. Writes target/bench/results.md (a table for docs/performance.md).

Every figure is a whole-process wall time (median of --runs) and the
process's own peak RSS (from wait4), so the peers are measured alike."""
import argparse
import json
import os
import pathlib
import platform
import shutil
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "bench"
# Where cargo builds: target/, or CARGO_TARGET_DIR when it is set.
BUILD = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
REMIS = BUILD / "release" / "remis"
BARE = BUILD / "release" / "examples" / "bare_replay"
# Debian installs pgn-extract under /usr/games.
PGN_EXTRACT = shutil.which("pgn-extract") or "/usr/games/pgn-extract"


def run(cmd, stdout=subprocess.DEVNULL):
    """Runs a command, returns (wall seconds, peak RSS MiB, stdout)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if stdout is None else stdout,
                            stderr=subprocess.PIPE)
    out = proc.stdout.read() if stdout is None else b""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit(f"bench: {' '.join(map(str, cmd))} failed: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024, out.decode()


def run_fed(producer, cmd):
    """Runs `cmd` with `producer`'s output as its standard input; returns
    (wall seconds, peak RSS MiB) of `cmd` alone."""
    started = time.perf_counter()
    feed = subprocess.Popen(producer, stdout=subprocess.PIPE)
    proc = subprocess.Popen(cmd, stdin=feed.stdout, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    feed.stdout.close()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if feed.wait() != 0 or status != 0:
        sys.exit(f"bench: {' '.join(map(str, cmd))} failed: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024


def one_large_table(corpus, generated, large, results):
    """classify (the default command, with its summary) and report from
    the rows, at 1 M rows and at `large` rows in one table: time and peak
    RSS, and their ratio. The large input is the generated file's copies
    with players and events renamed, fed through standard input (never
    stored)."""
    copies = -(-large // generated)
    games = copies * generated
    print(f"one large table: {games} games ({copies} renamed copies of {generated})", flush=True)
    r = results.setdefault("one large table", {"games": games})
    work = OUT / "large"
    for n, label in [(1_000_000, "1M"), (games, "large")]:
        shutil.rmtree(work, ignore_errors=True)
        cmd = [REMIS, "classify", "-", "--threads", "2", "--out", work]
        producer = [sys.executable, ROOT / "scripts" / "renamed_copies.py",
                    corpus[f"generated-{generated}" if n == games else "generated-1000000"],
                    str(copies if n == games else 1)]
        wall, peak = run_fed(producer, cmd)
        r[f"classify {label}"] = {"games": n, "wall_s": wall, "rss_mib": peak}
        print(f"  classify, {n} rows: {wall:8.1f} s  {n / wall:>8.0f} games/s  {peak:7.1f} MiB", flush=True)
        wall, peak, _ = run([REMIS, "report", work, "--source", "rows", "--out", OUT / "large-report.html"])
        r[f"report {label}"] = {"games": n, "wall_s": wall, "rss_mib": peak}
        print(f"  report --source rows, {n} rows: {wall:8.1f} s  {peak:7.1f} MiB", flush=True)
    shutil.rmtree(work, ignore_errors=True)
    for stage in ["classify", "report"]:
        small, big = r[f"{stage} 1M"], r[f"{stage} large"]
        ratio = big["rss_mib"] / small["rss_mib"]
        month = 90_000_000 / big["games"] * big["wall_s"]
        print(f"  {stage}: peak RSS {big['rss_mib']:.0f} MiB at {games} rows / {small['rss_mib']:.0f} MiB at 1M = "
              f"{ratio:.2f}x; a 90 M-game month at this rate: {month / 60:.0f} min", flush=True)


def measure(name, cmd, games, runs, results):
    walls, rss = [], []
    for _ in range(runs):
        wall, peak, _ = run(cmd)
        walls.append(wall)
        rss.append(peak)
    wall = statistics.median(walls)
    results[name] = {"wall_s": wall, "games": games, "games_per_s": games / wall,
                     "rss_mib": max(rss), "runs": runs}
    print(f"  {name:<28} {games / wall:>10.0f} games/s  {wall:7.2f} s  {max(rss):7.1f} MiB", flush=True)


def count_games(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line.startswith(b"[Event "))


def prepare(shared, generated_games):
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = {}
    players = OUT / "pgnmentor-players.pgn"
    if not players.exists():
        with open(players, "wb") as out:
            for f in sorted((shared / "pgnmentor-players").glob("*.pgn.zst")):
                out.write(subprocess.run(["zstd", "-dc", str(f)], check=True, capture_output=True).stdout)
                out.write(b"\n\n")
    corpus["pgnmentor-players"] = players
    lichess = OUT / "lichess-users.pgn"
    if not lichess.exists():
        with open(lichess, "wb") as out:
            subprocess.run(["zstd", "-dc", str(shared / "lichess" / "lichess_users_2018-2022.pgn.zst")],
                           check=True, stdout=out)
    corpus["lichess-users"] = lichess
    for n in [100_000, 1_000_000, generated_games]:
        path = OUT / f"generated-{n}.pgn"
        if not path.exists():
            print(f"bench: generating {n} games", flush=True)
            subprocess.run([str(REMIS), "generate", "--games", str(n), "--seed", "42", "--out", str(path)],
                           check=True)
        corpus[f"generated-{n}"] = path
    for suffix, cmd in [(".zst", ["zstd", "-q", "-3", "-f", "-k"]), (".gz", ["gzip", "-6", "-f", "-k"])]:
        target = pathlib.Path(str(players) + suffix)
        if not target.exists():
            subprocess.run(cmd + [str(players)], check=True)
    return corpus


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--generated", type=int, default=2_000_000)
    parser.add_argument("--large", type=int, default=20_000_000,
                        help="rows of the one large table (0: skip that stage)")
    parser.add_argument("--pychess-games", type=int, default=3000)
    args = parser.parse_args()
    shared = pathlib.Path(args.shared)
    if not (shared / "pgnmentor-players").is_dir():
        sys.exit(f"bench: {shared} is absent; the benchmark corpus is built from its collections")
    for tool in ["zstd", "gzip"]:
        if shutil.which(tool) is None:
            sys.exit(f"bench: {tool} not found (scripts/bench.sh installs pgn-extract)")

    corpus = prepare(shared, args.generated)
    tmp = OUT / "out"
    results = {"machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.platform()}"}
    for name in ["pgnmentor-players", "lichess-users"]:
        path = corpus[name]
        games = count_games(path)
        mib = path.stat().st_size / 2**20
        print(f"{name}: {games} games, {mib:.0f} MiB", flush=True)
        r = results.setdefault(name, {"games": games, "mib": mib})
        measure("remis, 1 thread", [REMIS, "classify", "--no-summary", path, "--threads", "1", "--out", tmp], games, args.runs, r)
        measure("remis, 2 threads", [REMIS, "classify", "--no-summary", path, "--threads", "2", "--out", tmp], games, args.runs, r)
        measure("remis, 1 thread, shakmaty SAN", [REMIS, "classify", "--no-summary", path, "--threads", "1",
                                                  "--san-resolver", "shakmaty", "--out", tmp],
                games, args.runs, r)
        # The search's share is asked of one thread (issue 31), where it is
        # not hidden behind the reading thread.
        measure("remis, 1 thread, --no-search", [REMIS, "classify", "--no-summary", path, "--threads", "1", "--no-search",
                                                 "--out", tmp], games, args.runs, r)
        measure("remis, 2 threads, --no-search", [REMIS, "classify", "--no-summary", path, "--threads", "2", "--no-search",
                                                  "--out", tmp], games, args.runs, r)
        measure("bare replay, 1 thread", [BARE, path, "1"], games, args.runs, r)
        measure("bare replay, 2 threads", [BARE, path, "2"], games, args.runs, r)
        measure("pgn-extract", [PGN_EXTRACT, "-s", "--fifty", "--repetition", "--stalemate",
                                "-o", "/dev/null", path], games, args.runs, r)
        wall, _, out = run([sys.executable, ROOT / "scripts" / "bench_pychess.py", path,
                            str(args.pychess_games)], stdout=None)
        sample_games, seconds = out.split()
        rate = int(sample_games) / float(seconds)
        r["python-chess"] = {"games_per_s": rate, "sample_games": int(sample_games),
                             "note": "first games of the file, timed inside the process"}
        print(f"  {'python-chess (sample)':<28} {rate:>10.0f} games/s", flush=True)

    print("compressed input, pgnmentor-players", flush=True)
    players = corpus["pgnmentor-players"]
    games = results["pgnmentor-players"]["games"]
    r = results.setdefault("compressed", {})
    for suffix in ["", ".zst", ".gz"]:
        measure(f"remis, 2 threads, {suffix or 'plain'}",
                [REMIS, "classify", "--no-summary", f"{players}{suffix}", "--threads", "2", "--out", tmp], games, args.runs, r)

    print("memory by input size (generated games)", flush=True)
    r = results.setdefault("scale", {})
    for n in [100_000, 1_000_000, args.generated]:
        measure(f"remis, 2 threads, {n} games",
                [REMIS, "classify", "--no-summary", corpus[f"generated-{n}"], "--threads", "2", "--out", tmp], n, 1, r)

    if args.large:
        one_large_table(corpus, args.generated, args.large, results)

    (OUT / "results.json").write_text(json.dumps(results, indent=2, default=str))
    print(f"bench: results in {OUT / 'results.json'}")
    ratios(results)


def ratios(results):
    lines = []
    for name in ["pgnmentor-players", "lichess-users"]:
        r = results[name]
        one = r["remis, 1 thread"]["games_per_s"]
        lines.append(f"{name}: remis 1 thread / pgn-extract = {one / r['pgn-extract']['games_per_s']:.2f}x; "
                     f"/ python-chess = {one / r['python-chess']['games_per_s']:.0f}x; "
                     f"/ bare replay = {100 * one / r['bare replay, 1 thread']['games_per_s']:.0f}%; "
                     f"2 threads / 1 thread = {r['remis, 2 threads']['games_per_s'] / one:.2f}x; "
                     f"2 threads / bare 2 threads = {100 * r['remis, 2 threads']['games_per_s'] / r['bare replay, 2 threads']['games_per_s']:.0f}%; "
                     f"own SAN resolver / shakmaty's = "
                     f"{one / r['remis, 1 thread, shakmaty SAN']['games_per_s']:.2f}x; "
                     f"dead-position and 6.9 search share of the run at 1 thread = "
                     f"{100 * (1 - r['remis, 1 thread, --no-search']['wall_s'] / r['remis, 1 thread']['wall_s']):.1f}% "
                     f"(+{100 * (r['remis, 1 thread']['wall_s'] / r['remis, 1 thread, --no-search']['wall_s'] - 1):.1f}% wall), "
                     f"at 2 threads "
                     f"{100 * (1 - r['remis, 2 threads, --no-search']['wall_s'] / r['remis, 2 threads']['wall_s']):.1f}%")
    c = results["compressed"]
    plain = c["remis, 2 threads, plain"]["wall_s"]
    lines.append(f"zst / plain wall = {c['remis, 2 threads, .zst']['wall_s'] / plain:.2f}; "
                 f"gz / plain = {c['remis, 2 threads, .gz']['wall_s'] / plain:.2f}")
    s = results["scale"]
    lines.append("peak RSS: " + ", ".join(f"{k.split(', ')[-1]}: {v['rss_mib']:.0f} MiB" for k, v in s.items()))
    large = results.get("one large table")
    if large:
        for stage in ["classify", "report"]:
            small, big = large[f"{stage} 1M"], large[f"{stage} large"]
            lines.append(f"one table, {stage}: {big['games']} rows {big['wall_s']:.0f} s {big['rss_mib']:.0f} MiB; "
                         f"1M rows {small['wall_s']:.1f} s {small['rss_mib']:.0f} MiB; RSS ratio "
                         f"{big['rss_mib'] / small['rss_mib']:.2f}x")
    text = "\n".join(lines)
    print(text)
    (OUT / "results.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
