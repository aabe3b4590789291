//! The airframe's state in FlightGear's native FDM format: the `FGNetFDM` structure of
//! FlightGear's `src/Network/net_fdm.hxx`, version 24 (FlightGear repository, commit
//! 00efc0960f880b50ed25eba4bc15a0ff84abaf9f): 408 bytes, every field big-endian, in the header's
//! order. FlightGear reads it with `--fdm=null --native-fdm=socket,in,RATE,,PORT,udp`; what each
//! field becomes there is `FGNetFDM2Props` in `src/Network/native_fdm.cxx`. docs/realtime.md
//! lists the fields we fill.

use std::net::{SocketAddr, UdpSocket};

use anyhow::{Context, Result};

/// `FG_NET_FDM_VERSION` of net_fdm.hxx.
pub const VERSION: u32 = 24;
/// Size of the `FGNetFDM` structure, bytes.
pub const PACKET_BYTES: usize = 408;
/// `FG_MAX_ENGINES`, `FG_MAX_TANKS`, `FG_MAX_WHEELS` of net_fdm.hxx: the array lengths.
const MAX_ENGINES: usize = 4;
const MAX_TANKS: usize = 4;
const MAX_WHEELS: usize = 3;
/// `agl` values at or below -9000 m make FlightGear compute the height above its own scenery.
const AGL_FROM_SCENERY: f32 = -9999.0;

/// Metres per international foot (by definition).
const METRE_PER_FOOT: f64 = 0.3048;
/// Metres per second per knot (1852 m per hour, by definition).
const METRE_PER_SECOND_PER_KNOT: f64 = 1852.0 / 3600.0;
/// WGS-84 equatorial radius, m, and inverse flattening, as SimGear uses them
/// (`simgear/math/SGGeodesy.cxx`: `_EQURAD`, `_FLATTENING`).
const WGS84_A: f64 = 6_378_137.0;
const WGS84_INVERSE_FLATTENING: f64 = 298.257_223_563;

/// Where the airframe's NED origin (x = y = z = 0) lies on the WGS-84 ellipsoid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Origin {
    /// Geodetic latitude, rad.
    pub latitude: f64,
    /// Longitude, rad (east positive).
    pub longitude: f64,
    /// Height above the ellipsoid (FlightGear's "above sea level"), m.
    pub altitude: f64,
}

impl Origin {
    /// Geodetic latitude, longitude (rad) and altitude (m) of the NED point `(x, y, z)`, m, by the
    /// flat-earth approximation about the origin: the meridian and prime-vertical radii of
    /// curvature at the origin's latitude. Exact at the origin; the error grows as the square of
    /// the distance (below a metre within 10 km).
    pub fn geodetic(&self, x_north: f64, y_east: f64, z_down: f64) -> (f64, f64, f64) {
        let f = 1.0 / WGS84_INVERSE_FLATTENING;
        let e2 = f * (2.0 - f);
        let s = self.latitude.sin();
        let w = (1.0 - e2 * s * s).sqrt();
        let meridian = WGS84_A * (1.0 - e2) / (w * w * w);
        let prime_vertical = WGS84_A / w;
        let latitude = self.latitude + x_north / (meridian + self.altitude);
        let cos = self.latitude.cos().max(1e-9);
        let longitude = self.longitude + y_east / ((prime_vertical + self.altitude) * cos);
        (latitude, longitude, self.altitude - z_down)
    }
}

/// The Fuselage outputs a packet is made from (names in docs/variables/Fuselage.md).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct AirframeState {
    /// Position of the reference point, NED, m.
    pub position: [f64; 3],
    /// Velocity of the reference point relative to NED, body axes, m/s.
    pub velocity_body: [f64; 3],
    /// Angular velocity, body axes, rad/s.
    pub rates_body: [f64; 3],
    /// Roll, pitch, yaw (3-2-1 Euler angles), rad.
    pub euler: [f64; 3],
}

/// The output names of [`AirframeState`], in its field order, after `airframe.`.
pub const AIRFRAME_OUTPUTS: [&str; 12] = ["x", "y", "z", "u", "v", "w", "p", "q", "r", "phi", "theta", "psi"];

