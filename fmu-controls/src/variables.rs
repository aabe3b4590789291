//! The variable declarations of the Controls FMU (each variable declared once).

use fmu_core::variable::Variable;

use crate::layout::{MAX_BLADES, u, vr, y};

/// Every variable of the model: parameters (vr 0..), inputs (vr 100..), outputs (vr 200..).
pub fn variables() -> Vec<Variable> {
    let mut v = Vec::with_capacity(16 + u::N + y::N);
    parameters(&mut v);
    inputs(&mut v);
    outputs(&mut v);
    v
}

fn parameters(v: &mut Vec<Variable>) {
    v.push(
        Variable::integer_parameter("nb", vr::NB, 4, 1, MAX_BLADES as i32)
            .describe("Number of main rotor blades (1..8); blade i sits at azimuth + 2 pi (i - 1) / nb"),
    );
    v.push(Variable::real_parameter("tau", vr::TAU, "s", 0.0).describe(
        "Time constant of the first-order actuators, s (>= 0); 0 = ideal actuators (no states, pitch follows the \
         pilot inputs at once)",
    ).min(0.0));
    let gains = [
        ("gain.collective", "collective pitch theta0 per unit collective input"),
        ("gain.lon", "cyclic pitch per unit longitudinal cyclic input (stick forward gives theta1s = -gain.lon * lon)"),
        ("gain.lat", "cyclic pitch per unit lateral cyclic input (stick right gives theta1c = -gain.lat * lat)"),
        ("gain.pedal", "tail rotor collective per unit pedal input"),
    ];
    for (k, (name, what)) in gains.iter().enumerate() {
        v.push(Variable::real_parameter(*name, vr::GAINS + k as u32, "", 1.0).describe(format!("Mixing gain: {what}")));
    }
    v.push(Variable::real_parameter("phase", vr::PHASE, "rad", 0.0).describe(
        "Swashplate phase angle, rad: the cyclic command is applied as c cos(psi + phase) + s sin(psi + phase) with \
         c = -gain.lat * lat_cyclic, s = -gain.lon * lon_cyclic (positive phase advances the pitch input)",
    ));
    v.push(
        Variable::real_parameter("tail.offset", vr::TAIL_OFFSET, "rad", 0.0)
            .describe("Tail rotor collective pitch at zero pedal, rad"),
    );
    let initial = ["collective0", "lon_cyclic0", "lat_cyclic0", "pedal0"];
    for (k, name) in initial.iter().enumerate() {
        v.push(Variable::real_parameter(*name, vr::INITIAL + k as u32, "rad", 0.0).describe(format!(
            "Initial actuator position expressed as the pilot input {} (rad; tau > 0 only): set it equal to the \
             initial input to start in equilibrium",
            &name[..name.len() - 1]
        )));
    }
    v.push(Variable::real_parameter("tolerance", vr::TOLERANCE, "", 1e-9).describe(
        "Relative and absolute tolerance of the error-controlled integrator inside fmi2DoStep (0 < tol < 1)",
    ));
}

fn inputs(v: &mut Vec<Variable>) {
    let list: [(&str, usize, &'static str, &str); u::N] = [
        ("collective", u::COLLECTIVE, "rad", "Pilot collective, as blade pitch (rad); up = positive"),
        ("lon_cyclic", u::LON, "rad", "Pilot longitudinal cyclic, as blade pitch (rad); stick forward = positive"),
        ("lat_cyclic", u::LAT, "rad", "Pilot lateral cyclic, as blade pitch (rad); stick right = positive"),
        (
            "pedal",
            u::PEDAL,
            "rad",
            "Pilot pedal, as tail rotor pitch (rad); positive increases the tail rotor collective",
        ),
        (
            "azimuth",
            u::AZIMUTH,
            "rad",
            "Rotor shaft azimuth (of blade 1), rad: 0 over the tail, increasing in the sense of rotation",
        ),
        (
            "azimuth_rate",
            u::AZIMUTH_RATE,
            "rad/s",
            "Rotor speed d(azimuth)/dt, rad/s (its own rate is taken as zero for the pitch acceleration)",
        ),
    ];
    for (name, k, unit, d) in list {
        v.push(Variable::real_input(name, vr::input(k), unit, 0.0).describe(d));
    }
}

fn outputs(v: &mut Vec<Variable>) {
    let with_azimuth = [u::COLLECTIVE, u::LON, u::LAT, u::AZIMUTH].map(vr::input);
    let with_rate = [u::COLLECTIVE, u::LON, u::LAT, u::AZIMUTH, u::AZIMUTH_RATE].map(vr::input);
    for b in 0..MAX_BLADES {
        let base = y::blade(b);
        let i = b + 1;
        v.push(
            Variable::real_output(format!("blade[{i}].pitch"), vr::output(base + y::PITCH), "rad")
                .describe(format!(
                    "Pitch angle of blade {i} (leading edge up positive), theta0 + theta1c cos(psi_{i}) + theta1s \
                     sin(psi_{i}), psi_{i} = azimuth + 2 pi ({i} - 1) / nb; 0 for blades above nb, rad"
                ))
                .depends_on(with_azimuth),
        );
        v.push(
            Variable::real_output(format!("blade[{i}].pitch_rate"), vr::output(base + y::PITCH_RATE), "rad/s")
                .describe(format!(
                    "Time derivative of blade[{i}].pitch (actuator rates plus azimuth_rate times the azimuthal \
                     derivative; pilot input rates taken as zero), rad/s"
                ))
                .depends_on(with_rate),
        );
        v.push(
            Variable::real_output(format!("blade[{i}].pitch_acc"), vr::output(base + y::PITCH_ACC), "rad/s2")
                .describe(format!(
                    "Second time derivative of blade[{i}].pitch (constant pilot inputs and rotor speed), rad/s^2"
                ))
                .depends_on(with_rate),
        );
    }
    let swash = [
        ("theta0", "Collective pitch (actuator position), rad", vec![u::COLLECTIVE]),
        ("theta1c", "Lateral cyclic pitch, coefficient of cos(psi) (actuator position), rad", vec![u::LON, u::LAT]),
        (
            "theta1s",
            "Longitudinal cyclic pitch, coefficient of sin(psi) (actuator position), rad",
            vec![u::LON, u::LAT],
        ),
        ("tail_collective", "Tail rotor collective pitch (actuator position), rad", vec![u::PEDAL]),
    ];
    for (k, (name, d, deps)) in swash.into_iter().enumerate() {
        v.push(
            Variable::real_output(name, vr::output(y::SWASHPLATE + k), "rad")
                .describe(d)
                .depends_on(deps.into_iter().map(vr::input)),
        );
    }
}
