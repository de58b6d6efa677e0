"""Writes the three analysis notebooks from the cells below (run it after
editing them: python notebooks/make_notebooks.py). The notebooks read a
games.parquet table from REMIS_TABLE (default: the sample report's table)."""
import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = pathlib.Path(__file__).parent

SETUP = '''import json, os, pathlib, subprocess, tomllib
import polars as pl
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = pathlib.Path("..").resolve()
TABLE = os.environ.get("REMIS_TABLE", str(ROOT / "reports" / "sample" / "games.parquet"))
BUILD = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
REMIS = os.environ.get("REMIS", str(BUILD / "debug" / "remis"))
EXTRA = os.environ.get("REMIS_FILTERS", "").split()  # e.g. "--dedup"

def remis(*args):
    """Runs remis and returns its JSON output: the numbers, intervals and
    filters are remis's own, not re-implemented here."""
    out = subprocess.run([REMIS, *map(str, args), "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)

print(TABLE, pl.scan_parquet(TABLE).select(pl.len()).collect().item(), "rows")'''

TWIC = [
    new_markdown_cell("""# Draw rates by rating band, TWIC style

The classic figure: *of about 22,000 games published in The Week in Chess between 1999 and
2002 by players rated 2500 or above, 55% were draws; 2300–2499: 45% of about 40,000 games;
2100–2299: 34% of about 22,500.* This notebook asks `remis stats` for the same table (band of
the lower-rated player, 95% Wilson intervals), once for all events and once without rapid,
blitz, blindfold and simultaneous events recognised by name, and plots it next to the
published figures."""),
    new_code_cell(SETUP),
    new_code_cell('''PUBLISHED = {"2100–2299": (0.34, 22500), "2300–2499": (0.45, 40000), "≥ 2500": (0.55, 22000)}
COMMON = ["stats", TABLE, "--years", "1999-2002", "--band-edges", "2100,2300,2500", "--by-band", *EXTRA]

def table(extra):
    rows = [r for r in remis(*COMMON, *extra) if r["band"] in PUBLISHED]
    return pl.DataFrame(
        [{**r, "published_rate": PUBLISHED[r["band"]][0], "published_games": PUBLISHED[r["band"]][1]} for r in rows]
    ) if rows else pl.DataFrame()

all_events = table([])
classical = table(["--time-class", "classical"])
print("All events"); print(all_events)
print("Without rapid/blitz/blindfold/simul events"); print(classical)'''),
    new_code_cell('''fig, ax = plt.subplots(figsize=(7, 4))
for offset, (label, t) in enumerate([("all events", all_events), ("classical only", classical)]):
    if t.is_empty():
        continue
    x = [i + offset * 0.25 for i in range(t.height)]
    ax.bar(x, t["draw_rate"], width=0.25, label=f"remis, {label}",
           yerr=[t["draw_rate"] - t["ci95_low"], t["ci95_high"] - t["draw_rate"]], capsize=3)
if not all_events.is_empty():
    ax.scatter([i + 0.5 for i in range(all_events.height)], all_events["published_rate"],
               color="black", marker="D", label="published (TWIC 1999–2002)", zorder=3)
    ax.set_xticks([i + 0.25 for i in range(all_events.height)], all_events["band"])
ax.set_ylabel("Draw rate"); ax.set_ylim(0, 1); ax.legend()
ax.set_title("Draw rate by rating band, 1999–2002")
fig.tight_layout()'''),
]

