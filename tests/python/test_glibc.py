"""The shipped binaries of the portable build (`scripts/build-portable.sh`, into `target/portable/`)
load on glibc 2.17 or newer: none needs a newer `GLIBC_x.y` symbol version. Read with pyelftools
from the ELF version needs (`.gnu.version_r`), which the dynamic loader checks before it runs or
`dlopen`s a binary ("version `GLIBC_2.34' not found")."""

import io
import os
import pathlib
import zipfile

import pytest
from elftools.elf.elffile import ELFFile

from conftest import OUR_FMUS, ROOT

# The oldest glibc our binaries run on, as README.md and docs/tool-users.md state it.
MINIMUM_GLIBC = (2, 17)
# The folder scripts/build-portable.sh writes; ROTORCRAFT_PORTABLE_DIR checks another one.
PORTABLE_DIR = pathlib.Path(os.environ.get("ROTORCRAFT_PORTABLE_DIR", ROOT / "target" / "portable"))


def glibc_versions(elf_bytes):
    """The `GLIBC_x.y[.z]` versions that the ELF file `elf_bytes` needs, as tuples of integers."""
    elf = ELFFile(io.BytesIO(elf_bytes))
    needs = elf.get_section_by_name(".gnu.version_r")
    assert needs is not None, "no version-needs section: not a dynamically linked glibc binary"
    versions = set()
    for _library, auxiliaries in needs.iter_versions():
        for aux in auxiliaries:
            name = aux.name
            if name.startswith("GLIBC_") and name != "GLIBC_PRIVATE":
                versions.add(tuple(int(part) for part in name.removeprefix("GLIBC_").split(".")))
    return versions


def dotted(version):
    """`(2, 17)` as `2.17`."""
    return ".".join(map(str, version))


def portable_file(name):
    """The bytes of `target/portable/<name>`; the test fails, saying how to make it, if it is missing."""
    path = PORTABLE_DIR / name
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `bash scripts/build-portable.sh`")
    return path.read_bytes()


def assert_loads_on_minimum(what, elf_bytes):
    """`elf_bytes` needs glibc symbol versions, none newer than `MINIMUM_GLIBC`."""
    versions = glibc_versions(elf_bytes)
    # Every binary linked against glibc needs at least its base version (GLIBC_2.2.5 on x86_64):
    # an empty set would mean the needs were not read, not that the binary is portable.
    assert versions, f"{what}: no GLIBC version needs found"
    newest = max(versions)
    assert newest <= MINIMUM_GLIBC, (
        f"{what} needs GLIBC_{dotted(newest)}, newer than the stated minimum {dotted(MINIMUM_GLIBC)}"
    )


def test_orchestrator_needs_at_most_the_minimum_glibc():
    assert_loads_on_minimum("orchestrator", portable_file("orchestrator"))


def test_system_fmu_library_needs_at_most_the_minimum_glibc():
    # The binary of every system FMU that `orchestrator export` writes.
    assert_loads_on_minimum("libRotorcraftSystem.so", portable_file("libRotorcraftSystem.so"))


@pytest.mark.parametrize("model", OUR_FMUS)
def test_packaged_fmu_library_needs_at_most_the_minimum_glibc(model):
    # The library as shipped: inside the .fmu archive that `orchestrator package` wrote.
    fmu = PORTABLE_DIR / "fmus" / f"{model}.fmu"
    if not fmu.is_file():
        pytest.fail(f"{fmu} is missing: run `bash scripts/build-portable.sh`")
    with zipfile.ZipFile(fmu) as archive:
        library = archive.read(f"binaries/linux64/{model}.so")
    assert_loads_on_minimum(f"{model}.fmu", library)
