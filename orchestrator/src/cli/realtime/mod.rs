//! Real-time piloted runs of `orchestrator run` (docs/realtime.md): pacing to the wall clock
//! (`--realtime`), pilot inputs over UDP (`--pilot-udp`) and the airframe's state out to
//! FlightGear (`--fg-fdm`). Pacing and pilot inputs run in the master's step hook
//! ([`cosim::master::StepHook`]); the FlightGear packets are sent from the recorded rows.

pub mod fg_fdm;
pub mod pacing;
pub mod pilot_udp;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::{Result, bail};
use clap::Args;
use cosim::master::StepHook;
use cosim::system::{Signal, System, SystemDescription};
use rotorcraft::TrimSpec;

use fg_fdm::{AIRFRAME_OUTPUTS, AirframeState, FdmSender, Origin};
use pacing::{Overruns, Pacer};
use pilot_udp::{PacketCounts, PilotReceiver};

/// The real-time options of `orchestrator run`.
#[derive(Args, Debug, Clone, Default)]
pub struct RealtimeArgs {
    /// Pace the run to the wall clock: each communication step ends no earlier than its
    /// simulated time (scaled by --realtime-scale) after the start; steps that end late are
    /// counted as overruns and reported.
    #[arg(long)]
    pub realtime: bool,
    /// With --realtime: simulated seconds per wall-clock second (2 runs twice as fast as real
    /// time, 0.5 half as fast).
    #[arg(long, value_name = "X", default_value_t = 1.0, requires = "realtime", allow_negative_numbers = true)]
    pub realtime_scale: f64,
    /// Take pilot inputs from UDP packets arriving at this address (docs/realtime.md): the
    /// newest valid packet's values replace the signals of the --pilot-inputs at every step.
    #[arg(long, value_name = "ADDRESS:PORT")]
    pub pilot_udp: Option<SocketAddr>,
    /// The inputs a pilot packet's values go to, in order, comma-separated; each must be the
    /// `to` of an entry of the system's `inputs`. Default: the `trim` section's `controls`.
    #[arg(long, value_name = "INPUTS", value_delimiter = ',', requires = "pilot_udp")]
    pub pilot_inputs: Vec<String>,
    /// Send the airframe's state to FlightGear at this address, in its native FDM format
    /// (`fgfs --fdm=null --native-fdm=socket,in,60,,PORT,udp`).
    #[arg(long, value_name = "ADDRESS:PORT")]
    pub fg_fdm: Option<SocketAddr>,
    /// The Fuselage instance whose state goes to FlightGear. Default: the `trim` section's
    /// `airframe`, else the instance called `fuselage`.
    #[arg(long, value_name = "INSTANCE", requires = "fg_fdm")]
    pub fg_airframe: Option<String>,
    /// Where the airframe's NED origin lies: geodetic latitude and longitude, deg, and height
    /// above the WGS-84 ellipsoid, m.
    #[arg(long, value_name = "LAT,LON,ALT", value_delimiter = ',',
          allow_negative_numbers = true, default_values_t = [0.0, 0.0, 0.0], requires = "fg_fdm")]
    pub fg_origin: Vec<f64>,
    /// FlightGear packets per second of simulated time (at most one per recorded row).
    #[arg(long, value_name = "HZ", default_value_t = 60.0, requires = "fg_fdm", allow_negative_numbers = true)]
    pub fg_rate: f64,
}

impl RealtimeArgs {
    /// The FlightGear airframe's output names, `airframe.x` ... in [`AIRFRAME_OUTPUTS`] order,
    /// when --fg-fdm is given: the run records them.
    pub fn fdm_outputs(&self, description: &SystemDescription) -> Result<Option<Vec<String>>> {
        if self.fg_fdm.is_none() {
            return Ok(None);
        }
        let airframe = match &self.fg_airframe {
            Some(name) => name.clone(),
            None => match TrimSpec::of(description).ok().flatten() {
                Some(spec) => spec.airframe,
                None if description.fmus.iter().any(|(name, _)| name == "fuselage") => "fuselage".to_string(),
                None => {
                    bail!("--fg-fdm: name the Fuselage instance with --fg-airframe (no trim section, no 'fuselage')")
                }
            },
        };
        if !description.fmus.iter().any(|(name, _)| *name == airframe) {
            bail!("--fg-airframe: no instance '{airframe}' in the system");
        }
        Ok(Some(AIRFRAME_OUTPUTS.iter().map(|o| format!("{airframe}.{o}")).collect()))
    }

