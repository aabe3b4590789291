//! Leishman-Beddoes dynamic stall of one section (`fmu_aero::dynamic_stall`) against independent
//! references: Wagner's function and Theodorsen's function (evaluated by
//! `data/dynamic_stall_reference.py` with SciPy, written independently of the Rust code), the
//! closed form of the exponential indicial approximation, and the NACA 0012 oscillating-airfoil
//! measurements of McAlister et al. (1982), NASA TM-84245, frame 10022.

use fmu_aero::dynamic_stall::{Airfoil, Indicial, N_STATES, SectionCoefficients, SectionFlow, StaticCurve};

/// `data/theodorsen_wagner.csv`: kind, x (k or s), exact (re, im), Jones' approximation (re, im).
const THEODORSEN_WAGNER: &str = include_str!("data/theodorsen_wagner.csv");
/// `data/mcalister_frame_10022.csv`: quantity (cl/cm), alpha (deg), value.
const FRAME_10022: &str = include_str!("data/mcalister_frame_10022.csv");

/// Speed of sound used to turn Mach numbers into speeds, m/s (only `V / c` and `M` matter).
const SOUND: f64 = 340.0;

/// Rows `(x, exact_re, exact_im, jones_re, jones_im)` of one kind of the reference table.
fn reference(kind: &str) -> Vec<[f64; 5]> {
    THEODORSEN_WAGNER
        .lines()
        .skip(1)
        .filter_map(|line| {
            let mut cols = line.split(',');
            (cols.next()? == kind).then(|| {
                let v: Vec<f64> = cols.map(|c| c.parse().expect("number")).collect();
                [v[0], v[1], v[2], v[3], v[4]]
            })
        })
        .collect()
}

/// The section's motion: angle of attack and its rate at time `t`.
type Motion<'a> = &'a dyn Fn(f64) -> (f64, f64);

/// Integrates the section from `x0` with classical Runge-Kutta, step `dt`, and calls `sample`
/// with the time and the coefficients after every step.
fn simulate(
    airfoil: &Airfoil,
    flow: (f64, f64, f64),
    motion: Motion,
    x0: [f64; N_STATES],
    (dt, steps): (f64, usize),
    mut sample: impl FnMut(f64, &SectionCoefficients<f64>),
) {
    let (speed, mach, chord) = flow;
    let section = |t: f64| {
        let (alpha, alpha_rate) = motion(t);
        SectionFlow { alpha, alpha_rate, speed, mach, chord }
    };
    let rhs = |t: f64, x: &[f64; N_STATES]| {
        let mut dx = [0.0; N_STATES];
        airfoil.evaluate(x, &section(t), &mut dx);
        dx
    };
    let mut x = x0;
    for i in 0..steps {
        let t = i as f64 * dt;
        let k1 = rhs(t, &x);
        let k2 = rhs(t + 0.5 * dt, &std::array::from_fn(|j| x[j] + 0.5 * dt * k1[j]));
        let k3 = rhs(t + 0.5 * dt, &std::array::from_fn(|j| x[j] + 0.5 * dt * k2[j]));
        let k4 = rhs(t + dt, &std::array::from_fn(|j| x[j] + dt * k3[j]));
        x = std::array::from_fn(|j| x[j] + dt / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]));
        let mut dx = [0.0; N_STATES];
        sample(t + dt, &airfoil.evaluate(&x, &section(t + dt), &mut dx));
    }
}

/// An airfoil whose static curve stays attached at the small angles of the attached-flow tests.
fn attached(indicial: Indicial, mach: f64) -> Airfoil {
    Airfoil { indicial, ..Airfoil::naca0012(mach) }
}