impl AirframeState {
    /// The state from the values of [`AIRFRAME_OUTPUTS`] in order.
    pub fn from_values(v: [f64; 12]) -> Self {
        Self {
            position: [v[0], v[1], v[2]],
            velocity_body: [v[3], v[4], v[5]],
            rates_body: [v[6], v[7], v[8]],
            euler: [v[9], v[10], v[11]],
        }
    }

    /// The velocity in NED axes, m/s: the body velocity turned by the 3-2-1 attitude.
    pub fn velocity_ned(&self) -> [f64; 3] {
        let [phi, theta, psi] = self.euler;
        let (sf, cf, st, ct, sp, cp) = (phi.sin(), phi.cos(), theta.sin(), theta.cos(), psi.sin(), psi.cos());
        let [u, v, w] = self.velocity_body;
        [
            ct * cp * u + (sf * st * cp - cf * sp) * v + (cf * st * cp + sf * sp) * w,
            ct * sp * u + (sf * st * sp + cf * cp) * v + (cf * st * sp - sf * cp) * w,
            -st * u + sf * ct * v + cf * ct * w,
        ]
    }

    /// The Euler angle rates (roll, pitch, yaw), rad/s, from the body rates; the yaw and roll
    /// rates are held finite at pitch ±90° (gimbal lock) by a floor on cos(theta).
    pub fn euler_rates(&self) -> [f64; 3] {
        let [phi, theta, _] = self.euler;
        let [p, q, r] = self.rates_body;
        let (sf, cf) = (phi.sin(), phi.cos());
        let ct = theta.cos();
        let ct = if ct.abs() < 1e-6 { 1e-6f64.copysign(ct) } else { ct };
        let turn = q * sf + r * cf;
        [p + turn * theta.sin() / ct, q * cf - r * sf, turn / ct]
    }

    /// Angle of attack and sideslip, rad (0 at rest).
    fn incidence(&self) -> (f64, f64) {
        let [u, v, w] = self.velocity_body;
        let speed = (u * u + v * v + w * w).sqrt();
        if speed < 1e-6 { (0.0, 0.0) } else { (w.atan2(u), (v / speed).clamp(-1.0, 1.0).asin()) }
    }
}

/// Big-endian writer of the structure's fields in order.
struct Fields(Vec<u8>);

impl Fields {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    /// A float field, 0 for a non-finite value (FlightGear must never get a NaN).
    fn f32(&mut self, v: f64) {
        let v = if v.is_finite() { v as f32 } else { 0.0 };
        self.0.extend_from_slice(&v.to_be_bytes());
    }
    fn zeros(&mut self, floats: usize) {
        self.0.resize(self.0.len() + 4 * floats, 0);
    }
}

/// The `FGNetFDM` packet of `state` with its NED origin at `origin`.
pub fn encode(state: &AirframeState, origin: &Origin) -> [u8; PACKET_BYTES] {
    let [x, y, z] = state.position;
    let (latitude, longitude, altitude) = origin.geodetic(x, y, z);
    let [phi, theta, psi] = state.euler;
    let (alpha, beta) = state.incidence();
    let rates = state.euler_rates();
    let ned = state.velocity_ned();
    let [u, v, w] = state.velocity_body;
    let fps = |m: f64| m / METRE_PER_FOOT;
    let mut out = Fields(Vec::with_capacity(PACKET_BYTES));
    out.u32(VERSION);
    out.u32(0); // padding
    for value in [longitude, latitude, if altitude.is_finite() { altitude } else { origin.altitude }] {
        out.f64(if value.is_finite() { value } else { 0.0 });
    }
    for value in [f64::from(AGL_FROM_SCENERY), phi, theta, psi, alpha, beta, rates[0], rates[1], rates[2]] {
        out.f32(value);
    }
    out.f32((u * u + v * v + w * w).sqrt() / METRE_PER_SECOND_PER_KNOT); // vcas, kt (still air)
    out.f32(fps(-ned[2])); // climb_rate
    for value in [ned[0], ned[1], ned[2], u, v, w] {
        out.f32(fps(value)); // v_north, v_east, v_down, v_wind_body_north/east/down
    }
    out.zeros(3 + 2); // A_X/Y/Z_pilot, stall_warning, slip_deg
    out.u32(0); // num_engines
    out.zeros(MAX_ENGINES * 10); // eng_state (u32 zeros), rpm .. oil_px
    out.u32(0); // num_tanks
    out.zeros(MAX_TANKS);
    out.u32(0); // num_wheels
    out.zeros(MAX_WHEELS * 4); // wow (u32 zeros), gear_pos, gear_steer, gear_compression
    out.u32(0); // cur_time
    out.u32(0); // warp
    out.zeros(1 + 10); // visibility, control surface positions
    out.0.try_into().expect("the FGNetFDM layout is 408 bytes")
}

