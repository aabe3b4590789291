"""Airframe mass, CoM offset and inertia tensor of examples/bo105.json.

The whole aircraft has Padfield's Bo105 mass and inertia (Padfield, Helicopter Flight Dynamics,
1996, Bo105 configuration data, as quoted in the HEROES toolbox: Musero45/TFG
heroes/heroesData/rigidHe/rigidBo105.m, commit 10dddfe): 2200 kg; Ixx 1433, Iyy 4973, Izz 4099,
Ixz 660 kg m^2 about its CoM. The blades are bodies of the Rotor FMUs, so the Fuselage gets the
rest (the same split as helicopter.json, docs/scenarios.md). Positions are FRD body axes from the
aircraft CoM. Run (NumPy): python3 examples/bo105/mass_split.py
"""

import numpy as np

AIRCRAFT_MASS = 2200.0
# Inertia tensor about the aircraft CoM. Padfield's Ixz is the product of inertia (integral of
# x z dm); the tensor element is minus it. Trim (zero rates) does not depend on the inertia.
AIRCRAFT_TENSOR = np.array([[1433.0, 0.0, -660.0], [0.0, 4973.0, 0.0], [-660.0, 0.0, 4099.0]])

# Main rotor (helicopter.json's articulated equivalent): 4 uniform blades of 27 kg from the
# hinge e to the tip R; hub and tilted shaft as in bo105.json.
MAIN_BLADES, MAIN_BLADE_MASS, MAIN_R, MAIN_E = 4, 27.0, 4.91, 0.6874
MAIN_HUB = np.array([-0.0803, 0.0, -1.48])
SHAFT_TILT = np.radians(3.0)
MAIN_SHAFT = np.array([np.sin(SHAFT_TILT), 0.0, -np.cos(SHAFT_TILT)])
# Tail rotor: 2 uniform blades of 2 kg from 0.1 m to 0.95 m, shaft along body y.
TAIL_BLADES, TAIL_BLADE_MASS, TAIL_R, TAIL_E = 2, 2.0, 0.95, 0.1
TAIL_HUB = np.array([-6.0803, -0.3, -1.72])
TAIL_SHAFT = np.array([0.0, 1.0, 0.0])


def point_tensor(mass, p):
    """Inertia tensor of a point mass at p about the origin."""
    return mass * (p @ p * np.eye(3) - np.outer(p, p))


def rotor_tensor(nb, m, radius, e, hub, shaft):
    """Azimuth-averaged tensor of nb uniform blades (e..radius) about the origin."""
    j = m * (radius**3 - e**3) / (3.0 * (radius - e))  # one blade about the shaft axis
    # nb blades spread evenly: about the shaft nb*J, about any in-plane axis nb*J/2.
    own = nb * j * np.eye(3) - 0.5 * nb * j * (np.eye(3) - np.outer(shaft, shaft))
    return own + point_tensor(nb * m, hub)


def main():
    blades_mass = MAIN_BLADES * MAIN_BLADE_MASS + TAIL_BLADES * TAIL_BLADE_MASS
    fuselage_mass = AIRCRAFT_MASS - blades_mass
    first_moment = MAIN_BLADES * MAIN_BLADE_MASS * MAIN_HUB + TAIL_BLADES * TAIL_BLADE_MASS * TAIL_HUB
    cg = -first_moment / fuselage_mass
    blades = rotor_tensor(MAIN_BLADES, MAIN_BLADE_MASS, MAIN_R, MAIN_E, MAIN_HUB, MAIN_SHAFT)
    blades += rotor_tensor(TAIL_BLADES, TAIL_BLADE_MASS, TAIL_R, TAIL_E, TAIL_HUB, TAIL_SHAFT)
    fuselage = AIRCRAFT_TENSOR - blades - point_tensor(fuselage_mass, cg)
    print(f'"mass": {fuselage_mass:.1f}, "cg.x": {cg[0]:.5f}, "cg.y": {cg[1]:.5f}, "cg.z": {cg[2]:.5f},')
    print(f'"I.xx": {fuselage[0, 0]:.1f}, "I.yy": {fuselage[1, 1]:.1f}, "I.zz": {fuselage[2, 2]:.1f}, '
          f'"I.xy": {fuselage[0, 1]:.1f}, "I.xz": {fuselage[0, 2]:.1f}, "I.yz": {fuselage[1, 2]:.1f},')
    print("principal moments", np.linalg.eigvalsh(fuselage))


if __name__ == "__main__":
    main()