/// A step in angle of attack: `alpha_E / alpha` follows the indicial function
/// `1 - A1 exp(-b1 beta^2 s) - A2 exp(-b2 beta^2 s)` (closed form, to integration accuracy), and
/// with Jones' constants at low Mach Wagner's function (exact values by the SciPy script,
/// within the approximation's own error, at most 0.0064 at these s).
#[test]
fn step_response_follows_the_indicial_function_and_wagner() {
    let (chord, alpha) = (1.0, 1.0_f64.to_radians());
    for (indicial, mach) in [(Indicial::JONES, 1e-4), (Indicial::LEISHMAN, 0.3)] {
        let airfoil = attached(indicial, mach);
        let speed = mach * SOUND;
        let ds = 0.01; // semi-chords per step
        let dt = ds * chord / (2.0 * speed);
        let beta2 = 1.0 - mach * mach;
        let mut worst = 0.0_f64;
        let mut at_s = Vec::new();
        let x0 = [0.0; N_STATES];
        simulate(&airfoil, (speed, mach, chord), &|_| (alpha, 0.0), x0, (dt, 2000), |t, c| {
            let s = 2.0 * speed * t / chord;
            let closed =
                1.0 - indicial.a1 * (-indicial.b1 * beta2 * s).exp() - indicial.a2 * (-indicial.b2 * beta2 * s).exp();
            worst = worst.max((c.alpha_effective / alpha - closed).abs());
            at_s.push((s, c.alpha_effective / alpha));
        });
        assert!(worst < 1e-9, "{indicial:?}: alpha_E off the closed form by {worst:e}");
        if indicial == Indicial::JONES {
            for [s, exact, _, jones, _] in reference("wagner") {
                let ours = at_s.iter().find(|(si, _)| (si - s).abs() < 1e-6).expect("sampled").1;
                eprintln!("s = {s}: alpha_E / alpha = {ours:.4}, Wagner {exact:.4}, error {:+.4}", ours - exact);
                assert!((ours - jones).abs() < 1e-8, "s = {s}: {ours} against Jones {jones}");
                assert!((ours - exact).abs() < 0.007, "s = {s}: {ours} against Wagner {exact}");
            }
        }
    }
}

/// First harmonic of `y` sampled at `n` equal steps over one period ending at the last sample:
/// the phasor `P` with `y = Re(P e^{i omega t})`.
fn phasor(samples: &[(f64, f64)], omega: f64) -> (f64, f64) {
    let n = samples.len() as f64;
    let (mut re, mut im) = (0.0, 0.0);
    for &(t, y) in samples {
        re += 2.0 / n * y * (omega * t).cos();
        im -= 2.0 / n * y * (omega * t).sin();
    }
    (re, im)
}

/// Harmonic pitching (small amplitude, attached): the circulatory response `alpha_E / alpha_34`
/// against Theodorsen's `C(k)` at k = 0.02 .. 0.5 (exact by the SciPy script; within 0.015, the
/// error of Jones' approximation itself, 0.0143 at most here) and against the approximation's
/// own transfer function `1 - sum A_i i k / (b_i + i k)` (within 1e-4: integration and the
/// finite transient).
#[test]
fn harmonic_response_matches_theodorsen() {
    let (chord, mach, amplitude) = (1.0, 1e-4, 1.0_f64.to_radians());
    let speed = mach * SOUND;
    let airfoil = attached(Indicial::JONES, mach);
    for [k, exact_re, exact_im, jones_re, jones_im] in reference("theodorsen") {
        let omega = 2.0 * k * speed / chord;
        let period = 2.0 * std::f64::consts::PI / omega;
        let (per_cycle, cycles) = (400, 8 + (0.5 / k) as usize);
        let motion = |t: f64| (amplitude * (omega * t).sin(), amplitude * omega * (omega * t).cos());
        let (mut alpha_e, mut alpha_34) = (Vec::new(), Vec::new());
        let dt = period / per_cycle as f64;
        simulate(&airfoil, (speed, mach, chord), &motion, [0.0; N_STATES], (dt, per_cycle * cycles), |t, c| {
            if t > period * (cycles - 1) as f64 + 0.5 * dt {
                let (a, a_rate) = motion(t);
                alpha_e.push((t, c.alpha_effective));
                alpha_34.push((t, a + 0.5 * a_rate * chord / speed));
            }
        });
        let (er, ei) = phasor(&alpha_e, omega);
        let (ar, ai) = phasor(&alpha_34, omega);
        let d = ar * ar + ai * ai;
        let ratio = ((er * ar + ei * ai) / d, (ei * ar - er * ai) / d);
        let to_jones = (ratio.0 - jones_re).hypot(ratio.1 - jones_im);
        let to_exact = (ratio.0 - exact_re).hypot(ratio.1 - exact_im);
        eprintln!(
            "k = {k}: alpha_E / alpha_34 = {:.4} {:+.4}i, C(k) = {exact_re:.4} {exact_im:+.4}i, |error| {to_exact:.4}",
            ratio.0, ratio.1
        );
        assert!(to_jones < 1e-4, "k = {k}: {ratio:?} against Jones ({jones_re}, {jones_im}), {to_jones:e}");
        assert!(to_exact < 0.015, "k = {k}: {ratio:?} against C(k) ({exact_re}, {exact_im}), {to_exact}");
    }
}

