"""Reproduces the classic TWIC draw-rate figure: "of about 22,000 games
published in The Week in Chess between 1999 and 2002 by players rated 2500
or above, 55% were draws; 2300-2499: 45% of about 40,000 games; 2100-2299:
34% of about 22,500".

Usage: published_figures.py INPUT... (TWIC weekly zips, PGN files or
folders). Classifies with de-duplication, then prints remis's figure for
1999-2002 by the lower-rated player's band, with n and 95% intervals, beside
the published one: once for all events and once without the rapid, blitz,
blindfold and simultaneous events that only event names reveal (patterns:
data/event_patterns.toml, or REMIS_EVENT_PATTERNS=FILE)."""
import csv
import io
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
REMIS = os.environ.get("REMIS", str(ROOT / "target" / "release" / "remis"))
OUT = pathlib.Path(os.environ.get("OUT", ROOT / "target" / "published-figures"))
PUBLISHED = {  # band label -> (draw rate, approximate games)
    "2100–2299": (0.34, 22_500),
    "2300–2499": (0.45, 40_000),
    "≥ 2500": (0.55, 22_000),
}


def stats(extra):
    patterns = os.environ.get("REMIS_EVENT_PATTERNS", str(ROOT / "data" / "event_patterns.toml"))
    cmd = [REMIS, "stats", str(OUT), "--dedup", "--years", "1999-2002", "--band-edges", "2100,2300,2500",
           "--by-band", "--format", "csv", "--event-patterns", patterns] + extra
    text = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {row["band"]: row for row in csv.DictReader(io.StringIO(text))}


def main():
    inputs = sys.argv[1:]
    if not inputs:
        sys.exit(__doc__)
    subprocess.run([REMIS, "classify", "--dedup", *inputs, "--out", str(OUT)], check=True)
    for title, extra in [("all events", []),
                         ("without rapid, blitz, blindfold and simul events", ["--time-class", "classical"])]:
        rows = stats(extra)
        print(f"\n1999-2002, band of the lower-rated player, duplicates removed — {title}")
        print(f"{'band':<11} {'games':>8} {'draws':>8} {'rate':>7} {'95% interval':>15}   published")
        for band, (rate, games) in PUBLISHED.items():
            row = rows.get(band)
            if row is None:
                print(f"{band:<11} {'–':>8} {'–':>8} {'–':>7} {'–':>15}   {rate:.0%} of ~{games:,}")
                continue
            interval = f"{float(row['ci95_low']):.1%}–{float(row['ci95_high']):.1%}"
            print(f"{band:<11} {int(row['games']):>8,} {int(row['draws']):>8,} {float(row['draw_rate']):>7.1%} "
                  f"{interval:>15}   {rate:.0%} of ~{games:,}")


if __name__ == "__main__":
    main()
