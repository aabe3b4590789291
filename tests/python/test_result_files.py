"""The orchestrator's result files read back in the readers their users have: the MAT v4
trajectory file (`run --out x.mat`) in DyMat, the reader of Dymola and OpenModelica result files,
and the CSV with its units table in FMPy's CSV reader; both hold the same numbers."""

import subprocess

import numpy as np
from conftest import ROOT

import DyMat
from fmpy.util import read_csv

ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"


def run(out):
    subprocess.run(
        [str(ORCHESTRATOR), "run", "examples/gunns-6dof.json", "--out", str(out), "--stop", "2"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )


def test_mat_file_reads_in_dymat_like_the_csv_in_fmpy(tmp_path):
    run(tmp_path / "r.mat")
    run(tmp_path / "r.csv")
    csv = read_csv(str(tmp_path / "r.csv"))
    mat = DyMat.DyMatFile(str(tmp_path / "r.mat"))
    names = [n for n in csv.dtype.names if n != "time"]
    assert sorted(mat.names()) == sorted(names)
    assert np.array_equal(mat.abscissa(2, valuesOnly=True), csv["time"])
    for name in names:
        assert np.array_equal(mat.data(name), csv[name]), name
    # Units: in the MAT descriptions as Dymola writes them, and in the CSV's units table.
    units = dict(line.split(",")[:2] for line in (tmp_path / "r.units.csv").read_text().splitlines()[1:])
    units = {k.strip('"'): v.strip('"') for k, v in units.items()}
    assert set(units) == set(csv.dtype.names)
    assert units["body.x"] == "m" and mat.description("body.x").endswith("[m]")
