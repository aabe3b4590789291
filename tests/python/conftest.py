"""Shared fixtures: where the packaged FMUs are (written by `orchestrator package`)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FMU_DIR = pathlib.Path(os.environ.get("ROTORCRAFT_FMU_DIR", ROOT / "target" / "fmus"))


@pytest.fixture(scope="session")
def fuselage_fmu():
    path = FMU_DIR / "Fuselage.fmu"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `bash scripts/test.sh` (it builds and packages the FMUs)")
    return str(path)
