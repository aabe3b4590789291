"""`orchestrator export --ssp` read by other tools: FMPy's SSD reader (which checks the SSD against
the SSP 1.0 schema) reads the helicopter's components, connections and the constant pilot inputs
bound as start values; libcosim (libcosimpy) loads it with all six instances and steps it, and
flies it for 3 s with the bound pilot inputs; the SSD has what OMSimulator's reader needs (the
run in OMSimulator itself is a manual check, docs/tool-users.md); a loop-free system (a tumbling Fuselage defined by
parameters only, which SSP carries in full) gives the same state in libcosim as in the
orchestrator."""

import csv
import json
import subprocess

import pytest
from conftest import ROOT, ecos

ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"

TUMBLING = """{
  "fmus": { "body": { "model": "Fuselage", "parameters": {
    "mass": 1500.0, "I.xx": 1000.0, "I.yy": 3000.0, "I.zz": 3500.0, "I.xz": 50.0, "g": 9.80665,
    "u0": 10.0, "w0": -2.0, "p0": 0.4, "q0": 0.05, "r0": 0.3, "euler_sequence": 321, "tolerance": 1e-12 } } },
  "experiment": { "start": 0.0, "stop": 1.0, "step": 0.01 },
  "master": { "algorithm": "jacobi" },
  "outputs": ["body.x", "body.z", "body.u", "body.p", "body.q", "body.r", "body.phi", "body.theta"]
}"""


