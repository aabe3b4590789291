"""What a tool user sees when wiring our FMUs by hand, read by FMPy: author, version and licence;
angles shown in degrees and rotor speeds in rpm (display units with their factors); integer
choices as enumerations with named items; physical bounds."""

import math

from fmpy import read_model_description
from fmpy.validation import validate_fmu

from conftest import OUR_FMUS


def variable(description, name):
    return next(v for v in description.modelVariables if v.name == name)


def test_interfaces_carry_display_units_enumerations_and_bounds(fuselage_fmu):
    fmus = {name: fuselage_fmu.replace("Fuselage.fmu", f"{name}.fmu") for name in OUR_FMUS}
    for path in fmus.values():
        assert validate_fmu(path) == []
        description = read_model_description(path)
        assert description.author == "rotorcraft-fmi contributors"
        assert description.license == "MIT OR Apache-2.0" and description.version

    fuselage = read_model_description(fmus["Fuselage"])
    theta = variable(fuselage, "theta")
    assert theta.unit == "rad" and theta.displayUnit == "deg"
    deg = next(d for u in fuselage.unitDefinitions if u.name == "rad" for d in u.displayUnits if d.name == "deg")
    assert math.isclose(deg.factor, 180.0 / math.pi, rel_tol=1e-15)
    euler = variable(fuselage, "euler_sequence")
    assert euler.type == "Enumeration" and euler.declaredType.name == "Fuselage.EulerSequence"
    assert {item.name: int(item.value) for item in euler.declaredType.items}["zyx"] == 321
    assert float(variable(fuselage, "mass").min) == 0.0

    rotor = read_model_description(fmus["Rotor"])
    assert variable(rotor, "Omega").displayUnit == "rpm"
    aero = read_model_description(fmus["Aero"])
    inflow = variable(aero, "inflow_model")
    assert [item.name for item in inflow.declaredType.items] == ["none", "uniform_momentum", "pitt_peters", "peters_he"]
