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
    new_markdown_cell("""## Expected draws from ratings, fitted again here

`remis stats --view expected` fits a logistic regression of the draw on both players' ratings
(a linear spline in the mean rating, the gap and its square; no year term) to cells of like
games, and lists the cells. This notebook fits the same model to the same cells twice, by its
own Newton iterations in numpy and by statsmodels' GLM (binomial family), and checks that both
give remis's coefficients and standard errors; then it plots each year's observed draw rate
beside the rate the ratings predict: their difference is the excess remis reports."""),
    new_code_cell('''import numpy as np
import statsmodels.api as sm

expected = remis("stats", TABLE, "--view", "expected", *EXTRA)
parts = lambda part: [r for r in expected if r["part"] == part]
coefficients = parts("coefficient")
if not coefficients:
    print("no model:", [r["group"] for r in parts("not fitted")])
else:
    cells = parts("cell")
    knots = [r["mean_rating"] for r in parts("knot")]
    formats = [c["group"].removeprefix("format: ") for c in coefficients if c["group"].startswith("format: ")]
    def design(r):
        m, g = (r["mean_rating"] - 2000) / 100, r["gap"] / 100
        return [1.0, m, *[max((r["mean_rating"] - k) / 100, 0.0) for k in knots], g, g * g,
                *[1.0 if r["format"] == f else 0.0 for f in formats]]
    X = np.array([design(r) for r in cells])
    n = np.array([r["games"] for r in cells], dtype=float)
    y = np.array([r["draws"] for r in cells], dtype=float)
    assert X.shape[1] == len(coefficients), (X.shape, len(coefficients))

    # Newton's method on the grouped binomial log-likelihood.
    beta = np.zeros(X.shape[1])
    for _ in range(100):
        p = 1 / (1 + np.exp(-X @ beta))
        information = X.T @ (X * (n * p * (1 - p))[:, None])
        step = np.linalg.solve(information, X.T @ (y - n * p))
        beta += step
        if np.max(np.abs(step)) < 1e-13:
            break
    p = 1 / (1 + np.exp(-X @ beta))
    se = np.sqrt(np.diag(np.linalg.inv(X.T @ (X * (n * p * (1 - p))[:, None]))))
    glm = sm.GLM(np.column_stack([y, n - y]), X, family=sm.families.Binomial()).fit(tol=1e-14)

    theirs = np.array([c["estimate"] for c in coefficients])
    theirs_se = np.array([c["std_error"] for c in coefficients])
    print(pl.DataFrame({"term": [c["group"] for c in coefficients], "remis": theirs, "numpy": beta,
                        "statsmodels": glm.params, "remis se": theirs_se, "statsmodels se": glm.bse}))
    scale = np.maximum(np.abs(theirs), theirs_se)
    for name, mine in [("numpy", beta), ("statsmodels", glm.params)]:
        worst = np.max(np.abs(mine - theirs) / scale)
        assert worst < 1e-6, f"{name}: coefficients differ from remis by {worst:.2e} (relative)"
    for name, mine in [("numpy", se), ("statsmodels", glm.bse)]:
        worst = np.max(np.abs(mine - theirs_se) / theirs_se)
        assert worst < 1e-6, f"{name}: standard errors differ from remis by {worst:.2e} (relative)"
    print(f"remis's {len(theirs)} coefficients and standard errors reproduced from its {len(cells)} cells")

    # Each year's expected draws are its cells' n·p: the excess by year.
    by_year = {}
    for r, prob in zip(cells, p):
        if r["year"]:
            games, draws, expect = by_year.get(r["year"], (0, 0, 0.0))
            by_year[r["year"]] = (games + r["games"], draws + r["draws"], expect + r["games"] * prob)
    for r in parts("year"):
        if r["year"]:
            games, draws, expect = by_year[r["year"]]
            assert (games, draws) == (r["games"], r["draws"]), r
            assert abs(expect - r["expected_draws"]) < 1e-6 * max(expect, 1), (expect, r)
    years = parts("year")
    print(pl.DataFrame([{k: r[k] for k in ("year", "games", "observed_rate", "expected_rate", "excess_rate",
                                          "excess_ci95_low", "excess_ci95_high")} for r in years]))'''),
    new_code_cell('''if coefficients:
    shown = [r for r in parts("year") if r["year"] and r["games"] >= 30]
    fig, ax = plt.subplots(figsize=(7, 4))
    x = [int(r["year"]) for r in shown]
    ax.plot(x, [r["observed_rate"] for r in shown], marker="o", label="observed")
    ax.fill_between(x, [r["observed_ci95_low"] for r in shown], [r["observed_ci95_high"] for r in shown], alpha=0.2)
    ax.plot(x, [r["expected_rate"] for r in shown], linestyle="--", color="grey", label="expected from the ratings")
    ax.set_ylabel("Draw rate"); ax.set_title("Observed and expected draw rate by year"); ax.legend()
    fig.tight_layout()'''),
]

