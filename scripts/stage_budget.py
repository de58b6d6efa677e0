"""The per-stage budget of `remis classify` (issue 21): where a game's
nanoseconds go, measured by sampling, against the bare replay loop's total.

    python scripts/stage_budget.py CORPUS.pgn... [--remis PATH] [--bare PATH]

Runs `remis classify FILE --threads 1 --no-summary` under `perf record`
(cpu-clock samples at 999 Hz, a build with line tables: `cargo build
--profile profiling`), sorts every sample's function into a stage by its
name, and prints, per stage, the share of samples and the nanoseconds per
game that share is of the run's CPU time. The bare loop
(`crates/core/examples/bare_replay.rs`: pgn-reader and shakmaty, nothing else) is timed
on the same file. Needs Linux perf (Debian's linux-perf); says so when it is
missing."""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# First match wins: (stage, regular expression on the function's name).
STAGES = [
    ("search (dead positions, 6.9)", r"chasolver|^chess::|<chess::|remis(_core)?::rules::dead"),
    ("Parquet encoding (writer)", r"ZSTD_|polars_parquet|polars_io::parquet|polars_compute::cardinality|"
                                  r"ValueMap|dictionary|polars_arrow::array::binview::view|parquet_format|encode"),
    ("building the row", r"TableBuilder|MutableBinaryViewArray|polars_arrow|polars_core|replay_chunk|"
                         r"take_frame|write_in_order"),
    ("end-of-game facts (FEN, material, claims)", r"BoardFacts|facts::|Arbiter::rule|fen::|Fen|append_to|plus_remise|"
                                                  r"rules::ending|rules::record|Termination|legal_moves|"
                                                  r"gen_|has_insufficient|is_insufficient|fmt::|Formatter|"
                                                  r"finish|clock_seconds"),
    ("history and hash", r"history::|PositionHistory|zobrist|Zobrist|position_hash"),
    ("SAN and play", r"san::resolve|Visitor>::san|Arbiter::play|play_unchecked|attacks|is_irreversible|"
                     r"to_move|Board::|shakmaty::position|shakmaty::board"),
    ("lexing (movetext and tags)", r"pgn::Game|input::pgn|read_san|SanPlus|San::|tag_pairs|split_tags|"
                                   r"GameText|Visitor>::tag|Visitor>::comment|from_utf8|memchr"),
    ("framing and decoding", r"frame::|Framer|chunk_stream|NormalizedText|text::|_copy_to_iter|"
                             r"read_chunks|Chunker|zstd|inflate|BZ2"),
    ("memory and system", r"memmove|memcpy|memset|malloc|free|realloc|alloc::|\[k\]|page|futex|"
                          r"clear_page|sys_|do_syscall|^_?mi_"),
]


def classify(symbol):
    for stage, pattern in STAGES:
        if re.search(pattern, symbol):
            return stage
    return "other"


def timed(command, runs=3):
    """Median wall and CPU (user + sys, all threads) nanoseconds."""
    walls, cpus = [], []
    for _ in range(runs):
        started = time.perf_counter()
        proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        if status != 0:
            sys.exit(f"stage budget: {' '.join(command)} failed")
        walls.append(time.perf_counter() - started)
        cpus.append(usage.ru_utime + usage.ru_stime)
    walls.sort()
    cpus.sort()
    return walls[len(walls) // 2] * 1e9, cpus[len(cpus) // 2] * 1e9


def games_in(path):
    with open(path, "rb") as f:
        return sum(1 for line in f if line.startswith(b"[Event "))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpora", nargs="+")
    build = os.environ.get("CARGO_TARGET_DIR", "target")
    parser.add_argument("--remis", default=f"{build}/profiling/remis")
    parser.add_argument("--bare", default=f"{build}/release/examples/bare_replay")
    parser.add_argument("--release", default=f"{build}/release/remis")
    args = parser.parse_args()
    if shutil.which("perf") is None:
        print("stage budget: no perf on this machine (Debian's linux-perf); not measured")
        return
    for corpus in args.corpora:
        games = games_in(corpus)
        bare_ns = timed([args.bare, corpus, "1"])[0] / games
        with tempfile.TemporaryDirectory() as tmp:
            data = os.path.join(tmp, "perf.data")
            subprocess.run(["perf", "record", "-q", "-F", "999", "-o", data, args.remis, "classify", corpus,
                            "--threads", "1", "--no-summary", "--out", os.path.join(tmp, "out")],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            report = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "comm,sym",
                                     "--stdio", "-g", "none", "--percent-limit", "0"],
                                    check=True, capture_output=True, text=True).stdout
        shares = collections.Counter()
        threads = collections.Counter()
        for line in report.splitlines():
            m = re.match(r"\s*([\d.]+)%\s+(\S+)\s+(\[.\])\s+(.*)$", line)
            if not m:
                continue
            share, comm, kind, symbol = float(m.group(1)), m.group(2), m.group(3), m.group(4)
            threads[comm] += share
            stage = classify(("[k] " if kind == "[k]" else "") + symbol)
            # The writer thread's copies and allocations are the writer's.
            if comm == "remis" and stage in ("memory and system", "other", "building the row"):
                stage = "Parquet encoding (writer)"
            shares[stage] += share
        # Shares come from the profiled run; the time they divide is that of
        # the release build run alone (CPU of all threads, and wall).
        wall_ns, cpu_ns = timed([args.release, "classify", corpus, "--threads", "1", "--no-summary",
                                 "--out", os.path.join(tempfile.gettempdir(), "remis-stage-budget")])
        wall_ns, cpu_ns = wall_ns / games, cpu_ns / games
        print(f"\n{os.path.basename(corpus)}: {games:,} games; bare loop {bare_ns:,.0f} ns/game "
              f"(1 thread); remis --threads 1: {wall_ns:,.0f} ns/game wall (bare/remis "
              f"{bare_ns / wall_ns:.2f}), {cpu_ns:,.0f} ns/game of CPU in all its threads")
        print("samples by thread: " + ", ".join(f"{t} {s:.1f}%" for t, s in threads.most_common()))
        print()
        print("| stage | share of CPU samples | ns/game | × the bare loop's total |")
        print("|---|---:|---:|---:|")
        for stage, _ in STAGES + [("other", "")]:
            share = shares.get(stage, 0.0)
            ns = cpu_ns * share / 100
            print(f"| {stage} | {share:.1f}% | {ns:,.0f} | {ns / bare_ns:.2f} |")
        print(f"| all | 100% | {cpu_ns:,.0f} | {cpu_ns / bare_ns:.2f} |")
        # What the target (remis >= 0.85 of the bare loop) leaves room for:
        # the bare loop's own work is lexing, SAN and play, so remis reaches
        # it only if everything else costs at most 0.15 of it.
        ns = {stage: cpu_ns * shares.get(stage, 0.0) / 100 for stage, _ in STAGES}
        core = ns["lexing (movetext and tags)"] + ns["SAN and play"]
        search = ns["search (dead positions, 6.9)"]
        print()
        print(f"replay core (lexing, SAN and play): {core:,.0f} ns/game = {core / bare_ns:.2f} x the bare loop")
        print(f"ceiling, every stage but the core and the search free: bare/remis {bare_ns / (core + search):.2f}")
        print(f"ceiling, the search free too: bare/remis {bare_ns / core:.2f}")


if __name__ == "__main__":
    main()
