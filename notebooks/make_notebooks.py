"""Writes the three analysis notebooks from the cells below (run it after
editing them: python notebooks/make_notebooks.py). The notebooks read a
games.parquet table from REMIS_TABLE (default: the sample report's table)."""
import pathlib

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = pathlib.Path(__file__).parent

SETUP = '''import os, math
import polars as pl
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

TABLE = os.environ.get("REMIS_TABLE", "../reports/sample/games.parquet")
games = pl.scan_parquet(TABLE)
print(TABLE, games.select(pl.len()).collect().item(), "rows")

def wilson(k, n, z=1.959964):
    """95% Wilson score interval for k successes out of n."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)

# Rows that count: replayed games with a result; later copies of a game left
# out when the table was classified with --dedup.
used = games.filter(
    ~pl.col("ending").is_in(["invalid", "unfinished", "unsupported_variant"])
    & pl.col("result").is_in(["1-0", "0-1", "1/2-1/2"])
    & ~pl.col("duplicate").fill_null(False)
).with_columns(
    pl.min_horizontal("white_elo", "black_elo").alias("min_elo"),
    (pl.col("result") == "1/2-1/2").alias("draw"),
)'''

TWIC = [
    new_markdown_cell("""# Draw rates by rating band, TWIC style

The classic figure: *of about 22,000 games published in The Week in Chess between 1999 and
2002 by players rated 2500 or above, 55% were draws; 2300–2499: 45% of about 40,000 games;
2100–2299: 34% of about 22,500.* This notebook computes the same table from a remis table
(band of the lower-rated player), with 95% Wilson intervals, once for all events and once
without rapid, blitz, blindfold and simultaneous events recognised by name."""),
    new_code_cell(SETUP),
    new_code_cell('''YEARS = (1999, 2002)
PUBLISHED = {"2100–2299": (0.34, 22500), "2300–2499": (0.45, 40000), "2500+": (0.55, 22000)}
FAST = r"(?i)rapid|blitz|blind|simul|bullet|armageddon|lightning"

def band(e):
    return (pl.when(e >= 2500).then(pl.lit("2500+"))
              .when(e >= 2300).then(pl.lit("2300–2499"))
              .when(e >= 2100).then(pl.lit("2100–2299"))
              .otherwise(None))

def table(frame):
    rows = (frame.filter(pl.col("year").is_between(*YEARS))
                 .with_columns(band(pl.col("min_elo")).alias("band"))
                 .filter(pl.col("band").is_not_null())
                 .group_by("band").agg(pl.len().alias("games"), pl.col("draw").sum().alias("draws"))
                 .sort("band").collect())
    out = []
    for b, n, d in rows.iter_rows():
        lo, hi = wilson(d, n)
        rate, pub_n = PUBLISHED[b]
        out.append({"band": b, "games": n, "draws": d, "rate": d / n, "ci_low": lo, "ci_high": hi,
                    "published_rate": rate, "published_games": pub_n})
    return pl.DataFrame(out) if out else pl.DataFrame()

all_events = table(used)
classical = table(used.filter(~pl.col("event").fill_null("").str.contains(FAST)
                              & pl.col("time_class").fill_null("classical").eq("classical")))
print("All events"); print(all_events)
print("Without rapid/blitz/blindfold/simul events"); print(classical)'''),
    new_code_cell('''fig, ax = plt.subplots(figsize=(7, 4))
for offset, (label, t) in enumerate([("all events", all_events), ("classical only", classical)]):
    if t.is_empty():
        continue
    x = [i + offset * 0.25 for i in range(t.height)]
    ax.bar(x, t["rate"], width=0.25, label=f"remis, {label}",
           yerr=[t["rate"] - t["ci_low"], t["ci_high"] - t["rate"]], capsize=3)
if not all_events.is_empty():
    ax.scatter([i + 0.5 for i in range(all_events.height)], all_events["published_rate"],
               color="black", marker="D", label="published (TWIC 1999–2002)", zorder=3)
    ax.set_xticks([i + 0.25 for i in range(all_events.height)], all_events["band"])
ax.set_ylabel("Draw rate"); ax.set_ylim(0, 1); ax.legend()
ax.set_title("Draw rate by rating band, 1999–2002")
fig.tight_layout()'''),
]