def export(system, ssp):
    out = subprocess.run([str(ORCHESTRATOR), "export", str(system), "--ssp", str(ssp)], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def tumbling(tmp_path):
    """The tumbling body exported as SSP and run by the orchestrator: the `.ssp`, the result
    header and the last row (at 1 s)."""
    system = tmp_path / "tumbling.json"
    system.write_text(TUMBLING)
    ssp, header, rows = export_and_run(system, tmp_path)
    last = rows[-1]
    assert last[0] == 1.0
    return ssp, header, last


def read_csv(path):
    """A result file of `orchestrator run`: the header and the rows as numbers."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in row] for row in rows[1:]]


def export_and_run(system, tmp_path):
    """Exports `system` to `<stem>.ssp` in `tmp_path` and runs it with the orchestrator into
    `<stem>.csv`: the SSP's path, the CSV's header and rows."""
    ssp = tmp_path / f"{system.stem}.ssp"
    export(system, ssp)
    csv_path = tmp_path / f"{system.stem}.csv"
    run = subprocess.run([str(ORCHESTRATOR), "run", str(system), "--out", str(csv_path)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return ssp, *read_csv(csv_path)


def test_fmpy_reads_the_helicopter_ssp(tmp_path):
    from fmpy.ssp.ssd import read_ssd

    ssp = tmp_path / "helicopter.ssp"
    export(ROOT / "examples" / "helicopter.json", ssp)
    ssd = read_ssd(str(ssp))
    names = sorted(e.name for e in ssd.system.elements)
    assert names == ["aero", "controls", "fuselage", "rotor", "tail_aero", "tail_rotor"]
    assert len(ssd.system.connections) == 332
    fuselage = next(e for e in ssd.system.elements if e.name == "fuselage")
    assert {c.name for c in fuselage.connectors} >= {"hub.F.x", "hub.acc.z", "mass"}


def bindings(element):
    """The inline parameter values FMPy read for `element`, by name, as text."""
    return {p.name: p.value for b in element.parameterBindings for s in b.parameterValues for p in s.parameters}


def test_fmpy_reads_the_constant_pilot_inputs_as_start_value_bindings(tmp_path):
    """The helicopter's `inputs` are constants on the four Controls inputs: the SSD binds each as
    the input's start value (SSP 1.0: a component's parameter binding sets "start values of other
    variables"), with the JSON's value, on an input connector nothing connects."""
    from fmpy.ssp.ssd import read_ssd

    system = ROOT / "examples" / "helicopter.json"
    constants = {i["to"]: i["signal"]["constant"] for i in json.loads(system.read_text())["inputs"]}
    assert len(constants) == 4
    ssp = tmp_path / "helicopter.ssp"
    export(system, ssp)
    ssd = read_ssd(str(ssp))
    connected = {(c.endElement, c.endConnector) for c in ssd.system.connections}
    for reference, value in constants.items():
        instance, variable = reference.split(".", 1)
        element = next(e for e in ssd.system.elements if e.name == instance)
        assert float(bindings(element)[variable]) == value, reference
        assert next(c for c in element.connectors if c.name == variable).kind == "input"
        assert (instance, variable) not in connected


def test_a_constant_input_replaces_a_start_value_written_for_it(tmp_path):
    """A start value in `parameters` on an input that a constant also drives: the run holds the
    constant, so the SSD binds the constant, once."""
    from fmpy.ssp.ssd import read_ssd

    path = tmp_path / "both.json"
    path.write_text(json.dumps({
        "fmus": {"controls": {"model": "Controls", "parameters": {"collective": 0.2}}},
        "experiment": {"stop": 0.1, "step": 0.01},
        "inputs": [{"to": "controls.collective", "signal": {"constant": 0.141354}}],
    }))
    ssp = tmp_path / "both.ssp"
    export(path, ssp)
    (controls,) = read_ssd(str(ssp)).system.elements
    parameters = [p for b in controls.parameterBindings for s in b.parameterValues for p in s.parameters]
    assert [(p.name, float(p.value)) for p in parameters] == [("collective", 0.141354)]


def test_systems_without_connections_or_connectors_pass_the_ssp_schema(tmp_path):
    """SSP 1.0 requires at least one child in `ssd:Connections` and `ssd:Connectors`: a system
    without connections, with an instance the system does not touch, omits both elements, and
    FMPy's reader (which validates against the SSP 1.0 schema) accepts it."""
    from fmpy.ssp.ssd import read_ssd

    system = json.loads(TUMBLING)
    system["fmus"]["idle"] = {"model": "Controls"}
    path = tmp_path / "two.json"
    path.write_text(json.dumps(system))
    ssp = tmp_path / "two.ssp"
    export(path, ssp)
    ssd = read_ssd(str(ssp))
    assert sorted(e.name for e in ssd.system.elements) == ["body", "idle"]
    assert ssd.system.connections == []
    assert next(e for e in ssd.system.elements if e.name == "idle").connectors == []


SSD = "{http://ssp-standard.org/SSP1/SystemStructureDescription}"
SSC = "{http://ssp-standard.org/SSP1/SystemStructureCommon}"
OMS = "{https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd}"


def test_the_ssd_has_what_omsimulators_reader_needs(tmp_path):
    """What OMSimulator's SSP reader requires (its sources at acb56d9d, src/OMSimulatorLib): no
    `ssd:Annotations` at the top level (`Model::importFromSnapshot`: "wrong xml schema detected");
    the system's first `ssc:Annotation` of type `org.openmodelica` naming a master
    (`Model::getSystemType`; without it `System::NewSystem` fails with "internal error"), here the
    fixed-step `oms-ma` with the JSON's step; identifiers as system and component names
    (`ComRef::isValidIdent`). The manual run in OMSimulator is in docs/tool-users.md."""
    import re
    import zipfile
    import xml.etree.ElementTree as ET

    system = tmp_path / "flap-response.json"  # a stem that is not an identifier
    system.write_text((ROOT / "examples" / "helicopter.json").read_text())
    step = json.loads(system.read_text())["experiment"]["step"]
    ssp = tmp_path / "flap-response.ssp"
    export(system, ssp)
    root = ET.fromstring(zipfile.ZipFile(ssp).read("SystemStructure.ssd"))
    assert root.find(f"{SSD}Annotations") is None
    ssd_system = root.find(f"{SSD}System")
    first = ssd_system.find(f"{SSD}Annotations").find(f"{SSC}Annotation")
    assert first.get("type") == "org.openmodelica"
    master = first.find(f"{OMS}Annotations/{OMS}SimulationInformation/{OMS}FixedStepMaster")
    assert master.get("description") == "oms-ma" and float(master.get("stepSize")) == step
    identifier = re.compile(r"^[a-zA-Z][a-zA-Z0-9_]*$")
    names = [ssd_system.get("name")] + [c.get("name") for c in ssd_system.find(f"{SSD}Elements")]
    assert all(identifier.match(n) for n in names), names


def libcosim():
    try:
        from libcosimpy.CosimExecution import CosimExecution
        from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
        from libcosimpy.CosimObserver import CosimObserver
    except ImportError as e:  # pragma: no cover - reported, not hidden
        pytest.skip(f"libcosimpy cannot be imported here: {e}")
    log_output_level(CosimLogLevel.WARNING)
    return CosimExecution, CosimObserver


def test_libcosim_loads_and_steps_the_helicopter_ssp(tmp_path):
    CosimExecution, _ = libcosim()
    ssp = tmp_path / "helicopter.ssp"
    export(ROOT / "examples" / "helicopter.json", ssp)
    execution = CosimExecution.from_ssp_file(ssp_path=str(ssp), step_size=int(0.0019654088e9))
    names = sorted(s.name.decode() for s in execution.slave_infos())
    assert names == ["aero", "controls", "fuselage", "rotor", "tail_aero", "tail_rotor"]
    assert execution.simulate_until(target_time=int(0.1e9))


def test_libcosim_flies_the_helicopter_ssp_with_the_bound_pilot_inputs(tmp_path):
    """libcosim applies the SSD's bindings, the pilot inputs included, and holds them: over 3 s its
    airframe stays near the orchestrator's trimmed hover (its master delays the hub loop, so not
    exactly) instead of falling with zero collective."""
    CosimExecution, CosimObserver = libcosim()
    system = ROOT / "examples" / "helicopter.json"
    ssp, header, rows = export_and_run(system, tmp_path)
    assert rows[-1][0] == 3.0
    z_orchestrator = rows[-1][header.index("fuselage.z")]

    execution = CosimExecution.from_ssp_file(ssp_path=str(ssp), step_size=int(0.0019654088e9))
    observer = CosimObserver.create_last_value()
    execution.add_observer(observer=observer)
    assert execution.simulate_until(target_time=int(3.0e9))
    controls = execution.slave_index_from_instance_name("controls")
    fuselage = execution.slave_index_from_instance_name("fuselage")
    references = {v.name.decode(): v.reference for v in execution.slave_variables(controls)}
    collective = observer.last_real_values(slave_index=controls, variable_references=[references["collective"]])[0]
    z_reference = {v.name.decode(): v.reference for v in execution.slave_variables(fuselage)}["z"]
    z = observer.last_real_values(slave_index=fuselage, variable_references=[z_reference])[0]
    print(f"helicopter after 3 s: z libcosim {z:.3f} m, orchestrator {z_orchestrator:.3f} m")
    assert collective == 0.141354
    assert abs(z - z_orchestrator) < 0.1, (z, z_orchestrator)


def test_loop_free_system_runs_the_same_in_libcosim(tmp_path):
    CosimExecution, CosimObserver = libcosim()
    ssp, header, last = tumbling(tmp_path)

    execution = CosimExecution.from_ssp_file(ssp_path=str(ssp), step_size=int(0.01e9))
    observer = CosimObserver.create_last_value()
    execution.add_observer(observer=observer)
    assert execution.simulate_until(target_time=int(1.0e9))
    index = execution.slave_index_from_instance_name("body")
    references = {v.name.decode(): v.reference for v in execution.slave_variables(index)}
    names = [h.split(".", 1)[1] for h in header[1:]]
    values = observer.last_real_values(slave_index=index, variable_references=[references[n] for n in names])
    worst = max(abs(a - b) for a, b in zip(values, last[1:]))
    print(f"tumbling body after 1 s, libcosim vs orchestrator: largest difference {worst:.1e}")
    assert worst < 1e-9, list(zip(names, values, last[1:]))


def test_ecos_reads_the_ssp_and_runs_a_loop_free_system_the_same(tmp_path):
    """ecos applies parameter sets by name: ours are all called `initialValues`. The helicopter
    loads with its parameters and the constant pilot inputs; the tumbling body gives the
    orchestrator's state."""
    EcosSimulation, _ = ecos()
    ssp = tmp_path / "helicopter.ssp"
    export(ROOT / "examples" / "helicopter.json", ssp)
    simulation = EcosSimulation(ssp_path=str(ssp), step_size=0.0019654088)
    simulation.init(parameter_set="initialValues")
    assert simulation.get_real("aero::R") == 4.91 and simulation.get_real("fuselage::mass") == 1988.0
    assert simulation.get_real("controls::collective") == 0.141354  # a bound constant input
    simulation.step()
    simulation.terminate()
    simulation.free()

    ssp, header, last = tumbling(tmp_path)
    names = [h.split(".", 1)[1] for h in header[1:]]
    simulation = EcosSimulation(ssp_path=str(ssp), step_size=0.01)
    simulation.init(parameter_set="initialValues")
    for _ in range(100):
        simulation.step()
    values = [simulation.get_real(f"body::{n}") for n in names]
    simulation.terminate()
    simulation.free()
    worst = max(abs(a - b) for a, b in zip(values, last[1:]))
    print(f"tumbling body after 1 s, ecos vs orchestrator: largest difference {worst:.1e}")
    assert worst < 1e-9, list(zip(names, values, last[1:]))
