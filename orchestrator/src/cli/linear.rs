//! `orchestrator linearize` and `orchestrator modes`: the linear model of a system about its start
//! (or a trim), and its modes over a parameter sweep with their plots.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use cosim::import::FacadeLogger;
use cosim::linear::{LinearModel, Mode, floquet};
use cosim::master::{FmuCache, Master};
use cosim::system::{System, SystemDescription};
use nalgebra::Complex;
use orchestrator::plot;
use orchestrator::trim::{FlightCondition, JacobianMethod};
use rotorcraft::{ModeShape, RotorNaming, Rotors};

use super::options::{SystemChanges, TrimFirst};
use super::trim::solve_trim;

/// The options of `orchestrator linearize`.
#[derive(Args, Debug, Clone)]
pub struct LinearizeArgs {
    /// System description (JSON).
    pub system: PathBuf,
    /// The JSON file to write; the MAT file goes beside it.
    #[arg(long, default_value = "lin.json")]
    pub out: PathBuf,
    /// An external input of the system (`instance.variable`, as in its `inputs`) to keep as
    /// a model input; repeatable; default: all of them (for the helicopter, the pilot
    /// controls).
    #[arg(long = "input", value_name = "INSTANCE.VAR")]
    pub inputs: Vec<String>,
    #[command(flatten)]
    pub trim: TrimFirst,
    /// Keep the states that take no part (unused blades, locked hinges, inflow states the
    /// chosen inflow model does not use); by default they are removed and listed.
    #[arg(long, conflicts_with = "multiblade")]
    pub keep_inert: bool,
    /// Also write the frequency response from INPUT (one of the model's inputs) to OUTPUT (a
    /// recorded output): OUT.bode.csv and the Bode diagram OUT.bode.svg, 0.01 to 30 Hz (see
    /// --bode-range), and print the frequencies where its gain peaks; repeatable.
    #[arg(long = "bode", value_name = "INPUT:OUTPUT")]
    pub bode: Vec<String>,
    /// The frequencies of --bode: LO:HI (400 points) or LO:HI:N, Hz, N points logarithmically
    /// spaced from LO to HI (0 < LO < HI, N >= 2).
    #[arg(long, value_name = "LO:HI[:N]", requires = "bode")]
    pub bode_range: Option<String>,
    /// Also compute the Floquet exponents of the periodic system over one rotor revolution
    /// from this many linearisations along the co-simulated trajectory (forward flight,
    /// where the multiblade system stays periodic): printed and written as `floquet`.
    #[arg(long, value_name = "SAMPLES")]
    pub floquet: Option<usize>,
    /// Express the blade states of every rotor with 3 or more blades in multiblade
    /// coordinates (collective, cyclic, differential): time-invariant in hover and axial
    /// flight, and the cyclic modes named regressive or progressive.
    #[arg(long)]
    pub multiblade: bool,
    /// For a system with elastic blades (states per blade station, as RotorElastic's), the
    /// shapes of this many lowest oscillatory modes, written as `mode_shapes` in OUT (see
    /// `modes --shapes`).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub shapes: usize,
    #[command(flatten)]
    pub changes: SystemChanges,
    /// Print every FMU message, not only warnings and errors.
    #[arg(long)]
    pub verbose: bool,
}

/// The options of `orchestrator modes`.
#[derive(Args, Debug, Clone)]
pub struct ModesArgs {
    /// System description (JSON).
    pub system: PathBuf,
    /// Output folder; created if missing.
    #[arg(long, default_value = "modes")]
    pub out: PathBuf,
    /// A parameter and its values, `INSTANCE.PARAM=V1,V2,...`; repeatable: several are varied
    /// together (the same number of values each), the first is the chart's axis.
    #[arg(long = "sweep", value_name = "INSTANCE.PARAM=V1,V2,...")]
    pub sweeps: Vec<String>,
    #[command(flatten)]
    pub trim: TrimFirst,
    /// Blade states in multiblade coordinates (see `linearize`).
    #[arg(long)]
    pub multiblade: bool,
    /// For a system with elastic blades (states per blade station, as RotorElastic's), the
    /// shapes of this many lowest oscillatory modes per point into DIR/mode_shapes.csv and
    /// DIR/mode_shapes.json (not with --floquet).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub shapes: usize,
    /// At every point, the Floquet exponents of the periodic system over one rotor revolution
    /// from this many linearisations along the trajectory (see `linearize`) instead of the
    /// eigenvalues at the start azimuth: needed where the multiblade system depends on the
    /// azimuth (dissimilar blades, forward flight), which `modes --multiblade` warns about.
    #[arg(long, value_name = "SAMPLES")]
    pub floquet: Option<usize>,
    #[command(flatten)]
    pub changes: SystemChanges,
    /// Print every FMU message, not only warnings and errors.
    #[arg(long)]
    pub verbose: bool,
}