/// Sends packets to FlightGear at most `rate` times per second of simulated time.
pub struct FdmSender {
    socket: UdpSocket,
    to: SocketAddr,
    origin: Origin,
    /// Simulated time between packets, s.
    interval: f64,
    last_sent: Option<f64>,
    /// Packets sent.
    pub sent: usize,
    /// Sends that failed (no listener, say); ignored.
    pub failed: usize,
}

impl FdmSender {
    /// A sender to `to` of one packet per `interval` s of simulated time.
    pub fn new(to: SocketAddr, origin: Origin, interval: f64) -> Result<Self> {
        let local: SocketAddr = if to.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" }.parse().expect("valid");
        let socket = UdpSocket::bind(local).context("--fg-fdm: cannot open a UDP socket")?;
        Ok(Self { socket, to, origin, interval, last_sent: None, sent: 0, failed: 0 })
    }

    /// Sends `state` at simulated time `t` (s) when an interval has passed since the last packet.
    pub fn offer(&mut self, t: f64, state: &AirframeState) {
        if self.last_sent.is_some_and(|last| t < last + self.interval * (1.0 - 1e-9)) {
            return;
        }
        self.last_sent = Some(t);
        match self.socket.send_to(&encode(state, &self.origin), self.to) {
            Ok(_) => self.sent += 1,
            Err(_) => self.failed += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_rates_and_ned_velocity_match_closed_forms() {
        // Level, heading east (psi = 90 deg): forward speed goes east; yaw rate r is psi_dot.
        let state = AirframeState {
            velocity_body: [10.0, 0.0, 0.0],
            rates_body: [0.0, 0.0, 0.3],
            euler: [0.0, 0.0, std::f64::consts::FRAC_PI_2],
            ..AirframeState::default()
        };
        let ned = state.velocity_ned();
        assert!(ned[0].abs() < 1e-12 && (ned[1] - 10.0).abs() < 1e-12 && ned[2].abs() < 1e-12, "{ned:?}");
        assert_eq!(state.euler_rates(), [0.0, 0.0, 0.3]);
        // Banked 90 deg right, heading north: body y points down and body z west, so body q is
        // the yaw rate.
        let state = AirframeState {
            velocity_body: [0.0, 2.0, 3.0],
            rates_body: [0.0, 0.4, 0.0],
            euler: [std::f64::consts::FRAC_PI_2, 0.0, 0.0],
            ..AirframeState::default()
        };
        let ned = state.velocity_ned();
        assert!(ned[0].abs() < 1e-12 && (ned[1] + 3.0).abs() < 1e-12 && (ned[2] - 2.0).abs() < 1e-12, "{ned:?}");
        let rates = state.euler_rates();
        assert!(rates[0].abs() < 1e-12 && rates[1].abs() < 1e-12 && (rates[2] - 0.4).abs() < 1e-12, "{rates:?}");
    }

    #[test]
    fn a_packet_has_the_header_layout_and_no_nan() {
        let origin = Origin { latitude: 0.5, longitude: -2.0, altitude: 10.0 };
        let state = AirframeState { euler: [f64::NAN, 0.0, 0.0], ..AirframeState::default() };
        let packet = encode(&state, &origin);
        assert_eq!(packet.len(), 408);
        assert_eq!(u32::from_be_bytes(packet[0..4].try_into().unwrap()), 24);
        assert_eq!(f64::from_be_bytes(packet[8..16].try_into().unwrap()), -2.0);
        assert_eq!(f64::from_be_bytes(packet[16..24].try_into().unwrap()), 0.5);
        assert_eq!(f64::from_be_bytes(packet[24..32].try_into().unwrap()), 10.0);
        assert_eq!(f32::from_be_bytes(packet[36..40].try_into().unwrap()), 0.0); // phi: NaN sent as 0
    }
}
