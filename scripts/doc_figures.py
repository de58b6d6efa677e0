"""make doc-figures: the figures docs/report.md cites, computed by the
current build from the master games (../shared/data/pgnmentor-players),
written to docs/figures.md with the commit and date that made them, so
that the docs never quote a figure this build does not produce.
`--check` recomputes them and fails when docs/figures.md differs (the docs
went stale): make validate runs it.

Every figure comes from remis's own JSON (stats, scoring, sofia); the lead
population's count is also recounted here with polars, and the script
fails if the two differ."""
import argparse
import json
import os
import pathlib
import subprocess
import sys

import polars as pl

ROOT = pathlib.Path(__file__).resolve().parent.parent
BUILD = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
REMIS = os.environ.get("REMIS", str(BUILD / "release" / "remis"))
DOC = ROOT / "docs" / "figures.md"


def remis(*args, json_out=True):
    out = subprocess.run([REMIS, *map(str, args), *(["--format", "json"] if json_out else [])],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out) if json_out else out


def row(rows, **want):
    for r in rows:
        if all(r.get(k) == v for k, v in want.items()):
            return r
    raise SystemExit(f"doc-figures: no row {want}")


def pct(x):
    return f"{100 * x:.1f} %"


def figures(table, events):
    lines = []
    lead = remis("stats", table, "--dedup", "--by-band")
    everything = remis("stats", table, "--dedup", "--by-band", "--play", "all")
    lead_all, every_all = row(lead, band="all"), row(everything, band="all")
    # The lead population recounted independently.
    t = pl.scan_parquet(table)
    counted = (
        t.filter(~pl.col("duplicate").fill_null(False)
                 & ~pl.col("ending").is_in(["invalid", "unfinished", "unsupported_variant"])
                 & (pl.col("speed") != "correspondence")
                 & (pl.col("variant").is_null() | (pl.col("variant") == "standard"))
                 & (pl.col("play") == "over-the-board") & (pl.col("speed") == "classical"))
        .select(pl.len()).collect().item()
    )
    if counted != lead_all["games"]:
        raise SystemExit(f"doc-figures: remis counts {lead_all['games']} lead games, polars {counted}")
    lines.append(f"- Games used: {every_all['games']:,}; the lead population (over-the-board classical): "
                 f"{lead_all['games']:,}, drawn {pct(lead_all['draw_rate'])} (every game used: "
                 f"{pct(every_all['draw_rate'])}).")
    by_year_lead = remis("stats", table, "--dedup", "--band-width", "100")
    by_year_all = remis("stats", table, "--dedup", "--band-width", "100", "--play", "all")
    for band in ["2600–2699", "2700–2799"]:
        cells = []
        for year in ["2019", "2020"]:
            try:
                a = row(by_year_lead, band=band, year=year)["draw_rate"]
                b = row(by_year_all, band=band, year=year)["draw_rate"]
            except SystemExit:
                continue
            cells.append(f"{year}: {pct(a)} over the board, classical; {pct(b)} with every format mixed in")
        if cells:
            lines.append(f"- {band}, " + "; ".join(cells) + ".")
    scoring = remis("scoring", table, "--dedup")
    lines.append(f"- Scoring: {scoring['events']:,} events ranked ({scoring['round_robins']:,} round robins, "
                 f"{scoring['swiss']:,} Swiss), of which {scoring['matches']:,} two-player matches; "
                 f"{scoring['incomplete_events_left_out']:,} incomplete and {scoring['small_events_left_out']:,} "
                 f"too small left out.")
    for change in scoring["changes"]:
        multi = scoring["multi_player_events"]
        lines.append(f"  - {change['system']}: another winner in {change['different_winner']:,} events, "
                     f"{change['different_winner_multi_player']:,} of the {multi:,} of three players or more"
                     + (f" ({pct(change['different_winner_multi_player'] / multi)})" if multi else "") + ".")
    if events:
        sofia = remis("sofia", table, "--dedup", "--events", events)
        failed = [c["series"] for c in sofia["changes"]
                  if any(e["pre_trend_fails"] for e in c["effects"])]
        contradicted = [f"{e['series']} {e['year']}" for e in sofia["editions"] if e["contradicts_coding"]]
        lines.append(f"- Rule study: {len(sofia['changes'])} series changed their rules; the pre-trend placebo "
                     f"fails for {', '.join(failed) or 'none'}; editions whose games contradict their coding: "
                     f"{', '.join(contradicted) or 'none'}.")
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shared", nargs="?", default=str(ROOT.parent / "shared" / "data"))
    parser.add_argument("--check", action="store_true", help="fail if docs/figures.md is stale")
    parser.add_argument("--out", default=str(ROOT / "target" / "doc-figures"))
    args = parser.parse_args()
    games = pathlib.Path(args.shared) / "pgnmentor-players"
    if not games.is_dir():
        print(f"doc-figures: SKIPPED — {games} is absent: the master games are needed for these figures")
        return 0
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run([REMIS, "classify", games, "--dedup", "--out", out], check=True, capture_output=True)
    table = out / "games.parquet"
    lines = figures(table, ROOT / "data" / "events.toml")
    body = "\n".join(lines) + "\n"
    header = ("# Figures the docs cite\n\nWritten by `make doc-figures` (`scripts/doc_figures.py`) from the master "
              "games (`../shared/data/pgnmentor-players`, `classify --dedup`, default filters) with the build "
              "named below; `make validate` recomputes them and fails when this page is stale. Edit the script, "
              "not this page.\n\n")
    if args.check:
        old = DOC.read_text() if DOC.exists() else ""
        if body not in old:
            print("doc-figures: docs/figures.md is stale; run make doc-figures. Now:\n" + body)
            return 1
        print("doc-figures: docs/figures.md holds what this build computes")
        return 0
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    version = subprocess.run([REMIS, "--version"], capture_output=True, text=True).stdout.strip()
    stamp = f"{version}, commit {commit}.\n\n"
    DOC.write_text(header + stamp + body)
    print(f"doc-figures: wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