/// The measured loop of one quantity of frame 10022: `(alpha deg, value)` in the order of the file.
fn measured(quantity: &str) -> Vec<(f64, f64)> {
    measured_in(FRAME_10022, quantity)
}

/// The measured loop of one quantity in the frame file `csv`.
fn measured_in(csv: &str, quantity: &str) -> Vec<(f64, f64)> {
    csv.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .filter_map(|line| {
            let mut cols = line.split(',');
            (cols.next()? == quantity).then(|| {
                let a: f64 = cols.next().and_then(|c| c.parse().ok()).expect("alpha");
                (a, cols.next().and_then(|c| c.parse().ok()).expect("value"))
            })
        })
        .collect()
}

/// One cycle of the NACA 0012 oscillating in deep dynamic stall, McAlister et al. (1982),
/// NASA TM-84245, frame 10022: M = 0.301, alpha = 12.0 + 9.9 sin(omega t) deg, k = 0.098
/// (digitized loops in luizpancini/BL-DSM-JFS-2021 `NASA Data/frame_10022.mat`), against the
/// model with the NACA 0012 constants at that Mach number, after four cycles from steady flow.
/// Returns the model's `(alpha deg, cl, cm, upstroke)` over the last cycle.
fn frame_10022_cycle() -> Vec<(f64, f64, f64, bool)> {
    frame_cycle(0.301, 12.0, 9.9, 0.098)
}

/// One cycle at Mach `mach`, `alpha = mean + amplitude sin(omega t)` (deg), reduced frequency `k`.
fn frame_cycle(mach: f64, mean_deg: f64, amplitude_deg: f64, k: f64) -> Vec<(f64, f64, f64, bool)> {
    let chord = 0.61;
    let (mean, amplitude) = (mean_deg.to_radians(), amplitude_deg.to_radians());
    let speed = mach * SOUND;
    let omega = 2.0 * k * speed / chord;
    let period = 2.0 * std::f64::consts::PI / omega;
    let airfoil = Airfoil::naca0012(mach);
    let motion = |t: f64| (mean + amplitude * (omega * t).sin(), amplitude * omega * (omega * t).cos());
    let (per_cycle, cycles) = (2000, 5);
    let mut out = Vec::new();
    let x0 = airfoil.steady_state(mean);
    simulate(&airfoil, (speed, mach, chord), &motion, x0, (period / per_cycle as f64, per_cycle * cycles), |t, c| {
        if t > period * (cycles - 1) as f64 {
            let (a, rate) = motion(t);
            out.push((a.to_degrees(), c.cl, c.cm, rate > 0.0));
        }
    });
    out
}

