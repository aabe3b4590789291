//! Real-time runs (docs/realtime.md): `--realtime` paces a run to the wall clock and reports its
//! overruns; `--pilot-udp` drives inputs from loopback packets; `--fg-fdm` sends FlightGear's
//! native FDM packets, decoded here from the field offsets of FlightGear's net_fdm.hxx
//! (version 24), independently of the encoder.

use std::net::UdpSocket;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{csv_column, fuselage_system, orchestrator, succeeds};

/// The summary JSON at `path`.
fn summary(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_realtime_run_takes_at_least_its_scaled_time_and_reports_overruns() {
    let dir = tempfile::tempdir().unwrap();
    let system = fuselage_system(dir.path(), "system.json", r#""outputs": ["fuselage.z"]"#);
    let json = dir.path().join("s.json");
    for (scale, least) in [(1.0, 1.0), (2.0, 0.5)] {
        let started = Instant::now();
        let mut command = orchestrator();
        command.arg("run").arg(&system).arg("--out").arg(dir.path().join("r.csv")).arg("--summary-json").arg(&json);
        let out = succeeds(command.args(["--realtime", "--realtime-scale", &scale.to_string()]));
        assert!(started.elapsed().as_secs_f64() >= least, "{:?} for scale {scale}", started.elapsed());
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains(&format!("real time (scale {scale}):")) && stdout.contains("overran"), "{stdout}");
        let json = summary(&json);
        // The run's own wall time (initialization included) is at least 1 s of simulated time.
        assert!(json["wall_seconds"].as_f64().unwrap() >= least, "{json}");
        let realtime = &json["realtime"];
        assert_eq!(realtime["scale"], scale);
        assert_eq!(realtime["steps"], 10);
        let overruns = realtime["overruns"].as_u64().unwrap();
        assert!(overruns <= 10);
        assert!(realtime["worst_lateness_s"].as_f64().unwrap() >= 0.0);
    }
}

/// Big-endian fields of a FlightGear FDM packet at the byte offsets of net_fdm.hxx.
struct FdmPacket(Vec<u8>);

impl FdmPacket {
    fn u32(&self, at: usize) -> u32 {
        u32::from_be_bytes(self.0[at..at + 4].try_into().unwrap())
    }
    fn f64(&self, at: usize) -> f64 {
        f64::from_be_bytes(self.0[at..at + 8].try_into().unwrap())
    }
    fn f32(&self, at: usize) -> f64 {
        f64::from(f32::from_be_bytes(self.0[at..at + 4].try_into().unwrap()))
    }
}

/// Earth-centred Cartesian coordinates (m) of geodetic latitude, longitude (rad) and height (m)
/// on the WGS-84 ellipsoid (a = 6378137 m, 1/f = 298.257223563).
fn ecef(latitude: f64, longitude: f64, height: f64) -> [f64; 3] {
    let f = 1.0 / 298.257223563;
    let e2 = f * (2.0 - f);
    let n = 6378137.0 / (1.0 - e2 * latitude.sin().powi(2)).sqrt();
    [
        (n + height) * latitude.cos() * longitude.cos(),
        (n + height) * latitude.cos() * longitude.sin(),
        (n * (1.0 - e2) + height) * latitude.sin(),
    ]
}

/// The NED offset (m) of geodetic point `p` from geodetic point `o`, both (lat, lon rad, h m).
fn ned_offset(o: [f64; 3], p: [f64; 3]) -> [f64; 3] {
    let (a, b) = (ecef(o[0], o[1], o[2]), ecef(p[0], p[1], p[2]));
    let d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let (sl, cl, so, co) = (o[0].sin(), o[0].cos(), o[1].sin(), o[1].cos());
    [-sl * co * d[0] - sl * so * d[1] + cl * d[2], -so * d[0] + co * d[1], -cl * co * d[0] - cl * so * d[1] - sl * d[2]]
}

/// A pilot packet (docs/realtime.md): "RCPI", version 1, sequence, count, f64 values.
fn pilot_packet(sequence: u32, values: &[f64]) -> Vec<u8> {
    let mut p = b"RCPI".to_vec();
    for word in [1, sequence, values.len() as u32] {
        p.extend_from_slice(&word.to_be_bytes());
    }
    values.iter().for_each(|v| p.extend_from_slice(&v.to_be_bytes()));
    p
}

#[test]
fn pilot_packets_drive_an_input_and_flightgear_packets_carry_the_state() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = r#""inputs": [{ "to": "fuselage.ext.F.x", "signal": { "constant": 0 } }],
                 "outputs": ["fuselage.ext.F.x", "fuselage.u"]"#;
    let system = fuselage_system(dir.path(), "system.json", inputs);
    let (csv, json) = (dir.path().join("r.csv"), dir.path().join("s.json"));
    // FlightGear's side: a listener; the pilot's side: a free port for the orchestrator.
    let flightgear = UdpSocket::bind("127.0.0.1:0").unwrap();
    flightgear.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let pilot_port = UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    // The pilot sends a 2100 N push every 5 ms, each followed by a stale repeat and a bad packet.
    let done = Arc::new(AtomicBool::new(false));
    let sender = {
        let done = done.clone();
        std::thread::spawn(move || {
            let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
            for sequence in 1.. {
                let packet = pilot_packet(sequence, &[2100.0]);
                for p in [&packet, &packet, &packet[..20]] {
                    let _ = socket.send_to(p, pilot_port);
                }
                if done.load(Ordering::Relaxed) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let mut command = orchestrator();
    command.arg("run").arg(&system).arg("--out").arg(&csv).arg("--summary-json").arg(&json).arg("--realtime");
    command.args(["--pilot-udp", &pilot_port.to_string(), "--pilot-inputs", "fuselage.ext.F.x"]);
    command.args(["--fg-fdm", &flightgear.local_addr().unwrap().to_string(), "--fg-origin", "47.0,8.5,400"]);
    let out = succeeds(&mut command);
    done.store(true, Ordering::Relaxed);
    sender.join().unwrap();

    // The force follows the packets once they arrive: u(1 s) = sum of F h / m over the steps.
    let (force, u) = (csv_column(&csv, "fuselage.ext.F.x"), csv_column(&csv, "fuselage.u"));
    assert_eq!(force[0], 0.0);
    assert_eq!(*force.last().unwrap(), 2100.0, "{force:?}");
    let expected_u: f64 = force[1..].iter().map(|f| f * 0.1 / 2100.0).sum();
    assert!((u.last().unwrap() - expected_u).abs() < 1e-6, "{u:?} vs {expected_u}");
    let json = summary(&json);
    let pilot = &json["pilot_udp"];
    assert!(pilot["accepted"].as_u64().unwrap() >= 1, "{json}");
    assert!(pilot["stale"].as_u64().unwrap() >= 1 && pilot["malformed"].as_u64().unwrap() >= 1, "{json}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("pilot packets:"));
    // The recorded results are those asked for: the state FlightGear needs is not written.
    assert_eq!(
        std::fs::read_to_string(&csv).unwrap().lines().next().unwrap(),
        r#""time","fuselage.ext.F.x","fuselage.u""#
    );

    // One FlightGear packet per recorded row (0.1 s apart, under the 60 Hz limit).
    assert_eq!(json["fg_fdm"]["sent"], 11);
    let mut buffer = [0u8; 1024];
    let packets: Vec<FdmPacket> = (0..11)
        .map(|_| {
            let n = flightgear.recv(&mut buffer).unwrap();
            FdmPacket(buffer[..n].to_vec())
        })
        .collect();
    let origin = [47f64.to_radians(), 8.5f64.to_radians(), 400.0];
    for (k, packet) in packets.iter().enumerate() {
        assert_eq!(packet.0.len(), 408);
        assert_eq!(packet.u32(0), 24);
        let position = [packet.f64(16), packet.f64(8), packet.f64(24)]; // latitude, longitude, altitude
        // The Fuselage starts at rest at NED z = 0 (the origin) and only moves forward (north).
        let x: f64 = u[..k].iter().zip(&u[1..=k]).map(|(a, b)| 0.05 * (a + b)).sum::<f64>();
        let ned = ned_offset(origin, position);
        assert!((ned[0] - x).abs() < 0.01 && ned[1].abs() < 1e-6, "packet {k}: {ned:?}, x = {x}");
        // Free fall (g only): z = g t^2 / 2 down.
        let t = 0.1 * k as f64;
        assert!((ned[2] - 0.5 * 9.80665 * t * t).abs() < 1e-3, "packet {k}: {ned:?} at t = {t}");
        assert!((packet.f64(24) - (400.0 - 0.5 * 9.80665 * t * t)).abs() < 1e-9);
        // phi, theta, psi (f32): level, heading north.
        assert!([36, 40, 44].iter().all(|&at| packet.f32(at).abs() < 1e-12), "packet {k}");
        // v_north and v_wind_body_north, ft/s; climb rate = -v_down, ft/s.
        let fps = u[k] / 0.3048;
        assert!((packet.f32(76) - fps).abs() <= 1e-6 * fps.abs().max(1.0), "packet {k}");
        assert!((packet.f32(88) - fps).abs() <= 1e-6 * fps.abs().max(1.0), "packet {k}");
        let sink_fps = 9.80665 * t / 0.3048;
        assert!((packet.f32(84) - sink_fps).abs() < 1e-4 && (packet.f32(72) + sink_fps).abs() < 1e-4, "packet {k}");
        // agl left to FlightGear's scenery (< -9000), no engines, tanks or wheels.
        assert!(packet.f32(32) < -9000.0);
        assert_eq!([packet.u32(120), packet.u32(284), packet.u32(304)], [0, 0, 0]);
    }
}

#[test]
fn bad_realtime_options_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let system = fuselage_system(dir.path(), "system.json", r#""outputs": ["fuselage.z"]"#);
    let cases: [(&[&str], &str); 4] = [
        (&["--pilot-udp", "127.0.0.1:0"], "--pilot-udp: name the inputs with --pilot-inputs"),
        (&["--pilot-udp", "127.0.0.1:0", "--pilot-inputs", "fuselage.ext.F.x"], "'fuselage.ext.F.x' is not the `to`"),
        (&["--realtime", "--realtime-scale", "-1"], "--realtime-scale: -1 is not a positive number"),
        (&["--fg-fdm", "127.0.0.1:9", "--fg-origin", "91,0,0"], "--fg-origin: 91,0,0 is not a latitude"),
    ];
    for (args, message) in cases {
        let out = orchestrator().arg("run").arg(&system).arg("--out").arg(dir.path().join("r.csv")).args(args).output();
        let out = out.unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}
