"""A third-party aerodynamics FMU for the rotorcraft-fmi aero interface, built with PythonFMU.

Written against the README's "Variable contract: Aero" only (names, units, frames and signs),
not against our Aero FMU's code: a lifting line with 10 midpoint stations from the root reference
(the flap hinge, radius `e`) to the tip `R`, no inflow, linear lift `0.5 rho U^2 c a alpha`
normal to the section's air velocity, no drag, the lift on the pitch axis.

Inputs per blade i = 1..8: `blade[i].vel.x/y/z` (m/s), `blade[i].omega.x/y/z` (rad/s) and
`blade[i].shaft.x/y/z` (unit shaft axis), all blade axes. Outputs: `blade[i].F.x/y/z` (N) and
`blade[i].M.x/y/z` (N m, about the root reference), blade axes, and `thrust` (N, along the
shaft). Parameters: `rho`, `a`, `chord`, `R`, `e`.

The loads are computed in `do_step` from the inputs at the start of the step (PythonFMU FMUs
have no get-after-set and no directional derivatives), so a master sees them one communication
step late. In initialization mode they are computed whenever they are read, from the inputs set
so far: FMI 2.0 requires a calculated output to be consistent with the inputs there, and a master
starts the coupled system from these values (left at zero, the first step would run without
aerodynamic loads: an impulse on the blades at the start of every run and trim trial).

Build: `pythonfmu build -f examples/third-party-aero/SimpleAero.py --dest examples/third-party-aero`
(`bash scripts/test.sh` does this with the `pythonfmu` of `tests/python/requirements.txt`).
"""

import math

from pythonfmu import Fmi2Causality, Fmi2Slave, Fmi2Variability, Real


class SimpleAero(Fmi2Slave):
    author = "rotorcraft-fmi examples"
    description = "Third-party aero: 10-station lifting line, no inflow, linear lift"

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.rho, self.a, self.chord, self.R, self.e = 1.225, 5.73, 0.5, 7.5, 0.3
        for name in ["rho", "a", "chord", "R", "e"]:
            self.register_variable(Real(name, causality=Fmi2Causality.parameter, variability=Fmi2Variability.fixed))
        self._initializing = False
        self.thrust = 0.0
        self.register_variable(Real("thrust", causality=Fmi2Causality.output, getter=self._output_getter("thrust")))
        for i in range(1, 9):
            for part in ["vel", "omega", "shaft"]:
                for c in "xyz":
                    setattr(self, f"b{i}_{part}_{c}", 0.0)
                    self.register_variable(Real(f"blade[{i}].{part}.{c}", causality=Fmi2Causality.input,
                                                getter=self._getter(f"b{i}_{part}_{c}"),
                                                setter=self._setter(f"b{i}_{part}_{c}")))
            for part in ["F", "M"]:
                for c in "xyz":
                    setattr(self, f"b{i}_{part}_{c}", 0.0)
                    self.register_variable(Real(f"blade[{i}].{part}.{c}", causality=Fmi2Causality.output,
                                                getter=self._output_getter(f"b{i}_{part}_{c}")))

    def _getter(self, attr):
        return lambda: getattr(self, attr)

    def _output_getter(self, attr):
        def get():
            if self._initializing:
                self._compute_loads()
            return getattr(self, attr)
        return get

    def enter_initialization_mode(self):
        self._initializing = True

    def exit_initialization_mode(self):
        self._initializing = False

    def _setter(self, attr):
        return lambda v: setattr(self, attr, v)

    def do_step(self, current_time, step_size):
        self._compute_loads()
        return True

    def _compute_loads(self):
        """The blade loads and the thrust from the inputs as they are now."""
        n = 10
        dx = (self.R - self.e) / n
        thrust = 0.0
        for i in range(1, 9):
            v = [getattr(self, f"b{i}_vel_{c}") for c in "xyz"]
            w = [getattr(self, f"b{i}_omega_{c}") for c in "xyz"]
            shaft = [getattr(self, f"b{i}_shaft_{c}") for c in "xyz"]
            fy = fz = my = mz = 0.0
            for j in range(n):
                x = (j + 0.5) * dx
                # Section velocity v + omega x (x, 0, 0); air relative to the section is minus it.
                wy = -(v[1] + w[2] * x)
                wz = -(v[2] - w[1] * x)
                u2 = wy * wy + wz * wz
                if u2 == 0.0:
                    continue
                alpha = math.atan2(wz, -wy)
                lift = 0.5 * self.rho * u2 * self.chord * self.a * alpha * dx
                u = math.sqrt(u2)
                dfy, dfz = lift * wz / u, -lift * wy / u
                fy += dfy
                fz += dfz
                my += -x * dfz
                mz += x * dfy
            for c, val in zip("xyz", (0.0, fy, fz)):
                setattr(self, f"b{i}_F_{c}", val)
            for c, val in zip("xyz", (0.0, my, mz)):
                setattr(self, f"b{i}_M_{c}", val)
            thrust += fy * shaft[1] + fz * shaft[2]
        self.thrust = thrust