/// The model's branch (up- or downstroke) of `column` (1: cl, 2: cm) interpolated linearly at
/// `alpha` (deg).
fn branch_at(model: &[(f64, f64, f64, bool)], upstroke: bool, column: usize, alpha: f64) -> f64 {
    let mut pts: Vec<(f64, f64)> =
        model.iter().filter(|m| m.3 == upstroke).map(|m| (m.0, if column == 1 { m.1 } else { m.2 })).collect();
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let i = pts.partition_point(|p| p.0 < alpha).clamp(1, pts.len() - 1);
    let (a, b) = (pts[i - 1], pts[i]);
    a.1 + (b.1 - a.1) * (alpha - a.0) / (b.0 - a.0)
}

/// Mean absolute difference between the measured points of one stroke (the points before the
/// largest angle are the upstroke) within `range` (deg) and the model's same stroke.
fn stroke_error(
    model: &[(f64, f64, f64, bool)],
    measured: &[(f64, f64)],
    column: usize,
    upstroke: bool,
    range: (f64, f64),
) -> f64 {
    let top = measured.iter().enumerate().fold(0, |m, (i, p)| if p.0 > measured[m].0 { i } else { m });
    let stroke = if upstroke { &measured[..=top] } else { &measured[top..] };
    let inside: Vec<_> = stroke.iter().filter(|p| p.0 >= range.0 && p.0 <= range.1).collect();
    inside.iter().map(|p| (branch_at(model, upstroke, column, p.0) - p.1).abs()).sum::<f64>() / inside.len() as f64
}

/// Dynamic stall loop against McAlister et al. (1982) frame 10022: the peak lift and its angle,
/// the most negative moment, and the mean lift error on the attached upstroke and on the
/// downstroke, with the tolerances in the assertions. The attached upstroke and the stall peaks
/// are close; the downstroke lift is too high (the reattachment of this simplified model is
/// faster than measured), which the last tolerance states.
#[test]
fn dynamic_stall_loop_against_mcalister_frame_10022() {
    let model = frame_10022_cycle();
    let (cl_exp, cm_exp) = (measured("cl"), measured("cm"));
    let peak =
        |v: &[(f64, f64)]| v.iter().cloned().fold((0.0, f64::NEG_INFINITY), |m, p| if p.1 > m.1 { p } else { m });
    let (alpha_peak_exp, cl_max_exp) = peak(&cl_exp);
    let cm_min_exp = cm_exp.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let (alpha_peak, cl_max) = peak(&model.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>());
    let cm_min = model.iter().map(|m| m.2).fold(f64::INFINITY, f64::min);
    let up = stroke_error(&model, &cl_exp, 1, true, (3.0, 17.0));
    let down = stroke_error(&model, &cl_exp, 1, false, (3.0, 21.0));
    let cm_up = stroke_error(&model, &cm_exp, 2, true, (3.0, 17.0));
    eprintln!(
        "frame 10022: cl_max {cl_max:.3} at {alpha_peak:.2} deg (measured {cl_max_exp:.3} at {alpha_peak_exp:.2}); \
         cm_min {cm_min:.3} (measured {cm_min_exp:.3}); mean |cl error| upstroke 3-17 deg {up:.3}, downstroke {down:.3}; \
         mean |cm error| upstroke 3-17 deg {cm_up:.3}"
    );
    assert!((cl_max / cl_max_exp - 1.0).abs() < 0.05, "cl_max {cl_max} against {cl_max_exp}");
    assert!((alpha_peak - alpha_peak_exp).abs() < 1.5, "cl_max at {alpha_peak} deg against {alpha_peak_exp}");
    assert!((cm_min / cm_min_exp - 1.0).abs() < 0.10, "cm_min {cm_min} against {cm_min_exp}");
    assert!(up < 0.05, "upstroke cl error {up}");
    assert!(cm_up < 0.02, "upstroke cm error {cm_up}");
    assert!(down < 0.30, "downstroke cl error {down}");
}

