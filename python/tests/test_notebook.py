"""The example notebook runs from top to bottom (its 7-8 cell falls back to small tables when the 7-8
tables are absent, as they are in the tests)."""

import os
import pathlib

import pytest

from conftest import in_ci

NOTEBOOK = pathlib.Path(__file__).resolve().parents[1] / "examples" / "lab.ipynb"


def test_the_notebook_runs(tmp_path, monkeypatch):
    try:
        import nbclient
        import nbformat
    except ImportError:
        if in_ci():
            raise
        pytest.skip("nbclient is not installed (scripts/python-test.sh installs it)")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "check it in with outputs cleared"
    monkeypatch.setenv("STP_PDBS", str(tmp_path / "no-tables-here"))
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    text = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", []))
    assert "bibfs" in text and "the 7-8 tables are not in" in text