SOFIA = [
    new_markdown_cell("""# Rules against short draws: raw, adjusted and within-pair estimates

`remis sofia` compares event editions played under a rule against draws (no draw offers,
no draw offers before move N, 3-1-0 scoring, armageddon) with editions without one, from the
sourced catalogue (`data/events.toml`, or `REMIS_EVENTS`): for every rule pooled and each
regime apart, the raw difference, a difference adjusted for both players' ratings against
control editions matched on years (± 2) and mean rating (± 100), and a difference within
pairs of players who met under both; 95% restricted wild cluster bootstrap intervals by event
edition, shown from the number of editions a coverage simulation at the data's counts supports
(the primary model's from a simulation of its own design: `primary.interval.min_editions`).
For series that changed their rules: differences in differences with a pre-trend placebo.

This notebook reads remis's numbers as JSON and **reproduces the raw and adjusted estimates
independently**: it matches the catalogue's patterns to the table itself (Python regular
expressions on the same TOML file), matches the controls and forms the rating cells in
polars, recomputes the Mantel–Haenszel differences, refits the primary model with statsmodels and the
model with pair effects as one sparse least-squares problem (scipy's LSQR on every dummy), and
cross-checks the adjustment with a logistic regression in statsmodels."""),
    new_code_cell(SETUP),
    new_code_cell('''EVENTS = pathlib.Path(os.environ.get("REMIS_EVENTS") or ROOT / "data" / "events.toml").resolve()
study = remis("sofia", TABLE, "--events", EVENTS, *EXTRA)
print("regimes:", {k: v["games"] for k, v in study["regimes"].items()})
for e in study["estimates"]:
    print(e["regime"], e["rule_editions"], "rule editions;", e["matched_controls"], "of", e["all_controls"],
          "controls matched; mean ratings", e["mean_rating"])
    for m in e["measures"]:
        print("   ", m["measure"], "raw", m["raw"] and round(m["raw"]["estimate"], 4),
              "adjusted", m["adjusted"] and round(m["adjusted"]["estimate"], 4),
              "within pairs", m["within_pair"] and round(m["within_pair"]["estimate"], 4))
for c in study["published"]:
    print("published:", c["published"], "| here:", c["ours"])
for c in study["changes"]:
    print(c["series"], c["regimes"], "with", c["after_years"], "without", c["before_years"])
    for e in c["effects"]:
        print("   DiD", e["measure"], e["raw"], e["adjusted"])'''),
    new_code_cell('''import re
catalogue = tomllib.loads(EVENTS.read_text())["event"]
FAST = tomllib.loads((ROOT / "data" / "event_patterns.toml").read_text())["pattern"]
# A pattern may hold for some years only ("ch-USA" was rapid in 2020);
# a game without a year matches only the patterns without years.
fast = [(re.compile(p["regex"]), p.get("from"), p.get("until")) for p in FAST]

def is_fast(event, year):
    return any(regex.search(event or "")
               and (year is not None and (lo is None or year >= lo) and (hi is None or year <= hi)
                    or year is None and lo is None and hi is None)
               for regex, lo, hi in fast)

def regime_of(event, site, year):
    for e in catalogue:
        lo, hi = e["years"]
        if year is None or not (lo <= year <= hi):
            continue
        if not re.search(e["event"], event or "", re.I):
            continue
        if "site" in e and not (site and re.search(e["site"], site, re.I)):
            continue
        return e["series"], e.get("regime") or derived_regime(e)
    return None

def derived_regime(e):
    """The regime of an entry that names none, from its rule fields (as
    remis's catalogue derives it)."""
    if e.get("armageddon"):
        return "armageddon"
    if e.get("no_draw_offers"):
        return "sofia"
    if e.get("min_moves_before_draw") is not None:
        return "min_moves"
    if e.get("scoring", "1-1/2-0") != "1-1/2-0":
        return "scoring"
    return "none"

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
    if r and not is_fast(event, year):
        matched.append({"event": event, "site": site, "year": year, "series": r[0], "regime": r[1]})
study_games = (games.join(pl.DataFrame(matched, schema={"event": pl.String, "site": pl.String, "year": pl.Int16,
                                                         "series": pl.String, "regime": pl.String}),
                          on=["event", "site", "year"], how="inner", nulls_equal=True)
               if matched else games.clear().with_columns(pl.lit("").alias("series"), pl.lit("").alias("regime")))
# A rating counts when both players have one and it is plausible for its
# system and year (remis_table::ratings): Elo 100-2900 from 1960, lichess
# 400-3500 from 2010, chess.com 100-3500 from 2007, other platforms
# 100-3500 from 1992.
SYSTEMS = {"elo": (100, 2900, 1960), "lichess": (400, 3500, 2010), "chess.com": (100, 3500, 2007)}
def plausible(elo):
    system = pl.col("ratings").fill_null("elo")
    lo = system.replace_strict({k: v[0] for k, v in SYSTEMS.items()}, default=100)
    hi = system.replace_strict({k: v[1] for k, v in SYSTEMS.items()}, default=3500)
    first = system.replace_strict({k: v[2] for k, v in SYSTEMS.items()}, default=1992)
    return (elo >= lo) & (elo <= hi) & (pl.col("year").is_null() | (pl.col("year") >= first))
w, b = pl.col("white_elo").cast(pl.Int64), pl.col("black_elo").cast(pl.Int64)
rated = (w.is_not_null() & b.is_not_null() & plausible(w) & plausible(b)).fill_null(False)
gap = (w - b).abs()
gap_bin = pl.when(gap < 50).then(0).when(gap < 100).then(1).when(gap < 200).then(2).when(gap < 400).then(3).otherwise(4)
study_games = study_games.with_columns(
    (pl.col("regime") != "none").alias("rule"),
    (pl.col("result") == "1/2-1/2").cast(pl.Int64).alias("draw"),
    pl.when(rated).then((w + b) // 2).alias("mean_rating"),
    # The stratum: the mean rating's hundred and the gap's bin; games
    # without two plausible ratings form a stratum of their own.
    pl.when(rated).then((w + b) // 2 // 100 * 5 + gap_bin).otherwise(-1).alias("cell"),
)
print(study_games.group_by("regime").agg(pl.len(), pl.col("draw").mean()).sort("regime"))'''),
    new_code_cell('''def pooled_rd(df):
    r = df.group_by("rule").agg(pl.col("draw").mean().alias("p"))
    p = dict(zip(r["rule"], r["p"]))
    return p.get(True, float("nan")) - p.get(False, float("nan"))

def mantel_haenszel_rd(df):
    s = (df.group_by("cell", "rule").agg(pl.len().alias("n"), pl.col("draw").sum().alias("y"))
           .pivot(on="rule", index="cell", values=["n", "y"]))
    if "n_true" not in s.columns or "n_false" not in s.columns:
        return float("nan")
    s = s.drop_nulls()
    n1, n0, y1, y0 = s["n_true"], s["n_false"], s["y_true"], s["y_false"]
    w = n1 * n0 / (n1 + n0)
    return float((w * (y1 / n1 - y0 / n0)).sum() / w.sum())

# Each edition's kind of event (round robin, Swiss, team, match, knock-out),
# as remis read it from the catalogue and the games: controls are matched on it.
kinds = pl.DataFrame([{"series": e["series"], "year": e["year"], "regime": e["regime"],
                       "event_type": e["event_type"]} for e in study["editions"]],
                     schema={"series": pl.String, "year": study_games.schema["year"],
                             "regime": pl.String, "event_type": pl.String})

def matched_games(df):
    """The rule editions with a control edition of the same kind of event and
    format within 2 years and 100 points of mean rating, and those controls."""
    edition = ["series", "year", "regime"]
    # An edition's format: the play and speed of most of its games (of
    # equal counts, the first by name).
    formats = (df.with_columns((pl.col("play").fill_null("?") + " " + pl.col("speed").fill_null("?")).alias("format"))
                 .group_by(*edition, "format").len()
                 .sort(["len", "format"], descending=[True, False])
                 .group_by(edition, maintain_order=True).first()
                 .select(*edition, "format"))
    editions = (df.group_by(*edition, "rule").agg(pl.col("mean_rating").mean().alias("m"))
                  .join(formats, on=edition).join(kinds, on=edition, how="left"))
    rule, control = editions.filter(pl.col("rule")), editions.filter(~pl.col("rule"))
    pairs = rule.join(control, how="cross", suffix="_c").filter(
        (pl.col("format") == pl.col("format_c"))
        & (pl.col("event_type") == pl.col("event_type_c"))
        & ((pl.col("year").cast(pl.Int64) - pl.col("year_c").cast(pl.Int64)).abs() <= 2)
        & ((pl.col("m") - pl.col("m_c")).abs() <= 100))
    keep = pl.concat([pairs.select("series", "year", "regime"),
                      pairs.select(pl.col("series_c").alias("series"), pl.col("year_c").alias("year"),
                                   pl.col("regime_c").alias("regime"))]).unique()
    return df.join(keep, on=["series", "year", "regime"], how="semi")

checked = 0
for e in study["estimates"]:
    regime = e["regime"]
    of = study_games if regime == "pooled" else study_games.filter(~pl.col("rule") | (pl.col("regime") == regime))
    mine = {"raw": pooled_rd(of), "adjusted": mantel_haenszel_rd(matched_games(of))}
    theirs = e["measures"][0]
    print(regime, "this notebook:", mine, "remis:", theirs["raw"] and theirs["raw"]["estimate"],
          theirs["adjusted"] and theirs["adjusted"]["estimate"])
    assert abs(mine["raw"] - theirs["raw"]["estimate"]) < 1e-9, "raw estimate differs"
    if theirs["adjusted"] is not None:
        assert abs(mine["adjusted"] - theirs["adjusted"]["estimate"]) < 1e-9, "adjusted estimate differs"
    checked += 1
print(f"raw and adjusted draw-rate differences reproduced for {checked} regimes" if checked
      else "no event of the catalogue in this table: nothing to reproduce")
# A catalogue named on purpose (make test names the synthetic one) must
# find its events: the check above cannot pass by finding nothing.
assert checked or not os.environ.get("REMIS_EVENTS"), "no regime to reproduce"'''),
    new_code_cell('''# The primary estimate, reproduced: remis's linear probability model of a draw
# on an indicator per regime with fixed effects for the series, the year, the
# mean rating's hundred and the gap's bin (games without two plausible ratings
# at the first level of both) and a term for an edition's last round, fitted here game by game with statsmodels' OLS
# (the same coefficients as remis's weighted fit to groups of games).
import pandas as pd
import statsmodels.formula.api as smf
primary = study.get("primary")
if primary and study_games.height:
    regimes = sorted(set(study_games["regime"]) - {"none"})
    # An edition's last round: the highest round number (the Round tag's
    # part before any dot) of its games.
    number = pl.col("round").str.split(".").list.first().str.strip_chars().cast(pl.Int64, strict=False)
    last = (number == number.max().over("series", "year", "regime")).fill_null(False)
    frame = study_games.select(
        "draw", "series", pl.col("year").cast(pl.Int64), last.cast(pl.Int64).alias("last_round"),
        pl.when(pl.col("mean_rating").is_not_null()).then(pl.col("mean_rating") // 100).otherwise(-1).alias("mean_level"),
        pl.when(pl.col("cell") >= 0).then(pl.col("cell") % 5).otherwise(0).alias("gap_level"),
        *[(pl.col("regime") == r).cast(pl.Int64).alias(r) for r in regimes])
    data = pd.DataFrame({c: frame[c].to_list() for c in frame.columns})
    formula = ("draw ~ 0 + " + " + ".join(regimes) + " + C(series) + C(year) + C(mean_level) + C(gap_level)"
               + (" + last_round" if frame["last_round"].sum() else ""))
    ols = smf.ols(formula, data=data).fit()
    reproduced = 0
    for row in primary["effects"]:
        if not row["primary"] or row["regime"] in primary["not_identified"]:
            continue
        mine, theirs = ols.params[row["regime"]], row["effect"]["estimate"]
        print(row["regime"], "draw rate, this notebook:", round(mine, 6), "remis:", round(theirs, 6))
        assert abs(mine - theirs) < 1e-6, "the model's estimate differs"
        reproduced += 1
    print(f"the primary estimate reproduced for {reproduced} regimes")
else:
    print("no primary estimate: no event of the catalogue in this table")'''),
    new_code_cell('''# The model with pair effects, reproduced: the draw on an indicator per regime
# with dummies for the series, the year and the pair of players (both players'
# identities as remis reads them: folded, surname and first initial, through
# the alias table; colours pooled), solved game by game as one sparse
# least-squares problem by scipy's LSQR on every dummy at once, without
# remis's alternating projections or its dropping of singletons (which change
# no coefficient).
import numpy as np
import scipy.sparse as sparse
from scipy.sparse.linalg import lsqr
pair_model = study.get("pair_effects")
FOLD = {**dict.fromkeys("àáâãäåāăą", "a"), "æ": "ae", **dict.fromkeys("çćčĉċ", "c"), **dict.fromkeys("ďđð", "d"),
        **dict.fromkeys("èéêëēĕėęě", "e"), **dict.fromkeys("ğĝġģ", "g"), **dict.fromkeys("ìíîïĩīĭįı", "i"), "ķ": "k",
        **dict.fromkeys("ĺļľŀł", "l"), **dict.fromkeys("ñńņň", "n"), **dict.fromkeys("òóôõöøōŏő", "o"), "œ": "oe",
        **dict.fromkeys("ŕřŗ", "r"), **dict.fromkeys("śšşŝș", "s"), "ß": "ss", **dict.fromkeys("ťţț", "t"),
        **dict.fromkeys("ùúûüũūŭůűų", "u"), **dict.fromkeys("ýÿ", "y"), **dict.fromkeys("źżž", "z")}
ALIASES = tomllib.loads((ROOT / "data" / "player_aliases.toml").read_text())["aliases"]

def identity(name):
    """remis_table::players::Aliases::player_key, in Python; the name itself
    (trimmed) where it gives none, as the rule study keys its pairs."""
    name = (name or "?").strip()
    if not name or name == "?":
        return name
    lowered = name.lower()
    if any(c in lowered for c in ":/&+"):
        return " ".join(lowered.split())
    folded = "".join(FOLD.get(c, " " if c in "-_'" else c) for c in lowered)
    cleaned, depth = [], 0
    for c in folded:
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(depth - 1, 0)
        elif depth == 0:
            cleaned.append(c)
    cleaned = "".join(cleaned)
    words = lambda s: [w for w in ("".join(c for c in w if c.isalnum() or c == "-").lower()
                                   for w in re.split(r"[\s.]+", s) if w) if w]
    if "," in cleaned:
        s, g = cleaned.split(",", 1)
        surname, given = words(s), words(g)
    else:
        tokens = words(cleaned)
        if len(tokens) <= 1:
            surname, given = tokens, []
        elif len(tokens[-1]) <= 2:
            surname, given = tokens[:-1], [tokens[-1]]
        else:
            surname, given = tokens[1:], [tokens[0]]
    key = " ".join(surname) + (" " + given[0][0] if given else "")
    if not key:
        return name
    surname, _, initial = key.rpartition(" ")
    if surname and len(initial) == 1 and ("," in name or " " in name):
        return f"{ALIASES.get(surname, surname)} {initial}"
    return ALIASES.get(key, key)

if pair_model and study_games.height:
    regimes = sorted(set(study_games["regime"]) - {"none"})
    games = study_games.select("draw", "series", "year", "regime", "white", "black").to_dicts()
    for g in games:
        a, b = identity(g["white"]), identity(g["black"])
        g["pair"] = (a, b) if a <= b else (b, a)
    games = [g for g in games if all(p and p != "?" for p in g["pair"])]
    columns = {}
    rows, cols = [], []
    for i, g in enumerate(games):
        for key in ([("regime", g["regime"])] if g["regime"] != "none" else []) + [
                ("series", g["series"]), ("year", g["year"]), ("pair", g["pair"])]:
            rows.append(i)
            cols.append(columns.setdefault(key, len(columns)))
    design = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(games), len(columns)))
    draws = np.array([g["draw"] for g in games], dtype=float)
    solution = lsqr(design, draws, atol=1e-14, btol=1e-14, iter_lim=200_000)
    print(f"{len(games)} games, {len(columns)} dummies; LSQR stopped: {solution[1]} after {solution[2]} iterations")
    reproduced = 0
    for row in pair_model["effects"]:
        if not row["primary"] or ("regime", row["regime"]) not in columns:
            continue
        mine, theirs = solution[0][columns[("regime", row["regime"])]], row["effect"]["estimate"]
        print(row["regime"], "draw rate with pair effects, this notebook:", round(mine, 6), "remis:", round(theirs, 6))
        assert abs(mine - theirs) < 1e-6, "the pair-effects model's estimate differs"
        reproduced += 1
    print(f"the pair-effects estimate reproduced for {reproduced} regimes")
else:
    print("no pair-effects estimate: no event of the catalogue in this table")'''),
    new_code_cell('''# A second adjustment: logistic regression of a draw on the rule, the mean
# rating and the gap, its effect as an average marginal effect (statsmodels).
import statsmodels.formula.api as smf
both = study_games.filter(pl.col("mean_rating").is_not_null())
if both.height > 50 and both["rule"].n_unique() == 2:
    import pandas as pd
    frame = both.select(pl.col("draw"), pl.col("rule").cast(pl.Int64), (pl.col("mean_rating") / 100).alias("mean"),
                        ((pl.col("white_elo").cast(pl.Int64) - pl.col("black_elo").cast(pl.Int64)).abs() / 100).alias("gap"))
    data = pd.DataFrame({c: frame[c].to_list() for c in frame.columns})
    fit = smf.logit("draw ~ rule + mean + gap", data=data).fit(disp=False, maxiter=200)
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
    new_markdown_cell("""## Plus-remise, decided again here

Every replayed draw's plus-remise winner, rule and points recomputed from its final position
(`final_fen`) by the proposal's rules, independently of remis: rule 1 compares material
(queen 9, rook 5, bishop 3, knight 3, pawn 1, one more for a pair of bishops on squares of
both colours); rule 2, if equal, counts every pawn 2; rule 3, if still equal, gives the game to
Black (one more point). The table must agree on every row."""),
    new_code_cell('''VALUE = {"q": 9, "r": 5, "b": 3, "n": 3}

def points(placement, white, pawn):
    total, light, dark = 0, False, False
    for rank, row in enumerate(reversed(placement.split("/"))):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            if ch.isupper() == white:
                piece = ch.lower()
                total += pawn if piece == "p" else VALUE.get(piece, 0)
                if piece == "b":
                    light, dark = light or (file + rank) % 2 == 1, dark or (file + rank) % 2 == 0
            file += 1
    return total + (light and dark)

def decide(fen):
    placement = fen.split()[0]
    for rule, pawn in [(1, 1), (2, 2)]:
        w, b = points(placement, True, pawn), points(placement, False, pawn)
        if w != b:
            return ("white" if w > b else "black", rule, min(w, 255), min(b, 255))
    w = points(placement, True, 2)
    return ("black", 3, min(w, 255), min(w + 1, 255))

rows = (pl.scan_parquet(TABLE)
        .select("result", "draw_type", "final_fen", "plus_remise_winner", "plus_remise_rule",
                "plus_remise_white_points", "plus_remise_black_points")
        .collect())
draws = rows.filter(pl.col("plus_remise_winner").is_not_null())
replayed = rows.filter((pl.col("result") == "1/2-1/2") & pl.col("draw_type").is_not_null())
assert draws.height == replayed.height, (draws.height, replayed.height)
wrong = [r for r in draws.iter_rows(named=True)
         if decide(r["final_fen"]) != (r["plus_remise_winner"], r["plus_remise_rule"],
                                       r["plus_remise_white_points"], r["plus_remise_black_points"])]
assert not wrong, wrong[:3]
# remis's counts, filtered as the report is, are a part of these draws.
assert total <= draws.height, (total, draws.height)
print(f"{draws.height} replayed draws: winner, rule and points recomputed, all equal to the table's")'''),
]

for name, cells in [("twic_draw_rates", TWIC), ("sofia_rules", SOFIA), ("scoring_systems", SCORING)]:
    nb = new_notebook(cells=cells, metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    # Stable cell ids, so that regenerating a notebook changes only what changed.
    for i, cell in enumerate(nb.cells):
        cell.id = f"{name}-{i}"
    nbformat.write(nb, HERE / f"{name}.ipynb")
    print("wrote", name)