/// Held at a constant angle, the model settles on the static Kirchhoff curve
/// `cn = CN_alpha (alpha - alpha0) ((1 + sqrt f) / 2)^2` with Beddoes' `f(alpha)` (closed form
/// evaluated here), below and beyond stall; starting from attached flow beyond stall, it first
/// overshoots it (the delayed separation) and then settles.
#[test]
fn held_angle_settles_on_the_static_kirchhoff_curve() {
    let (mach, chord) = (0.3, 0.5);
    let speed = mach * SOUND;
    let airfoil = Airfoil::naca0012(mach);
    let StaticCurve::Exponential { alpha1, s1, s2 } = airfoil.curve;
    for alpha_deg in [5.0_f64, 14.0, 18.0, 25.0] {
        let alpha = alpha_deg.to_radians();
        let a = alpha - airfoil.alpha0;
        let f =
            if a <= alpha1 { 1.0 - 0.3 * ((a - alpha1) / s1).exp() } else { 0.04 + 0.66 * ((alpha1 - a) / s2).exp() };
        let static_cn = airfoil.cn_alpha * a * (0.25 * (1.0 + f.sqrt()).powi(2));
        // From attached flow at 5 deg, a step to alpha; 400 semi-chords.
        let dt = 0.05 * chord / (2.0 * speed);
        let (mut last, mut peak) = (0.0, 0.0_f64);
        let x0 = airfoil.steady_state(5.0_f64.to_radians());
        simulate(&airfoil, (speed, mach, chord), &|_| (alpha, 0.0), x0, (dt, 8000), |_, c| {
            last = c.cn;
            peak = peak.max(c.cn);
        });
        assert!((last - static_cn).abs() < 1e-6 * static_cn, "{alpha_deg} deg: cn {last} against {static_cn}");
        if alpha_deg > 20.0 {
            assert!(peak > 1.2 * static_cn, "{alpha_deg} deg: no dynamic overshoot ({peak} against {static_cn})");
        }
    }
}

/// Inputs far outside the model's range (reverse flow, zero speed, supersonic Mach, a huge
/// rate) give finite coefficients and derivatives.
#[test]
fn out_of_range_inputs_stay_finite() {
    let airfoil = Airfoil::naca0012(0.3);
    let x = airfoil.steady_state(0.1);
    for (alpha, alpha_rate, speed, mach) in
        [(3.0, 0.0, 100.0, 0.3), (0.2, 1e4, 0.0, 0.0), (0.2, -5.0, 500.0, 1.5), (-1.5, 2.0, 50.0, 0.15)]
    {
        let mut dx = [0.0; N_STATES];
        let c = airfoil.evaluate(&x, &SectionFlow { alpha, alpha_rate, speed, mach, chord: 0.5 }, &mut dx);
        let all = [c.cn, c.cc, c.cm, c.cl, c.cd, c.alpha_effective];
        assert!(
            all.iter().chain(dx.iter()).all(|v| v.is_finite()),
            "{alpha} {alpha_rate} {speed} {mach}: {all:?} {dx:?}"
        );
    }
}