/// What to linearise and in which form.
#[derive(Debug, Clone)]
pub struct LinearRequest<'a> {
    /// The system description (JSON).
    pub system_path: &'a Path,
    /// External inputs to keep (empty: all).
    pub inputs: &'a [String],
    /// Trim first for this condition.
    pub condition: Option<FlightCondition>,
    /// Keep the inert states.
    pub keep_inert: bool,
    /// Blade states in multiblade coordinates.
    pub multiblade: bool,
    /// Co-simulate this long (s) from the start, or the trim, and linearise about the state
    /// reached: the settled state of a system that comes to rest or to a steady rotation.
    pub settle: Option<f64>,
    /// `--set` changes.
    pub changes: &'a SystemChanges,
    /// Print every FMU message.
    pub verbose: bool,
}

/// A linear model of [`LinearRequest::model`] with what its modes are named from.
struct Linearised {
    /// The model (multiblade when asked).
    model: LinearModel,
    /// The names of the inert states removed.
    inert: Vec<String>,
    /// The system's rotors at the operating point.
    rotors: Rotors,
    /// The undeformed node radii of the instances with elastic blades, m.
    radii: BTreeMap<String, Vec<f64>>,
}

impl<'a> LinearRequest<'a> {
    /// A request for `system_path` after `trim` (`--trim`, `--settle`), keeping every input and
    /// removing the inert states.
    pub fn new(
        system_path: &'a Path,
        trim: &TrimFirst,
        multiblade: bool,
        changes: &'a SystemChanges,
        verbose: bool,
    ) -> Self {
        let (condition, settle) = (trim.condition(), trim.settle);
        Self { system_path, inputs: &[], condition, keep_inert: false, multiblade, settle, changes, verbose }
    }

    /// The system with the extra assignments `set` applied (a sweep point), trimmed first when
    /// asked.
    fn description(&self, set: &[String]) -> Result<SystemDescription> {
        let mut changes = self.changes.clone();
        changes.set.extend_from_slice(set);
        let mut description = rotorcraft::read_system(self.system_path, &fmu_catalog::context())?;
        changes.apply(&mut description)?;
        if let Some(condition) = self.condition {
            let trim = solve_trim(&description, self.system_path, condition, JacobianMethod::Broyden, self.verbose)?;
            anyhow::ensure!(trim.converged, "the trim did not converge to {:.1e}: not linearised", trim.tolerance);
            let mut json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(self.system_path)?)?;
            trim.apply_json(&mut json, &description.base_dir, &description.base_dir)?;
            for assignment in &changes.set {
                super::outputs::apply_set_to_json(&mut json, assignment)?;
            }
            description = rotorcraft::system_from_str(
                &serde_json::to_string(&json)?,
                description.base_dir.clone(),
                &description.context,
            )?;
        }
        Ok(description)
    }

    /// How the modes of `model`, a model of this request with the rotors `rotors`, are named:
    /// cyclic modes labelled in multiblade coordinates only.
    fn naming<'r>(&self, rotors: &'r Rotors, model: &'r LinearModel) -> RotorNaming<'r> {
        RotorNaming { rotors: if self.multiblade { &rotors.frames } else { &[] }, model: Some(model) }
    }

    /// The Model Exchange master of `description` (from [`LinearRequest::description`]) at the
    /// operating point: initialised, and with `--settle` set to the states the Co-Simulation
    /// settled to.
    fn operating_point(&self, description: &SystemDescription) -> Result<Master> {
        let mut fmus = FmuCache::default().with_extraction_cache(super::options::extraction_cache());
        let system = description.resolve(|path| fmus.description(path))?;
        let logger = Arc::new(FacadeLogger::new(self.verbose));
        let settled = match self.settle {
            Some(_) => {
                let mut trajectory = self.settled_trajectory(system.clone(), 0.0, &mut fmus, logger.clone())?;
                Some((trajectory.time(), trajectory.read_states()?))
            }
            None => None,
        };
        let mut master = Master::new_model_exchange(system, &mut fmus, logger)?;
        master.initialize()?;
        if let Some((t, x)) = settled {
            master.set_states(t, &x)?;
        }
        Ok(master)
    }

    /// The linear model of `description` (from [`LinearRequest::description`]), the names of
    /// the inert states removed and the rotors.
    fn model(&self, description: &SystemDescription) -> Result<Linearised> {
        let mut master = self.operating_point(description)?;
        let full = master.linearize(self.inputs)?;
        let rotors = Rotors::read(&mut master)?;
        let radii = rotorcraft::station_radii(&mut master)?;
        let inert = if self.keep_inert { Vec::new() } else { full.inert_states() };
        let mut model = full.without_states(&inert);
        if self.multiblade {
            model = model.transformed(&rotors)?;
            warn_if_periodic(&model, &second_azimuth(&mut master, &full, &rotors, &inert, self.inputs)?);
        }
        let inert = inert.iter().map(|&i| full.state_names[i].clone()).collect();
        Ok(Linearised { model, inert, rotors, radii })
    }

    /// A Co-Simulation of `system` initialised and advanced by `--settle` seconds (none without
    /// it) in steps of its experiment's communication step, the last one shortened to land on
    /// the settling time; its stop time moved to leave `then` seconds more to simulate.
    fn settled_trajectory(
        &self,
        mut system: System,
        then: f64,
        fmus: &mut FmuCache,
        logger: Arc<FacadeLogger>,
    ) -> Result<Master> {
        let settle = self.settle.unwrap_or(0.0);
        anyhow::ensure!(settle >= 0.0 && settle.is_finite(), "--settle {settle}: expected a time >= 0 s");
        let step = system.experiment.step;
        let end = system.experiment.start + settle;
        system.experiment.stop = system.experiment.stop.max(end + then + step);
        let mut trajectory = Master::new(system, fmus, logger)?;
        trajectory.initialize()?;
        while trajectory.time() < end - 1e-9 * step {
            trajectory.step(step.min(end - trajectory.time()))?;
        }
        Ok(trajectory)
    }
}

