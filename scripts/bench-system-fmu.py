"""Cost of the system FMU's outer steps (docs/system-fmu.md): its stop time (3 s for the
helicopter) through FMPy's low-level API at a communication step (default: the FMU's own step),
no recording; median of 5, and of instantiation + initialization. With --libcosim STEP_NS:
libcosim (libcosimpy) instead, at a step of STEP_NS nanoseconds, one `simulate_until`.
Run: target/venv/bin/python scripts/bench-system-fmu.py helicopter.fmu [--step S | --libcosim STEP_NS]
(from `orchestrator export examples/helicopter.json --fmu helicopter.fmu`); compare with the
wall time `orchestrator run examples/helicopter.json` prints."""

import argparse
import statistics
import time

from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave


def fmpy_steps(fmu, description, step, stop):
    """Seconds to instantiate and initialize, and to step to `stop` (last step shortened)."""
    unzipped = extract(fmu)
    t0 = time.perf_counter()
    slave = FMU2Slave(guid=description.guid, unzipDirectory=unzipped,
                      modelIdentifier=description.coSimulation.modelIdentifier, instanceName="system")
    slave.instantiate()
    slave.setupExperiment(startTime=0.0, stopTime=stop)
    slave.enterInitializationMode()
    slave.exitInitializationMode()
    t1 = time.perf_counter()
    t, k = 0.0, 0
    while t < stop - 1e-9 * step:
        h = min(step, stop - k * step)
        slave.doStep(currentCommunicationPoint=t, communicationStepSize=h)
        k += 1
        t = k * step if k * step < stop else stop
    t2 = time.perf_counter()
    slave.terminate()
    slave.freeInstance()
    return t1 - t0, t2 - t1, k


def libcosim_steps(fmu, step_ns, stop):
    """Seconds to set up and to simulate to the last whole step before `stop` in libcosim."""
    from libcosimpy.CosimExecution import CosimExecution
    from libcosimpy.CosimLogging import CosimLogLevel, log_output_level
    from libcosimpy.CosimSlave import CosimLocalSlave

    log_output_level(CosimLogLevel.ERROR)
    t0 = time.perf_counter()
    execution = CosimExecution.from_step_size(step_size=step_ns)
    execution.add_local_slave(local_slave=CosimLocalSlave(fmu_path=str(fmu), instance_name="heli"))
    t1 = time.perf_counter()
    n = int(stop * 1e9) // step_ns
    assert execution.simulate_until(target_time=n * step_ns)
    return t1 - t0, time.perf_counter() - t1, n


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fmu")
    parser.add_argument("--step", type=float, help="FMPy's communication step, s (default: the FMU's)")
    parser.add_argument("--libcosim", type=int, metavar="STEP_NS", help="run in libcosim at this step, ns")
    args = parser.parse_args()
    description = read_model_description(args.fmu)
    stop = float(description.defaultExperiment.stopTime)
    step = args.step or float(description.defaultExperiment.stepSize)
    inits, steps = [], []
    for _ in range(5):
        if args.libcosim:
            init, stepping, n = libcosim_steps(args.fmu, args.libcosim, stop)
        else:
            init, stepping, n = fmpy_steps(args.fmu, description, step, stop)
        inits.append(init)
        steps.append(stepping)
    importer = f"libcosim at {args.libcosim} ns" if args.libcosim else f"FMPy at {step} s"
    print(f"{importer}: {n} outer steps over {stop} s: median {statistics.median(steps):.3f} s "
          f"(min {min(steps):.3f} s); instantiate + initialize: median {statistics.median(inits):.3f} s")


main()