/// The equations in the FMU's dual numbers: the first derivatives of the coefficients and the
/// state rates along every state and input, against central differences of the `f64`
/// evaluation, at an attached point and at points with the vortex building and shed (within
/// one switching region).
#[test]
fn dual_number_derivatives_match_central_differences() {
    use fmu_core::Dual64;
    let airfoil = Airfoil::naca0012(0.3);
    let mut attached = airfoil.steady_state(0.1);
    attached[4] = 0.95; // off the switch between separating and reattaching
    let states = [attached, [0.3, 0.29, 0.02, 1.6, 0.5, 0.2, 3.0], [0.35, 0.3, -0.01, 1.7, 0.3, 0.4, 9.0]];
    let inputs = [0.1, 0.4, 102.0, 0.3];
    let eval = |x: &[f64], u: &[f64]| {
        let mut dx = [0.0; N_STATES];
        let c = airfoil.evaluate(
            x,
            &SectionFlow { alpha: u[0], alpha_rate: u[1], speed: u[2], mach: u[3], chord: 0.27 },
            &mut dx,
        );
        let mut all = vec![c.cn, c.cc, c.cm, c.cl, c.cd];
        all.extend(dx);
        all
    };
    for x in states {
        let mut alpha_inputs = inputs;
        alpha_inputs[0] = if x[3] > 1.0 { 0.3 } else { 0.1 };
        for k in 0..N_STATES + 4 {
            let seed = |i: usize, v: f64| Dual64::new(v, if i == k { 1.0 } else { 0.0 });
            let xd: Vec<Dual64> = x.iter().enumerate().map(|(i, &v)| seed(i, v)).collect();
            let ud: Vec<Dual64> = alpha_inputs.iter().enumerate().map(|(i, &v)| seed(N_STATES + i, v)).collect();
            let mut dxd = [Dual64::from(0.0); N_STATES];
            let flow = SectionFlow { alpha: ud[0], alpha_rate: ud[1], speed: ud[2], mach: ud[3], chord: 0.27 };
            let c = airfoil.evaluate(&xd, &flow, &mut dxd);
            let mut exact: Vec<f64> = [c.cn, c.cc, c.cm, c.cl, c.cd].iter().map(|v| v.eps).collect();
            exact.extend(dxd.iter().map(|v| v.eps));
            let h = 1e-6 * if k < N_STATES { x[k].abs().max(1.0) } else { alpha_inputs[k - N_STATES].abs().max(1.0) };
            let shifted = |sign: f64| {
                let (mut xs, mut us) = (x, alpha_inputs);
                if k < N_STATES {
                    xs[k] += sign * h
                } else {
                    us[k - N_STATES] += sign * h
                }
                eval(&xs, &us)
            };
            let (plus, minus) = (shifted(1.0), shifted(-1.0));
            for (i, e) in exact.iter().enumerate() {
                let fd = (plus[i] - minus[i]) / (2.0 * h);
                assert!(
                    (e - fd).abs() <= 1e-5 * fd.abs().max(1.0),
                    "state {x:?}, variable {k}, output {i}: {e} against {fd}"
                );
            }
        }
    }
}

/// Three more NACA 0012 frames of McAlister et al. (1982) at M = 0.3 (digitized as frame 10022):
/// light stall at low frequency, deep stall at higher frequency, and a high mean angle. The peak
/// lift within 5 % and its angle within 1 deg; the most negative moment is printed, not asserted:
/// the model's moment stall is too weak at the higher reduced frequencies (10108: -0.221 against
/// -0.323; 10123: -0.154 against -0.358; 10104: -0.120 against -0.138).
#[test]
fn peak_lift_of_three_more_frames() {
    let frames = [
        ("10104", include_str!("data/mcalister_frame_10104.csv"), (0.302, 11.9, 7.9, 0.048)),
        ("10108", include_str!("data/mcalister_frame_10108.csv"), (0.296, 11.9, 7.9, 0.125)),
        ("10123", include_str!("data/mcalister_frame_10123.csv"), (0.293, 15.0, 4.9, 0.202)),
    ];
    for (name, csv, (mach, mean, amplitude, k)) in frames {
        let model = frame_cycle(mach, mean, amplitude, k);
        let top = |v: &mut dyn Iterator<Item = (f64, f64)>| {
            v.fold((0.0, f64::NEG_INFINITY), |m, p| if p.1 > m.1 { p } else { m })
        };
        let (alpha_exp, cl_exp) = top(&mut measured_in(csv, "cl").into_iter());
        let (alpha, cl) = top(&mut model.iter().map(|m| (m.0, m.1)));
        let cm_exp = measured_in(csv, "cm").iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let cm = model.iter().map(|m| m.2).fold(f64::INFINITY, f64::min);
        eprintln!(
            "frame {name}: cl_max {cl:.3} at {alpha:.2} deg (measured {cl_exp:.3} at {alpha_exp:.2}); cm_min {cm:.3} (measured {cm_exp:.3})"
        );
        assert!((cl / cl_exp - 1.0).abs() < 0.05, "frame {name}: cl_max {cl} against {cl_exp}");
        assert!((alpha - alpha_exp).abs() < 1.0, "frame {name}: cl_max at {alpha} deg against {alpha_exp}");
    }
}
