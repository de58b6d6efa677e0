"""Executes every notebook headless (nbclient) against a games table, so
they can never rot. Usage: run_notebooks.py TABLE.parquet"""
import os
import pathlib
import sys

import nbformat
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).parent
os.environ["REMIS_TABLE"] = str(pathlib.Path(sys.argv[1]).resolve())
# The remis the notebooks ask for numbers: the debug build unless told.
os.environ.setdefault("REMIS", str((HERE.parent / "target" / "debug" / "remis").resolve()))
failed = 0
notebooks = sorted(HERE.glob("*.ipynb"))
for path in notebooks:
    nb = nbformat.read(path, as_version=4)
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
        print(f"notebook {path.name}: ok")
    except Exception as error:  # report every notebook, then fail
        failed += 1
        print(f"notebook {path.name}: FAILED\n{error}")
print(f"notebooks: {len(notebooks) - failed} passed, {failed} failed")
sys.exit(1 if failed or not notebooks else 0)
