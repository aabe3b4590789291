"""The helicopter as one FMU, stepped by importers at communication steps other than the system's
(docs/system-fmu.md, "Steps"): FMPy at the system's step, at the step rounded to whole
nanoseconds (what libcosim runs) and at 5 ms; libcosim at the nanosecond step. Each is compared,
at the points the importer samples, with `orchestrator run` of the same system (its rows
interpolated linearly in time to those points), and timed.
Run: target/venv/bin/python scripts/system-fmu-steps.py [STOP_S] (after
`cargo build --release --workspace`; default stop 3 s).
"""

import json
import pathlib
import subprocess
import sys
import tempfile
import time

import fmpy
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
ORCHESTRATOR = ROOT / "target" / "release" / "orchestrator"


def run_libcosim(fmu, step_ns, stop, names):
    """libcosim at `step_ns`: outputs at every step (a last-value observer read after each)."""
    from libcosimpy.CosimExecution import CosimExecution
    from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
    from libcosimpy.CosimObserver import CosimObserver
    from libcosimpy.CosimSlave import CosimLocalSlave

    log_output_level(CosimLogLevel.ERROR)
    execution = CosimExecution.from_step_size(step_size=step_ns)
    index = execution.add_local_slave(local_slave=CosimLocalSlave(fmu_path=str(fmu), instance_name="heli"))
    observer = CosimObserver.create_last_value()
    execution.add_observer(observer=observer)
    references = {v.name.decode(): v.reference for v in execution.slave_variables(index)}
    vrs = [references[n] for n in names]
    times, rows = [], []
    n_steps = int(stop * 1e9) // step_ns
    started = time.perf_counter()
    for k in range(1, n_steps + 1):
        assert execution.simulate_until(target_time=k * step_ns)
        times.append(k * step_ns * 1e-9)
        rows.append(observer.last_real_values(slave_index=index, variable_references=vrs))
    return time.perf_counter() - started, np.array(times), np.array(rows)


def run_fmpy(fmu, step, stop, names):
    """FMPy's simulate_fmu at `step`, outputs at every step (the last one shortened to `stop`)."""
    started = time.perf_counter()
    result = fmpy.simulate_fmu(str(fmu), stop_time=stop, step_size=step, output_interval=step, output=names)
    elapsed = time.perf_counter() - started
    return elapsed, result["time"][1:], np.array([[float(result[n][k]) for n in names] for k in range(1, len(result))])


def orchestrator_run(system, stop, csv_path):
    """`orchestrator run SYSTEM --stop STOP`: its rows (a structured array, time first) and wall seconds."""
    started = time.perf_counter()
    subprocess.run([ORCHESTRATOR, "run", system, "--stop", str(stop), "--out", csv_path], check=True,
                   capture_output=True)
    seconds = time.perf_counter() - started
    return np.genfromtxt(csv_path, delimiter=",", names=True, deletechars=""), seconds


def between_grid_points(system, names, times, values, span, tmp):
    """What the linear interpolation between grid points costs in accuracy: the FMU's outputs at
    `times` against `orchestrator run --stop t`, whose last step is shortened to end at `t`."""
    worst = np.zeros(len(names))
    for t, row in zip(times, values):
        rows, _ = orchestrator_run(system, t, tmp / "exact.csv")
        worst = np.maximum(worst, np.abs(row - np.array(rows[-1].tolist())[1:]))
    relative = worst / np.where(span > 0, span, 1.0)
    flight = [names.index(f"fuselage.{n}") for n in ["u", "v", "w", "p", "q", "r", "phi", "theta", "psi"]]
    j = int(np.argmax(relative))
    print(f"  interpolated vs a step ending at the point, {len(times)} points: largest {relative[j]:.2e} of the "
          f"range of {names[j]}; flight state (u v w p q r phi theta psi) within {np.max(worst[flight]):.2e} "
          f"(SI), {np.max(relative[flight]):.2e} of its range")


def main():
    stop = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        system = json.loads((ROOT / "examples" / "helicopter.json").read_text())
        system["experiment"]["stop"] = stop
        step = system["experiment"]["step"]
        path = tmp / "helicopter.json"
        path.write_text(json.dumps(system))
        fmu = tmp / "helicopter.fmu"
        subprocess.run([ORCHESTRATOR, "export", path, "--fmu", fmu], check=True, capture_output=True)
        reference, run_seconds = orchestrator_run(path, stop, tmp / "run.csv")
        # libcosim sets no stop time: the FMU steps its grid on past `stop`, as a longer run does.
        open_ended, _ = orchestrator_run(path, stop + 2 * step, tmp / "open.csv")
        names = reference.dtype.names[1:]
        reference = np.array(reference.tolist())
        open_ended = np.array(open_ended.tolist())
        span = np.ptp(reference[:, 1:], axis=0)
        v = names.index("fuselage.v")
        excursion = np.max(np.abs(reference[:, 1 + v] - reference[0, 1 + v]))
        print(f"orchestrator run, {stop} s at {step} s: {run_seconds:.3f} s wall (process), "
              f"fuselage.v excursion {excursion:.3e} m/s")
        print("importer | step | seconds | max |diff| / column range | fuselage.v max |diff| m/s (of excursion)")
        step_ns = round(step * 1e9)
        cases = [("FMPy", step, reference, lambda: run_fmpy(fmu, step, stop, names)),
                 ("FMPy", step_ns * 1e-9, reference, lambda: run_fmpy(fmu, step_ns * 1e-9, stop, names)),
                 ("FMPy", 0.005, reference, lambda: run_fmpy(fmu, 0.005, stop, names)),
                 ("libcosim", step_ns * 1e-9, open_ended, lambda: run_libcosim(fmu, step_ns, stop, names))]
        for importer, h, reference, simulate in cases:
            seconds, times, values = simulate()
            expected = np.column_stack([np.interp(times, reference[:, 0], reference[:, 1 + j])
                                        for j in range(len(names))])
            difference = np.abs(values - expected)
            relative = np.max(difference / np.where(span > 0, span, 1.0))
            dv = np.max(difference[:, v])
            print(f"{importer} | {h!r} s | {seconds:.3f} | {relative:.2e} | {dv:.2e} ({dv / excursion:.1%})")
            if h == 0.005:
                between_grid_points(path, names, times[::20], values[::20], span, tmp)


main()
