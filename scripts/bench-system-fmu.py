"""Cost of the system FMU's outer steps (docs/system-fmu.md): 3 s of the helicopter through
FMPy's low-level API, no recording; median of 5, and of instantiation + initialization.
Run: target/venv/bin/python scripts/bench-system-fmu.py helicopter.fmu
(from `orchestrator export examples/helicopter.json --fmu helicopter.fmu`); compare with the
wall time `orchestrator run examples/helicopter.json` prints."""

import statistics
import sys
import time

from fmpy import extract, read_model_description
from fmpy.fmi2 import FMU2Slave

fmu = sys.argv[1]
description = read_model_description(fmu)
step = float(description.defaultExperiment.stepSize)
stop = float(description.defaultExperiment.stopTime)
n = round(stop / step)
unzipped = extract(fmu)
inits, steps = [], []
for _ in range(5):
    t0 = time.perf_counter()
    slave = FMU2Slave(guid=description.guid, unzipDirectory=unzipped,
                      modelIdentifier=description.coSimulation.modelIdentifier, instanceName="system")
    slave.instantiate()
    slave.setupExperiment(startTime=0.0, stopTime=stop)
    slave.enterInitializationMode()
    slave.exitInitializationMode()
    t1 = time.perf_counter()
    for k in range(n):
        h = stop - k * step if k == n - 1 else step
        slave.doStep(currentCommunicationPoint=k * step, communicationStepSize=h)
    t2 = time.perf_counter()
    slave.terminate()
    slave.freeInstance()
    inits.append(t1 - t0)
    steps.append(t2 - t1)
print(f"{n} outer steps over {stop} s: median {statistics.median(steps):.3f} s (min {min(steps):.3f} s); "
      f"instantiate + initialize: median {statistics.median(inits):.3f} s")