SOFIA = [
    new_markdown_cell("""# Rules against short draws: raw and strength-adjusted estimates

`remis sofia` compares event editions played under a rule against draws (no draw offers,
no draw offers before move N, 3-1-0 scoring, armageddon) with editions without one, from the
sourced catalogue `data/events.toml`: raw differences, differences adjusted for strength
(Mantel–Haenszel over rating bands) and, for series that changed their rules, differences in
differences, with 95% bootstrap intervals over editions.

This notebook reads remis's numbers as JSON and **reproduces the raw and adjusted estimates
independently**: it matches the catalogue's patterns to the table itself (Python regular
expressions on the same TOML file), recomputes the pooled and Mantel–Haenszel differences in
polars, and cross-checks the adjustment with a logistic regression in statsmodels."""),
    new_code_cell(SETUP),
    new_code_cell('''study = remis("sofia", TABLE, *EXTRA)
print("regimes:", {k: v["games"] for k, v in study["regimes"].items()})
for e in study["effects"]:
    print(e["measure"], "raw", e["raw"], "adjusted", e["adjusted"])
for c in study["changes"]:
    print(c["series"], c["regimes"], "with", c["after_years"], "without", c["before_years"])
    for e in c["effects"]:
        print("   DiD", e["measure"], e["raw"], e["adjusted"])'''),
    new_code_cell('''import re
catalogue = tomllib.loads((ROOT / "data" / "events.toml").read_text())["event"]
FAST = tomllib.loads((ROOT / "data" / "event_patterns.toml").read_text())["pattern"]
fast = [re.compile(p["regex"]) for p in FAST]

def regime_of(event, site, year):
    for e in catalogue:
        lo, hi = e["years"]
        if year is None or not (lo <= year <= hi):
            continue
        if not re.search(e["event"], event or "", re.I):
            continue
        if "site" in e and not (site and re.search(e["site"], site, re.I)):
            continue
        return e["series"], e.get("regime") or ("none" if e.get("control") else "rule")
    return None

dedup = "--dedup" in EXTRA
games = pl.read_parquet(TABLE).filter(
    pl.col("result").is_in(["1-0", "0-1", "1/2-1/2"])
    & ~pl.col("ending").is_in(["invalid", "unfinished", "unsupported_variant"])
    & (~pl.col("duplicate").fill_null(False) if dedup else pl.lit(True))
)
keys = games.select("event", "site", "year").unique()
matched = []
for event, site, year in keys.iter_rows():
    r = regime_of(event, site, year)
    if r and not any(f.search(event or "") for f in fast):
        matched.append({"event": event, "site": site, "year": year, "series": r[0], "regime": r[1]})
study_games = (games.join(pl.DataFrame(matched, schema={"event": pl.String, "site": pl.String, "year": pl.Int16,
                                                         "series": pl.String, "regime": pl.String}),
                          on=["event", "site", "year"], how="inner", nulls_equal=True)
               if matched else games.clear().with_columns(pl.lit("").alias("series"), pl.lit("").alias("regime")))
study_games = study_games.with_columns(
    (pl.col("regime") != "none").alias("rule"),
    (pl.col("result") == "1/2-1/2").cast(pl.Int64).alias("draw"),
    # The report's band: the lower-rated player's, 100 points wide; games
    # without both ratings form a stratum of their own.
    pl.when(pl.col("white_elo").is_null() | pl.col("black_elo").is_null()).then(-1)
      .otherwise(pl.min_horizontal("white_elo", "black_elo").cast(pl.Int64) // 100).alias("band"),
)
print(study_games.group_by("regime").agg(pl.len(), pl.col("draw").mean()).sort("regime"))'''),
    new_code_cell('''def pooled_rd(df):
    r = df.group_by("rule").agg(pl.col("draw").mean().alias("p"))
    p = dict(zip(r["rule"], r["p"]))
    return p.get(True, float("nan")) - p.get(False, float("nan"))

def mantel_haenszel_rd(df):
    s = (df.group_by("band", "rule").agg(pl.len().alias("n"), pl.col("draw").sum().alias("y"))
           .pivot(on="rule", index="band", values=["n", "y"]).drop_nulls())
    if s.is_empty():
        return float("nan")
    n1, n0, y1, y0 = s["n_true"], s["n_false"], s["y_true"], s["y_false"]
    w = n1 * n0 / (n1 + n0)
    return float((w * (y1 / n1 - y0 / n0)).sum() / w.sum())

rated = study_games.filter(pl.col("band") >= 0)
mine = {"raw": pooled_rd(study_games), "adjusted": mantel_haenszel_rd(study_games)}
theirs = next((e for e in study["effects"] if e["measure"] == "Draw rate"), None)
print("this notebook:", mine)
print("remis:        ", theirs)
if theirs and theirs["raw"] is not None:
    assert abs(mine["raw"] - theirs["raw"]["estimate"]) < 1e-9, "raw estimate differs"
    assert abs(mine["adjusted"] - theirs["adjusted"]["estimate"]) < 1e-9, "adjusted estimate differs"
    print("raw and Mantel–Haenszel draw-rate differences reproduced")'''),
    new_code_cell('''# A second adjustment: logistic regression of a draw on the rule and the rating band,
# its effect as an average marginal effect (statsmodels).
import statsmodels.formula.api as smf
if rated.height > 50 and rated["rule"].n_unique() == 2:
    import pandas as pd
    frame = rated.select(pl.col("draw"), pl.col("rule").cast(pl.Int64), pl.col("band").cast(pl.String))
    data = pd.DataFrame({c: frame[c].to_list() for c in frame.columns})
    fit = smf.logit("draw ~ rule + C(band)", data=data).fit(disp=False, maxiter=200)
    margins = fit.get_margeff(at="overall").summary_frame()
    print(margins.loc[["rule"]])
else:
    print("too few rated games under both regimes for a regression")'''),
]