/// The multiblade model of the system of `master` at the operating point of `full` (its
/// rotating-frame linear model, with the rotors `rotors`) with every rotor turned by a quarter
/// of its blade spacing: the same states at a later time, so a driven shaft has turned on (a
/// free shaft's angle is a state and stays). `None` without rotors of ours.
fn second_azimuth(
    master: &mut Master,
    full: &LinearModel,
    rotors: &Rotors,
    inert: &[usize],
    inputs: &[String],
) -> Result<Option<(f64, LinearModel)>> {
    let Some(rotor) = rotors.frames.iter().find(|r| r.omega != 0.0 && !r.blade_azimuths.is_empty()) else {
        return Ok(None);
    };
    let turn = std::f64::consts::FRAC_PI_2 / rotor.blade_azimuths.len() as f64;
    master.set_states(full.time + turn / rotor.omega.abs(), &full.x0)?;
    let turned = master.linearize(inputs)?;
    let turned_rotors = Rotors::read(master)?;
    Ok(Some((turn, turned.without_states(inert).transformed(&turned_rotors)?)))
}

/// Prints a warning when the multiblade `model` differs from `turned`, the same system at the
/// second azimuth of [`second_azimuth`], beyond round-off: its coefficients are periodic, and
/// its eigenvalues describe the start azimuth only (Floquet analysis is needed).
fn warn_if_periodic(model: &LinearModel, turned: &Option<(f64, LinearModel)>) {
    let Some((turn, turned)) = turned else { return };
    let Some(dependence) = model.time_dependence(turned) else { return };
    if dependence.is_periodic() {
        eprintln!(
            "warning: the multiblade system depends on the rotor azimuth (dissimilar blades, forward flight or a \
             state that is not axisymmetric): {:.1} deg further on, A changes by up to {:.4e} ({:.2e} of its largest \
             entry) in d({})'/d({}); its eigenvalues describe this azimuth only: use --floquet SAMPLES for the \
             periodic system",
            turn.to_degrees(),
            dependence.difference,
            dependence.relative,
            dependence.row,
            dependence.column
        );
    }
}