    /// With --pilot-udp: the external-input indices of `system` the pilot packet's values go to,
    /// in order.
    pub fn pilot_slots(&self, description: &SystemDescription, system: &System) -> Result<Option<Vec<usize>>> {
        if self.pilot_udp.is_none() {
            return Ok(None);
        }
        let names = if self.pilot_inputs.is_empty() {
            match TrimSpec::of(description).ok().flatten() {
                Some(spec) => spec.controls,
                None => bail!("--pilot-udp: name the inputs with --pilot-inputs (the system has no trim section)"),
            }
        } else {
            self.pilot_inputs.clone()
        };
        let slot = |name: &String| {
            system.inputs.iter().position(|e| system.name(e.to) == *name).ok_or_else(|| {
                anyhow::anyhow!(
                    "--pilot-inputs: '{name}' is not the `to` of an entry of the system's inputs \
                     (add {{\"to\": \"{name}\", \"signal\": {{\"constant\": 0}}}})"
                )
            })
        };
        names.iter().map(slot).collect::<Result<_>>().map(Some)
    }

    /// Checks the numbers: a positive finite scale and rate.
    pub fn check(&self) -> Result<()> {
        if !(self.realtime_scale.is_finite() && self.realtime_scale > 0.0) {
            bail!("--realtime-scale: {} is not a positive number", self.realtime_scale);
        }
        if !(self.fg_rate.is_finite() && self.fg_rate > 0.0) {
            bail!("--fg-rate: {} is not a positive number", self.fg_rate);
        }
        let [lat, lon, alt] = self.fg_origin[..] else { bail!("--fg-origin: give LAT,LON,ALT") };
        if !(lat.abs() <= 90.0 && lon.abs() <= 180.0 && alt.is_finite()) {
            bail!("--fg-origin: {lat},{lon},{alt} is not a latitude, longitude (deg) and altitude (m)");
        }
        Ok(())
    }
}

/// What the step hook keeps: the pacer and the pilot socket, shared with the run for the report.
#[derive(Default)]
struct Live {
    pacer: Option<Pacer>,
    pilot: Option<(PilotReceiver, Vec<usize>)>,
}

/// The master's step hook over the shared [`Live`].
struct LiveHook(Arc<Mutex<Live>>);

impl StepHook for LiveHook {
    fn before_step(&mut self, time: f64, _target: f64, signals: &mut [Signal]) -> bool {
        let mut live = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(pacer) = &mut live.pacer {
            pacer.start(time);
        }
        let Some((receiver, slots)) = &mut live.pilot else { return false };
        let Some(values) = receiver.poll() else { return false };
        for (&k, value) in slots.iter().zip(values) {
            signals[k] = Signal::Constant(value);
        }
        true
    }

    fn after_step(&mut self, time: f64) {
        let mut live = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(pacer) = &mut live.pacer {
            // SIGINT or SIGTERM ends the wait; the master then stops before the next step.
            pacer.pace(time, || cosim::import::process::interrupt_requested().is_some());
        }
    }
}

/// The real-time parts of one run: the step hook's state and the FlightGear sender.
pub struct RealtimeRun {
    live: Arc<Mutex<Live>>,
    scale: Option<f64>,
    fdm: Option<(FdmSender, Vec<usize>)>,
}