SCORING = [
    new_markdown_cell("""# Scoring systems: classical, 3-1-0, 3-2-1 and plus-remise

Points per game under four systems, and event standings under each:
- classical 1–½–0;
- "football" 3–1–0 (Bilbao);
- children's 3–2–1 (win 3, draw 2, loss 1);
- **plus-remise**: no game is drawn; a draw by the classical rules is won by the side with more
  material in the final position (queen 9, rook 5, bishop 3, knight 3, pawn 1, bishop pair 1;
  if equal, pawns count double; if still equal, Black wins). remis stores the winner and the
  deciding rule in `plus_remise_winner` and `plus_remise_rule`.

The numbers come from `remis scoring --format json`: the same games, filters and standings as
the report."""),
    new_code_cell(SETUP),
    new_code_cell('''study = remis("scoring", TABLE, *EXTRA)
mix = pl.DataFrame(study["plus_remise_draws"], schema={"winner": pl.String, "rule": pl.Int64, "rule_name": pl.String, "games": pl.Int64})
total = mix["games"].sum() if mix.height else 0
print(f"{total} draws decided by plus-remise")
print(mix.with_columns((pl.col("games") / max(total, 1)).alias("share")))
print(f"{study['events']} events (Event tag and year)")
for c in study["changes"]:
    print(f"{c['system']}: {c['different_winner']} events with a different winner; places moved in all: {c['places_moved']}")
    for e in c["examples"][:3]:
        print("   e.g.", e["label"], ":", " and ".join(e["classical"]), "->", " and ".join(e["other"]))'''),
    new_code_cell('''fig, ax = plt.subplots(figsize=(6, 3.5))
if total:
    labels = [f"{w}: {name}" for w, _, name, _ in mix.iter_rows()]
    ax.bar(labels, mix["games"] / total, color=["#888" if w == "white" else "#333" for w, _, _, _ in mix.iter_rows()])
    ax.tick_params(axis="x", labelrotation=20)
ax.set_ylabel("Share of draws"); ax.set_title("Who wins the draws under plus-remise")
fig.tight_layout()'''),
]

for name, cells in [("twic_draw_rates", TWIC), ("sofia_rules", SOFIA), ("scoring_systems", SCORING)]:
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    # Stable cell ids, so that regenerating a notebook changes only what changed.
    for i, cell in enumerate(nb.cells):
        cell.id = f"{name}-{i}"
    nbformat.write(nb, HERE / f"{name}.ipynb")
    print("wrote", name)