/// Frequencies of the Bode diagrams, Hz, logarithmically spaced: `range` as `LO:HI` (400 points)
/// or `LO:HI:N` (`--bode-range`), by default 0.01 to 30 Hz.
fn bode_frequencies(range: Option<&str>) -> Result<Vec<f64>> {
    let (lo, hi, n) = match range {
        None => (0.01_f64, 30.0_f64, 400),
        Some(text) => {
            let bad = || format!("--bode-range {text}: expected LO:HI or LO:HI:N, Hz, with 0 < LO < HI and N >= 2");
            let parts: Vec<&str> = text.split(':').map(str::trim).collect();
            anyhow::ensure!(parts.len() == 2 || parts.len() == 3, bad());
            let lo: f64 = parts[0].parse().with_context(bad)?;
            let hi: f64 = parts[1].parse().with_context(bad)?;
            let n: usize = parts.get(2).map_or(Ok(400), |n| n.parse()).with_context(bad)?;
            anyhow::ensure!(lo > 0.0 && hi > lo && hi.is_finite() && n >= 2, bad());
            (lo, hi, n)
        }
    };
    Ok((0..n).map(|k| lo * (hi / lo).powf(k as f64 / (n - 1) as f64)).collect())
}

/// The frequencies (Hz) and gains of the local maxima of the gain `|G|` over `frequencies`.
fn gain_peaks(frequencies: &[f64], response: &[Complex<f64>]) -> Vec<(f64, f64)> {
    let gains: Vec<f64> = response.iter().map(|g| g.norm()).collect();
    (1..gains.len().saturating_sub(1))
        .filter(|&k| gains[k] > gains[k - 1] && gains[k] > gains[k + 1])
        .map(|k| (frequencies[k], gains[k]))
        .collect()
}

/// `--bode IN:OUT` pairs at `frequencies` (Hz, [`bode_frequencies`]): OUT.bode.csv (frequency,
/// then magnitude, dB and phase of each pair) and OUT.bode.svg; prints the peaks of each gain.
fn write_bode(model: &LinearModel, pairs: &[String], frequencies: &[f64], out: &Path, title: &str) -> Result<()> {
    let omegas: Vec<f64> = frequencies.iter().map(|f| std::f64::consts::TAU * f).collect();
    let mut curves = Vec::with_capacity(pairs.len());
    for pair in pairs {
        let (input, output) = pair.split_once(':').with_context(|| format!("--bode {pair}: expected INPUT:OUTPUT"))?;
        let (i, o) = model.input_output(input, output)?;
        let response = model.frequency_response(i, o, &omegas);
        let (f, g): (Vec<f64>, Vec<_>) =
            frequencies.iter().zip(response).filter_map(|(&f, g)| g.map(|g| (f, g))).unzip();
        let peaks: Vec<String> = gain_peaks(&f, &g).iter().map(|(f, g)| format!("{f:.4} Hz (|G| {g:.6e})")).collect();
        say!(
            "{input} -> {output}: gain peaks at {}",
            if peaks.is_empty() { "none within the range".to_string() } else { peaks.join(", ") }
        );
        curves.push((format!("{input} -> {output}"), f, g));
    }
    let mut csv = String::from("\"frequency [Hz]\"");
    for (label, ..) in &curves {
        csv += &format!(",\"{label} |G|\",\"{label} |G| [dB]\",\"{label} phase [deg]\"");
    }
    csv.push('\n');
    for f in frequencies {
        csv += &f.to_string();
        for (_, fs, gs) in &curves {
            match fs.iter().position(|x| x == f) {
                Some(p) => {
                    let g = gs[p];
                    csv += &format!(",{},{},{}", g.norm(), 20.0 * g.norm().log10(), g.arg().to_degrees());
                }
                None => csv += ",,,",
            }
        }
        csv.push('\n');
    }
    let csv_path = out.with_extension("bode.csv");
    std::fs::write(&csv_path, csv).with_context(|| format!("cannot write {}", csv_path.display()))?;
    let svg = out.with_extension("bode.svg");
    plot::plot_bode(&curves, &svg, &format!("{title}: frequency response"))?;
    say!("wrote {} and {}", csv_path.display(), svg.display());
    Ok(())
}