impl RealtimeRun {
    /// Opens the sockets `args` name for a run of `description` that records `recorded` (the
    /// FlightGear outputs among them), the pilot packets going to the external inputs
    /// `pilot_slots` ([`RealtimeArgs::pilot_slots`]); the hook for its master, if any.
    pub fn open(
        args: &RealtimeArgs,
        pilot_slots: Option<Vec<usize>>,
        description: &SystemDescription,
        recorded: &[String],
    ) -> Result<(Self, Option<Box<dyn StepHook>>)> {
        args.check()?;
        let mut live = Live { pacer: args.realtime.then(|| Pacer::new(args.realtime_scale)), pilot: None };
        if let (Some(address), Some(slots)) = (args.pilot_udp, pilot_slots) {
            live.pilot = Some((PilotReceiver::bind(address, slots.len())?, slots));
        }
        let fdm = match (args.fg_fdm, args.fdm_outputs(description)?) {
            (Some(to), Some(names)) => {
                let columns = names
                    .iter()
                    .map(|n| recorded.iter().position(|r| r == n).expect("the FlightGear outputs are recorded"))
                    .collect();
                let [lat, lon, alt] = args.fg_origin[..] else { unreachable!("checked") };
                let origin = Origin { latitude: lat.to_radians(), longitude: lon.to_radians(), altitude: alt };
                let scale = if args.realtime { args.realtime_scale } else { 1.0 };
                Some((FdmSender::new(to, origin, scale / args.fg_rate)?, columns))
            }
            _ => None,
        };
        let needs_hook = live.pacer.is_some() || live.pilot.is_some();
        let live = Arc::new(Mutex::new(live));
        let hook = needs_hook.then(|| Box::new(LiveHook(live.clone())) as Box<dyn StepHook>);
        Ok((Self { live, scale: args.realtime.then_some(args.realtime_scale), fdm }, hook))
    }

    /// A recorded row at time `t`: sends the airframe's state to FlightGear when due.
    pub fn on_row(&mut self, t: f64, row: &[f64]) {
        if let Some((sender, columns)) = &mut self.fdm {
            let values = std::array::from_fn(|k| row[columns[k]]);
            sender.offer(t, &AirframeState::from_values(values));
        }
    }

    /// The figures of the run for the summary JSON: `realtime`, `pilot_udp`, `fg_fdm`.
    pub fn report(&self) -> Report {
        let live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        Report {
            pacing: live.pacer.as_ref().map(|p| (self.scale.unwrap_or(1.0), p.overruns)),
            pilot: live.pilot.as_ref().map(|(r, _)| (r.counts, r.first_problem.clone())),
            fdm: self.fdm.as_ref().map(|(s, _)| (s.sent, s.failed)),
        }
    }
}

/// What a real-time run reports at its end.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// With --realtime: the scale and the overruns.
    pacing: Option<(f64, Overruns)>,
    /// With --pilot-udp: the packet counts and the first malformed packet's problem.
    pilot: Option<(PacketCounts, Option<String>)>,
    /// With --fg-fdm: packets sent and failed sends.
    fdm: Option<(usize, usize)>,
}

impl Report {
    /// Adds the figures to the summary JSON.
    pub fn add_to(&self, json: &mut serde_json::Value) {
        if let Some((scale, o)) = self.pacing {
            json["realtime"] = serde_json::json!({
                "scale": scale, "steps": o.steps, "overruns": o.count, "worst_lateness_s": o.worst_lateness,
            });
        }
        if let Some((c, problem)) = &self.pilot {
            json["pilot_udp"] = serde_json::json!({
                "accepted": c.accepted, "stale": c.stale, "malformed": c.malformed, "first_malformed": problem,
            });
        }
        if let Some((sent, failed)) = self.fdm {
            json["fg_fdm"] = serde_json::json!({ "sent": sent, "failed": failed });
        }
    }

    /// Lines for the terminal.
    pub fn to_text(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some((scale, o)) = self.pacing {
            lines.push(format!(
                "real time (scale {scale}): {} of {} steps overran, worst {:.3} ms late",
                o.count,
                o.steps,
                o.worst_lateness * 1e3
            ));
        }
        if let Some((c, problem)) = &self.pilot {
            let first = problem.as_ref().map(|p| format!(" (first: {p})")).unwrap_or_default();
            lines.push(format!(
                "pilot packets: {} accepted, {} stale, {} malformed{first}",
                c.accepted, c.stale, c.malformed
            ));
        }
        if let Some((sent, failed)) = self.fdm {
            lines.push(format!("FlightGear packets: {sent} sent, {failed} failed"));
        }
        lines
    }
}
