"""Prints the ending and draw-type distribution of a games.parquet table."""
import sys

import polars as pl

table = pl.scan_parquet(sys.argv[1])
total = table.select(pl.len()).collect().item()
endings = table.group_by("ending").len().sort("len", descending=True).collect()
print(f"{total} games; endings:")
for ending, n in endings.iter_rows():
    print(f"  {ending:<34} {n:>8}  {100 * n / max(total, 1):5.1f}%")
draws = table.filter(pl.col("draw_type").is_not_null())
n_draws = draws.select(pl.len()).collect().item()
print(f"{n_draws} draws; draw types:")
for kind, n in draws.group_by("draw_type").len().sort("len", descending=True).collect().iter_rows():
    print(f"  {kind:<34} {n:>8}  {100 * n / max(n_draws, 1):5.1f}%")
invalid = table.filter(pl.col("error").is_not_null()).select(pl.len()).collect().item()
print(f"{invalid} rows with an error")