/// Floquet exponents over one revolution of the slowest of `rotors` (at the operating point),
/// from `samples` linear models along the co-simulated trajectory: the system is co-simulated
/// from its start (after `--settle`), its states read at the midpoints of `samples` equal
/// intervals of the revolution, and the Model Exchange instances linearised at each; in
/// multiblade coordinates, named as in multiblade coordinates.
fn floquet_exponents(
    request: &LinearRequest,
    description: &SystemDescription,
    rotors: &Rotors,
    samples: usize,
) -> Result<Vec<Mode>> {
    let omega =
        rotors.slowest_speed().context("--floquet: the system has no rotor of ours (blade[k].azimuth, shaft.rate)")?;
    anyhow::ensure!(samples >= 4, "--floquet {samples}: at least 4 samples per revolution");
    let period = std::f64::consts::TAU / omega;
    let mut fmus = FmuCache::default().with_extraction_cache(super::options::extraction_cache());
    let system = description.resolve(|path| fmus.description(path))?;
    let logger = Arc::new(FacadeLogger::new(request.verbose));
    let mut trajectory = request.settled_trajectory(system.clone(), period, &mut fmus, logger.clone())?;
    let h = period / (2 * samples) as f64;
    let mut points = Vec::with_capacity(samples);
    for k in 0..2 * samples {
        trajectory.step(h)?;
        if k % 2 == 0 {
            points.push((trajectory.time(), trajectory.read_states()?));
        }
    }
    let mut linear = Master::new_model_exchange(system, &mut fmus, logger)?;
    linear.initialize()?;
    let mut models = Vec::with_capacity(samples);
    let mut inert: Option<Vec<usize>> = None;
    for (t, x) in &points {
        linear.set_states(*t, x)?;
        // The states inert at the first sample are removed from every sample: their columns
        // are not computed after the first (most of RotorElastic's declared states).
        let full = linear.linearize_skipping(request.inputs, inert.as_deref().unwrap_or_default())?;
        let rotors = Rotors::read(&mut linear)?;
        let inert = inert.get_or_insert_with(|| if request.keep_inert { Vec::new() } else { full.inert_states() });
        models.push((full.without_states(inert), rotors));
    }
    let first = models.first().map(|(_, rotors)| rotors.frames.as_slice()).unwrap_or_default();
    Ok(floquet(&models, &RotorNaming { rotors: first, model: None }, period)?)
}

/// `orchestrator linearize`: writes OUT (JSON) and OUT.mat, prints the eigenvalue table, and
/// the Bode diagrams of the `bode` pairs (at the frequencies of `bode_range`), the Floquet
/// exponents from `floquet` samples per revolution and, with elastic blades, the shapes of the
/// lowest `shapes` oscillatory modes (`mode_shapes` in OUT).
pub fn linearize(
    request: &LinearRequest,
    out: &Path,
    bode: &[String],
    bode_range: Option<&str>,
    floquet: Option<usize>,
    shapes: usize,
) -> Result<()> {
    super::outputs::require_json_system(request.system_path, "linearize")?;
    let mat = out.with_extension("mat");
    for path in [out, &mat, &out.with_extension("bode.csv"), &out.with_extension("bode.svg")] {
        super::outputs::refuse_overwrite(path, request.system_path)?;
    }
    let frequencies = bode_frequencies(bode_range)?;
    let description = request.description(&[])?;
    let Linearised { model, inert, rotors, radii } = request.model(&description)?;
    let modes = model.modes(&request.naming(&rotors, &model))?;
    let mut json = model.to_json(&modes, &inert);
    let mode_shapes = rotorcraft::mode_shapes(&model, &modes, &radii, &rotors.frames, shapes);
    if !mode_shapes.is_empty() {
        let point = super::shapes::ShapePoint { values: Vec::new(), modes: modes.clone(), shapes: mode_shapes };
        json["mode_shapes"] = super::shapes::shapes_json(&[point]);
    }
    if let Some(samples) = floquet {
        let exponents = floquet_exponents(request, &description, &rotors, samples)?;
        say!("Floquet exponents over one revolution ({samples} linearisations along the trajectory):");
        say!("{}", LinearModel::modes_table(&exponents).trim_end());
        json["floquet"] = serde_json::json!(
            exponents
                .iter()
                .map(|m| serde_json::json!({
                    "re": m.eigenvalue.re,
                    "im": m.eigenvalue.im,
                    "frequency_hz": m.frequency_hz,
                    "damping": m.damping,
                    "mode": m.name,
                }))
                .collect::<Vec<_>>()
        );
    }
    std::fs::write(out, serde_json::to_string_pretty(&json)? + "\n")
        .with_context(|| format!("cannot write {}", out.display()))?;
    let mut file = std::io::BufWriter::new(
        std::fs::File::create(&mat).with_context(|| format!("cannot write {}", mat.display()))?,
    );
    model.write_mat(&modes, &mut file).and_then(|()| std::io::Write::flush(&mut file))?;
    say!("{}", LinearModel::modes_table(&modes).trim_end());
    let worst = model.dx0.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    say!(
        "{} states ({} inert ones removed), {} inputs, {} outputs at t = {} s; largest |x'| at the point: {worst:.3e}",
        model.state_names.len(),
        inert.len(),
        model.input_names.len(),
        model.output_names.len(),
        model.time
    );
    say!("wrote {} and {}", out.display(), mat.display());
    if !bode.is_empty() {
        let title = request.system_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        write_bode(&model, bode, &frequencies, out, &title)?;
    }
    Ok(())
}

