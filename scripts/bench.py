"""make bench: remis against the bare replay loop, pgn-extract and
python-chess on the same decompressed input, side by side in one run on
this machine; peak memory at growing input sizes; compressed input against
plain. Writes target/bench/results.md (a table for docs/performance.md).

Every figure is a whole-process wall time (median of --runs), its CPU
time (all threads) and the process's own peak RSS (from wait4), so the
peers are measured alike. The
commands on one input run side by side: each input is read once before
any is timed (so that none is the first to read it from disk), then in
each of --runs rounds every command runs once, in an order rotated from
round to round; a ratio between two commands is the median of their
ratios within a round (a change in the machine's load between rounds
moves both)."""
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
    wall, peak, _, out = run_timed(cmd, stdout)
    return wall, peak, out


def run_timed(cmd, stdout=subprocess.DEVNULL):
    """Runs a command, returns (wall seconds, peak RSS MiB, CPU seconds of
    all its threads, user and system, stdout)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE if stdout is None else stdout,
                            stderr=subprocess.PIPE)
    out = proc.stdout.read() if stdout is None else b""
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if status != 0:
        sys.exit(f"bench: {' '.join(map(str, cmd))} failed: {err.decode(errors='replace')[-2000:]}")
    return wall, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime, out.decode()


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
    measure_side_by_side({name: cmd}, games, runs, results)


def measure_side_by_side(commands, games, runs, results):
    """Times each command of `commands` (name: argv) `runs` times, a round
    at a time: every command once a round, the order rotated each round
    so that none always runs first or after the same one. Each command's
    result keeps its walls and CPU times in round order (`walls`, `cpus`),
    for `paired`."""
    names = list(commands)
    walls = {name: [] for name in names}
    cpus = {name: [] for name in names}
    rss = {name: [] for name in names}
    for round_ in range(runs):
        turn = round_ % len(names)
        for name in names[turn:] + names[:turn]:
            wall, peak, cpu, _ = run_timed(commands[name])
            walls[name].append(wall)
            cpus[name].append(cpu)
            rss[name].append(peak)
    for name in names:
        wall = statistics.median(walls[name])
        cpu = statistics.median(cpus[name])
        results[name] = {"wall_s": wall, "cpu_s": cpu, "games": games, "games_per_s": games / wall,
                         "rss_mib": max(rss[name]), "runs": runs, "walls": walls[name], "cpus": cpus[name]}
        print(f"  {name:<32} {games / wall:>10.0f} games/s  {wall:7.2f} s  CPU {cpu:6.2f} s  "
              f"{max(rss[name]):7.1f} MiB", flush=True)


def paired(results, numerator, denominator, of="walls"):
    """The median, lowest and highest over the rounds of the wall (or
    with `of="cpus"` the CPU time) of `numerator` divided by that of
    `denominator` in the same round."""
    ratios = sorted(a / b for a, b in zip(results[numerator][of], results[denominator][of]))
    return statistics.median(ratios), ratios[0], ratios[-1]


def warm(path):
    """Reads `path` once, untimed, so that it is in the page cache before
    the first timed command reads it."""
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


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
        warm(path)
        classify = [REMIS, "classify", "--no-summary", path, "--out", tmp]
        # The search's share is asked of one thread (issue 31), where it is
        # not hidden behind the reading thread.
        measure_side_by_side({
            "remis, 1 thread": classify + ["--threads", "1"],
            "remis, 2 threads": classify + ["--threads", "2"],
            # The default command: the summary counted beside the table.
            "remis, 2 threads, with summary": [REMIS, "classify", path, "--out", tmp, "--threads", "2"],
            "remis, 1 thread, shakmaty SAN": classify + ["--threads", "1", "--san-resolver", "shakmaty"],
            "remis, 1 thread, --no-search": classify + ["--threads", "1", "--no-search"],
            "remis, 2 threads, --no-search": classify + ["--threads", "2", "--no-search"],
            "bare replay, 1 thread": [BARE, path, "1"],
            "bare replay, 2 threads": [BARE, path, "2"],
            "pgn-extract": [PGN_EXTRACT, "-s", "--fifty", "--repetition", "--stalemate", "-o", "/dev/null", path],
        }, games, args.runs, r)
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
        warm(f"{players}{suffix}")
    measure_side_by_side({
        f"remis, 2 threads, {suffix or 'plain'}":
            [REMIS, "classify", "--no-summary", f"{players}{suffix}", "--threads", "2", "--out", tmp]
        for suffix in ["", ".zst", ".gz"]
    }, games, args.runs, r)

    print("memory by input size (generated games)", flush=True)
    r = results.setdefault("scale", {})
    for n in sorted({100_000, 1_000_000, args.generated}):
        warm(corpus[f"generated-{n}"])
        measure(f"remis, 2 threads, {n} games",
                [REMIS, "classify", "--no-summary", corpus[f"generated-{n}"], "--threads", "2", "--out", tmp], n, 1, r)

    if args.large:
        one_large_table(corpus, args.generated, args.large, results)

    (OUT / "results.json").write_text(json.dumps(results, indent=2, default=str))
    print(f"bench: results in {OUT / 'results.json'}")
    ratios(results)


def ratios(results):
    def ratio(r, numerator, denominator, of="walls"):
        mid, low, high = paired(r, numerator, denominator, of)
        return f"{mid:.2f} ({low:.2f}-{high:.2f})"

    lines = ["ratios: the median over the rounds of the ratio within a round (lowest-highest)"]
    for name in ["pgnmentor-players", "lichess-users"]:
        r = results[name]
        one = r["remis, 1 thread"]["games_per_s"]
        search = [f"{100 * (x - 1):+.1f}%" for x in paired(r, "remis, 1 thread", "remis, 1 thread, --no-search")]
        search_2 = [f"{100 * (x - 1):+.1f}%" for x in paired(r, "remis, 2 threads", "remis, 2 threads, --no-search")]
        lines.append(f"{name}: remis 1 thread / pgn-extract = {ratio(r, 'pgn-extract', 'remis, 1 thread')}x; "
                     f"/ python-chess = {one / r['python-chess']['games_per_s']:.0f}x (not paired); "
                     f"remis / bare replay, 1 thread = {ratio(r, 'bare replay, 1 thread', 'remis, 1 thread')}; "
                     f"2 threads = {ratio(r, 'bare replay, 2 threads', 'remis, 2 threads')}; "
                     f"remis 2 threads / 1 thread = {ratio(r, 'remis, 1 thread', 'remis, 2 threads')}x; "
                     f"own SAN resolver / shakmaty's = {ratio(r, 'remis, 1 thread, shakmaty SAN', 'remis, 1 thread')}x; "
                     f"the dead-position and 6.9 search's cost in wall = {search[0]} ({search[1]} to {search[2]}) "
                     f"at 1 thread, {search_2[0]} ({search_2[1]} to {search_2[2]}) at 2 threads; "
                     f"2 threads, the default command (with its summary) / --no-summary = "
                     f"{ratio(r, 'remis, 2 threads, with summary', 'remis, 2 threads')}x wall; "
                     f"CPU of all threads / the bare replay's at 2 threads = "
                     f"{ratio(r, 'remis, 2 threads, with summary', 'bare replay, 2 threads', 'cpus')}x with the summary, "
                     f"{ratio(r, 'remis, 2 threads', 'bare replay, 2 threads', 'cpus')}x --no-summary")
    c = results["compressed"]
    lines.append(f"zst / plain wall = {ratio(c, 'remis, 2 threads, .zst', 'remis, 2 threads, plain')}; "
                 f"gz / plain = {ratio(c, 'remis, 2 threads, .gz', 'remis, 2 threads, plain')}")
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
