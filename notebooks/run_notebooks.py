"""Executes every notebook headless (nbclient) against a games table, so
they can never rot. Usage: run_notebooks.py TABLE.parquet [NAME...]
(NAME: a notebook's file stem, e.g. sofia_rules; default: every notebook)

The notebooks ask `remis` for their numbers: REMIS names the binary (the
Makefile passes the one it built); without it, the debug build under
CARGO_TARGET_DIR, else under target/."""
import os
import pathlib
import sys
import tempfile

import nbformat
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).parent
os.environ["REMIS_TABLE"] = str(pathlib.Path(sys.argv[1]).resolve())
build = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or HERE.parent / "target")
os.environ.setdefault("REMIS", str(build / "debug" / "remis"))
# The notebooks run in notebooks/: a relative path would not be found.
os.environ["REMIS"] = str(pathlib.Path(os.environ["REMIS"]).resolve())
if os.environ.get("REMIS_EVENTS"):
    os.environ["REMIS_EVENTS"] = str(pathlib.Path(os.environ["REMIS_EVENTS"]).resolve())
if not pathlib.Path(os.environ["REMIS"]).is_file():
    sys.exit(f"run_notebooks: no remis binary at {os.environ['REMIS']} (build it, or set REMIS)")
failed = 0
notebooks = sorted(p for p in HERE.glob("*.ipynb") if not sys.argv[2:] or p.stem in sys.argv[2:])
with tempfile.TemporaryDirectory(prefix="remis-kernels-") as sockets:
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        # The kernel talks over local sockets in a private folder, not TCP.
        km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(sockets, path.stem))
        try:
            NotebookClient(nb, km=km, timeout=300, resources={"metadata": {"path": str(HERE)}}).execute()
            print(f"notebook {path.name}: ok")
        except Exception as error:  # report every notebook, then fail
            failed += 1
            print(f"notebook {path.name}: FAILED\n{error}")
        finally:
            # The client does not own a kernel it was given: stop it here.
            if km.has_kernel:
                km.shutdown_kernel(now=True)
print(f"notebooks: {len(notebooks) - failed} passed, {failed} failed")
sys.exit(1 if failed or not notebooks else 0)