/// The modes of the system with the assignments `set`: the eigenvalues of its linear model,
/// with the shapes of the lowest `shapes` oscillatory ones over its blade stations (none
/// without), or with `floquet` samples its Floquet exponents (fixed frame; no shapes).
fn point_modes(
    request: &LinearRequest,
    set: &[String],
    floquet: Option<usize>,
    shapes: usize,
) -> Result<(Vec<Mode>, Vec<ModeShape>)> {
    let description = request.description(set)?;
    match floquet {
        Some(samples) => {
            // The Floquet exponents need the rotor speeds at the operating point only.
            let rotors = Rotors::read(&mut request.operating_point(&description)?)?;
            Ok((floquet_exponents(request, &description, &rotors, samples)?, Vec::new()))
        }
        None => {
            let point = request.model(&description)?;
            let modes = point.model.modes(&request.naming(&point.rotors, &point.model))?;
            let shapes = rotorcraft::mode_shapes(&point.model, &modes, &point.radii, &point.rotors.frames, shapes);
            Ok((modes, shapes))
        }
    }
}

/// The largest real part of the oscillatory and real modes (not the neutral ones) of a point,
/// 1/s, with that mode.
fn growth_rate(modes: &[Mode]) -> Option<&Mode> {
    modes.iter().filter(|m| m.damping.is_some()).max_by(|a, b| a.eigenvalue.re.total_cmp(&b.eigenvalue.re))
}

/// Where the largest real part over a sweep changes sign (`results`: the first swept parameter's
/// value and the modes of each point, in sweep order): for each change, the parameter value
/// interpolated linearly between the two points, and the mode on the unstable side.
fn stability_boundaries(results: &[(f64, Vec<Mode>)]) -> Vec<(f64, &Mode)> {
    results
        .windows(2)
        .filter_map(|pair| {
            let (p0, m0) = (pair[0].0, growth_rate(&pair[0].1)?);
            let (p1, m1) = (pair[1].0, growth_rate(&pair[1].1)?);
            let (g0, g1) = (m0.eigenvalue.re, m1.eigenvalue.re);
            if (g0 < 0.0) == (g1 < 0.0) {
                return None;
            }
            Some((p0 + (p1 - p0) * g0 / (g0 - g1), if g1 >= 0.0 { m1 } else { m0 }))
        })
        .collect()
}

/// Prints the stability boundaries of a sweep of `parameter` and writes them to `path` (a JSON
/// array, empty when the largest real part keeps its sign).
fn write_stability_boundaries(results: &[(f64, Vec<Mode>)], parameter: &str, path: &Path) -> Result<()> {
    let boundaries = stability_boundaries(results);
    if boundaries.is_empty() {
        say!("stability boundary: none within the sweep of {parameter}");
    }
    let json: Vec<serde_json::Value> = boundaries
        .iter()
        .map(|(value, mode)| {
            say!(
                "stability boundary: {parameter} = {value:.6} (largest real part crosses zero, interpolated linearly); \
                 unstable mode {} at {:.4} Hz",
                mode.name,
                mode.frequency_hz
            );
            serde_json::json!({ "parameter": parameter, "value": value, "mode": mode.name, "frequency_hz": mode.frequency_hz })
        })
        .collect();
    std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
        .with_context(|| format!("cannot write {}", path.display()))
}

/// A parameter varied over a sweep: `INSTANCE.PARAM=V1,V2,...`.
#[derive(Debug, Clone)]
struct Swept {
    name: String,
    values: Vec<f64>,
}