SOFIA = [
    new_markdown_cell("""# Sofia rules: do games end differently without draw offers?

"Sofia rules" (first used at the M-Tel Masters, Sofia, 2005) forbid draw offers between the
players. This notebook compares elite events played under them (M-Tel Masters, Bilbao Final
Masters, Pearl Spring Nanjing, London Chess Classic) with comparable elite round-robins without
them in the same years, by event-name patterns: draw rate, agreed draws, short draws and the
length of drawn games, each with 95% intervals and n."""),
    new_code_cell(SETUP),
    new_code_cell('''SOFIA = r"(?i)m-?tel|bilbao|nanjing|pearl spring|london chess classic"
CONTROL = r"(?i)corus|tata steel|linares|morelia|dortmund|tal memorial|biel|mexico"
YEARS = (2005, 2012)

elite = (used.filter(pl.col("year").is_between(*YEARS))
             .with_columns(
                 pl.when(pl.col("event").fill_null("").str.contains(SOFIA)).then(pl.lit("Sofia rules"))
                   .when(pl.col("event").fill_null("").str.contains(CONTROL)).then(pl.lit("control"))
                   .otherwise(None).alias("group"))
             .filter(pl.col("group").is_not_null()
                     & ~pl.col("event").fill_null("").str.contains(r"(?i)rapid|blitz|blind")))
summary = (elite.group_by("group").agg(
        pl.len().alias("games"),
        pl.col("draw").sum().alias("draws"),
        (pl.col("draw_type") == "agreed").sum().alias("agreed"),
        (pl.col("draw") & (pl.col("moves") <= 20)).sum().alias("draws_le20"),
        (pl.col("draw") & (pl.col("moves") <= 30)).sum().alias("draws_le30"),
        pl.col("moves").filter(pl.col("draw")).mean().alias("mean_draw_moves"),
    ).sort("group").collect())
rows = []
for g in summary.iter_rows(named=True):
    for what in ["draws", "agreed", "draws_le20", "draws_le30"]:
        lo, hi = wilson(g[what], g["games"])
        rows.append({"group": g["group"], "measure": what, "n": g["games"], "count": g[what],
                     "rate": g[what] / g["games"] if g["games"] else None, "ci_low": lo, "ci_high": hi})
comparison = pl.DataFrame(rows) if rows else pl.DataFrame()
print(summary); print(comparison)'''),
    new_code_cell('''fig, ax = plt.subplots(figsize=(7, 4))
if not comparison.is_empty():
    measures = ["draws", "agreed", "draws_le20", "draws_le30"]
    for k, group in enumerate(["Sofia rules", "control"]):
        part = comparison.filter(pl.col("group") == group)
        if part.is_empty():
            continue
        x = [measures.index(m) + k * 0.35 for m in part["measure"]]
        ax.bar(x, part["rate"], width=0.35, label=group,
               yerr=[part["rate"] - part["ci_low"], part["ci_high"] - part["rate"]], capsize=3)
    ax.set_xticks([i + 0.17 for i in range(4)], ["all draws", "agreed", "draws ≤ 20 moves", "draws ≤ 30 moves"])
ax.set_ylabel("Share of games"); ax.set_ylim(0, 1); ax.legend()
ax.set_title("Sofia-rules events against comparable elite events")
fig.tight_layout()'''),
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
  deciding rule in `plus_remise_winner` and `plus_remise_rule`."""),
    new_code_cell(SETUP),
    new_code_cell('''draws = used.filter(pl.col("draw"))
mix = draws.group_by("plus_remise_winner", "plus_remise_rule").len().sort("plus_remise_winner", "plus_remise_rule").collect()
total = mix["len"].sum()
print(f"{total} draws decided by plus-remise")
print(mix.with_columns((pl.col("len") / total).alias("share")))'''),
    new_code_cell('''white_win = pl.col("result") == "1-0"
black_win = pl.col("result") == "0-1"
draw = pl.col("draw")
pr_white = draw & (pl.col("plus_remise_winner") == "white")
points = used.with_columns(
    pl.when(white_win).then(1.0).when(draw).then(0.5).otherwise(0.0).alias("w_classical"),
    pl.when(white_win).then(3.0).when(draw).then(1.0).otherwise(0.0).alias("w_310"),
    pl.when(white_win).then(3.0).when(draw).then(2.0).otherwise(1.0).alias("w_321"),
    pl.when(white_win | pr_white).then(1.0).otherwise(0.0).alias("w_plus"),
).with_columns(
    (1.0 - pl.col("w_classical")).alias("b_classical"),
    pl.when(black_win).then(3.0).when(draw).then(1.0).otherwise(0.0).alias("b_310"),
    pl.when(black_win).then(3.0).when(draw).then(2.0).otherwise(1.0).alias("b_321"),
    (1.0 - pl.col("w_plus")).alias("b_plus"),
)
systems = ["classical", "310", "321", "plus"]
per_player = pl.concat([
    points.select(pl.col("event"), pl.col("white").alias("player"), *[pl.col(f"w_{s}").alias(s) for s in systems]),
    points.select(pl.col("event"), pl.col("black").alias("player"), *[pl.col(f"b_{s}").alias(s) for s in systems]),
])
standings = per_player.group_by("event", "player").agg(*[pl.col(s).sum() for s in systems]).collect()
ranked = standings.with_columns(*[pl.col(s).rank("min", descending=True).over("event").alias(f"rank_{s}") for s in systems])
winners = ranked.filter(pl.col("rank_classical") == 1).group_by("event").agg(pl.col("player").alias("classical_winners"))
changed = {s: ranked.filter(pl.col(f"rank_{s}") == 1).group_by("event").agg(pl.col("player").sort().alias("w")) for s in systems[1:]}
base = ranked.filter(pl.col("rank_classical") == 1).group_by("event").agg(pl.col("player").sort().alias("w"))
for s, frame in changed.items():
    diff = base.join(frame, on="event", suffix="_other").filter(pl.col("w") != pl.col("w_other"))
    moved = ranked.select((pl.col(f"rank_{s}").cast(pl.Int64) - pl.col("rank_classical").cast(pl.Int64)).abs().sum()).item()
    print(f"{s}: {diff.height} of {base.height} events get a different winner; places moved in all: {moved}")'''),
    new_code_cell('''fig, ax = plt.subplots(figsize=(6, 3.5))
if total:
    labels = [f"{w} by rule {r}" for w, r, _ in mix.iter_rows()]
    ax.bar(labels, mix["len"] / total, color=["#888" if w == "white" else "#333" for w, _, _ in mix.iter_rows()])
ax.set_ylabel("Share of draws"); ax.set_title("Who wins the draws under plus-remise")
fig.tight_layout()'''),
]

for name, cells in [("twic_draw_rates", TWIC), ("sofia_rules", SOFIA), ("scoring_systems", SCORING)]:
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(nb, HERE / f"{name}.ipynb")
    print("wrote", name)