fn parse_sweep(text: &str) -> Result<Swept> {
    let (name, list) =
        text.split_once('=').with_context(|| format!("--sweep {text}: expected INSTANCE.PARAM=V1,V2,..."))?;
    let values = list
        .split(',')
        .map(|v| v.trim().parse::<f64>().with_context(|| format!("--sweep {text}: '{v}' is not a number")))
        .collect::<Result<Vec<f64>>>()?;
    anyhow::ensure!(!values.is_empty(), "--sweep {text}: no values");
    Ok(Swept { name: name.trim().to_string(), values })
}

/// `orchestrator modes`: the modes at every sweep point into DIR/modes.csv, the eigenvalue map
/// (root locus) into DIR/eigenvalues.svg and, for a sweep, frequency and damping against the
/// first swept parameter into DIR/frequency-damping.svg, and where the largest real part changes
/// sign, the stability boundaries ([`stability_boundaries`]) into DIR/stability-boundaries.json.
pub fn modes(
    request: &LinearRequest,
    sweeps: &[String],
    out_dir: &Path,
    floquet: Option<usize>,
    shapes: usize,
) -> Result<()> {
    super::outputs::require_json_system(request.system_path, "modes")?;
    let swept: Vec<Swept> = sweeps.iter().map(|s| parse_sweep(s)).collect::<Result<_>>()?;
    let points = swept.first().map_or(1, |s| s.values.len());
    if let Some(s) = swept.iter().find(|s| s.values.len() != points) {
        anyhow::bail!(
            "--sweep {}: {} values, but the first sweep has {points} (swept together)",
            s.name,
            s.values.len()
        );
    }
    std::fs::create_dir_all(out_dir).with_context(|| format!("cannot create {}", out_dir.display()))?;
    let mut csv = String::from("point");
    for s in &swept {
        csv += &format!(",\"{}\"", s.name);
    }
    csv += ",\"re [1/s]\",\"im [rad/s]\",\"frequency [Hz]\",\"damping\",\"mode\"\n";
    let mut results: Vec<(f64, Vec<Mode>)> = Vec::with_capacity(points);
    let mut shape_points = Vec::with_capacity(points);
    for p in 0..points {
        let set: Vec<String> = swept.iter().map(|s| format!("{}={}", s.name, s.values[p])).collect();
        let (modes, point_shapes) =
            point_modes(request, &set, floquet, shapes).with_context(|| format!("at {}", set.join(", ")))?;
        let least_damped = modes
            .iter()
            .filter(|m| m.damping.is_some() && m.eigenvalue.im >= 0.0)
            .max_by(|a, b| a.eigenvalue.re.total_cmp(&b.eigenvalue.re));
        if let Some(m) = least_damped {
            say!(
                "{}: least damped {}{} at {:.4} Hz, damping {:.4}",
                if set.is_empty() { "start".to_string() } else { set.join(", ") },
                if floquet.is_some() { "(Floquet) " } else { "" },
                m.name,
                m.frequency_hz,
                m.damping.unwrap_or(f64::NAN)
            );
        }
        for m in &modes {
            csv += &p.to_string();
            for s in &swept {
                csv += &format!(",{}", s.values[p]);
            }
            let damping = m.damping.map_or_else(String::new, |z| z.to_string());
            csv += &format!(",{},{},{},{damping},\"{}\"\n", m.eigenvalue.re, m.eigenvalue.im, m.frequency_hz, m.name);
        }
        let values: Vec<(String, f64)> = swept.iter().map(|s| (s.name.clone(), s.values[p])).collect();
        shape_points.push(super::shapes::ShapePoint { values, modes: modes.clone(), shapes: point_shapes });
        results.push((swept.first().map_or(0.0, |s| s.values[p]), modes));
    }
    if shape_points.iter().any(|p| !p.shapes.is_empty()) {
        super::shapes::write_mode_shapes(&shape_points, out_dir)?;
    }
    let csv_path = out_dir.join("modes.csv");
    std::fs::write(&csv_path, csv).with_context(|| format!("cannot write {}", csv_path.display()))?;
    let title = request.system_path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let map = out_dir.join("eigenvalues.svg");
    plot::plot_eigenvalues(&results, &map, &title)?;
    say!("wrote {} and {}", csv_path.display(), map.display());
    if let Some(first) = swept.first() {
        let chart = out_dir.join("frequency-damping.svg");
        plot::plot_modes_sweep(&results, &first.name, &chart, &title)?;
        say!("wrote {}", chart.display());
        write_stability_boundaries(&results, &first.name, &out_dir.join("stability-boundaries.json"))?;
    }
    Ok(())
}
