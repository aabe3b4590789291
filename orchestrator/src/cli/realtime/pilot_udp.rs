//! Pilot inputs over UDP: a small big-endian packet of `f64` values, one per mapped input, of
//! which the newest valid one is applied at every communication step. The layout
//! (docs/realtime.md):
//!
//! | bytes | field |
//! |---|---|
//! | 0..4 | magic, ASCII `RCPI` |
//! | 4..8 | version, `u32` = 1 |
//! | 8..12 | sequence number, `u32`, increasing (wrapping) from packet to packet |
//! | 12..16 | value count `n`, `u32`, equal to the number of mapped inputs |
//! | 16..16+8n | the values, `f64`, in the order of the mapping |

use std::io::ErrorKind;
use std::net::{SocketAddr, UdpSocket};

use anyhow::{Context, Result};

/// The first four bytes of a pilot packet.
pub const MAGIC: [u8; 4] = *b"RCPI";
/// The packet version this reader understands.
pub const VERSION: u32 = 1;
/// Bytes before the values.
pub const HEADER_BYTES: usize = 16;

/// Why a packet was ignored.
#[derive(Debug, Clone, PartialEq)]
pub enum Rejected {
    /// Not a pilot packet of this version with `expected` finite values.
    Malformed(String),
    /// Its sequence number is not newer than that of the last packet applied.
    Stale,
}

/// Decodes a pilot packet carrying `expected` values: its sequence number and values.
pub fn decode(packet: &[u8], expected: usize) -> Result<(u32, Vec<f64>), Rejected> {
    let bad = |why: String| Err(Rejected::Malformed(why));
    if packet.len() < HEADER_BYTES {
        return bad(format!("{} bytes, shorter than the {HEADER_BYTES}-byte header", packet.len()));
    }
    let word = |k: usize| u32::from_be_bytes(packet[k..k + 4].try_into().expect("4 bytes"));
    if packet[..4] != MAGIC {
        return bad("no RCPI magic".into());
    }
    if word(4) != VERSION {
        return bad(format!("version {} (expected {VERSION})", word(4)));
    }
    let count = word(12) as usize;
    if count != expected {
        return bad(format!("{count} values (expected {expected})"));
    }
    if packet.len() != HEADER_BYTES + 8 * count {
        return bad(format!("{} bytes for {count} values (expected {})", packet.len(), HEADER_BYTES + 8 * count));
    }
    let values: Vec<f64> =
        packet[HEADER_BYTES..].chunks_exact(8).map(|b| f64::from_be_bytes(b.try_into().expect("8 bytes"))).collect();
    if let Some(k) = values.iter().position(|v| !v.is_finite()) {
        return bad(format!("value {k} is not finite"));
    }
    Ok((word(8), values))
}

/// Encodes a pilot packet (as a sender does).
#[cfg(test)]
pub fn encode(sequence: u32, values: &[f64]) -> Vec<u8> {
    let mut packet = Vec::with_capacity(HEADER_BYTES + 8 * values.len());
    packet.extend_from_slice(&MAGIC);
    packet.extend_from_slice(&VERSION.to_be_bytes());
    packet.extend_from_slice(&sequence.to_be_bytes());
    packet.extend_from_slice(&u32::try_from(values.len()).unwrap_or(u32::MAX).to_be_bytes());
    for v in values {
        packet.extend_from_slice(&v.to_be_bytes());
    }
    packet
}

/// Counts of the packets received.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PacketCounts {
    /// Packets whose values were taken.
    pub accepted: usize,
    /// Packets ignored as not newer than the last one taken.
    pub stale: usize,
    /// Packets ignored as malformed.
    pub malformed: usize,
}

/// The socket pilot packets arrive on, read without blocking before each step.
pub struct PilotReceiver {
    socket: UdpSocket,
    expected: usize,
    last_sequence: Option<u32>,
    buffer: Vec<u8>,
    /// What was received so far.
    pub counts: PacketCounts,
    /// The first malformed packet's problem, for the report.
    pub first_problem: Option<String>,
}

impl PilotReceiver {
    /// Listens on `address` for packets of `expected` values.
    pub fn bind(address: SocketAddr, expected: usize) -> Result<Self> {
        let socket = UdpSocket::bind(address).with_context(|| format!("--pilot-udp: cannot listen on {address}"))?;
        socket.set_nonblocking(true).context("--pilot-udp: cannot make the socket non-blocking")?;
        let buffer = vec![0; HEADER_BYTES + 8 * expected + 1];
        Ok(Self { socket, expected, last_sequence: None, buffer, counts: PacketCounts::default(), first_problem: None })
    }

    /// Reads every packet waiting and returns the values of the newest valid one, if any.
    pub fn poll(&mut self) -> Option<Vec<f64>> {
        let mut newest = None;
        loop {
            let n = match self.socket.recv(&mut self.buffer) {
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // An ICMP error of an earlier send, or an interrupted call: nothing to read.
                Err(_) => break,
            };
            match self.accept(n) {
                Ok(values) => newest = Some(values),
                Err(Rejected::Stale) => self.counts.stale += 1,
                Err(Rejected::Malformed(why)) => {
                    self.counts.malformed += 1;
                    self.first_problem.get_or_insert(why);
                }
            }
        }
        newest
    }

    /// The values of the packet in the first `n` bytes of the buffer, if valid and newer than
    /// the last one taken (sequence numbers compared as wrapping 32-bit serial numbers).
    fn accept(&mut self, n: usize) -> Result<Vec<f64>, Rejected> {
        let (sequence, values) = decode(&self.buffer[..n], self.expected)?;
        if let Some(last) = self.last_sequence
            && (sequence.wrapping_sub(last) as i32) <= 0
        {
            return Err(Rejected::Stale);
        }
        self.last_sequence = Some(sequence);
        self.counts.accepted += 1;
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packets_decode_and_bad_ones_are_named() {
        let packet = encode(7, &[0.1, -0.25]);
        assert_eq!(packet.len(), 32);
        assert_eq!(&packet[..4], b"RCPI");
        assert_eq!(decode(&packet, 2), Ok((7, vec![0.1, -0.25])));
        let malformed = |p: &[u8], n| matches!(decode(p, n), Err(Rejected::Malformed(_)));
        assert!(malformed(&packet, 3));
        assert!(malformed(&packet[..20], 2));
        assert!(malformed(&encode(1, &[f64::NAN, 0.0]), 2));
        let mut wrong_version = packet.clone();
        wrong_version[7] = 2;
        assert!(malformed(&wrong_version, 2));
        assert!(malformed(b"xx", 2));
    }

    #[test]
    fn the_newest_valid_packet_wins_and_stale_or_malformed_ones_are_counted() {
        let mut receiver = PilotReceiver::bind("127.0.0.1:0".parse().unwrap(), 1).unwrap();
        let to = receiver.socket.local_addr().unwrap();
        let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
        for packet in [encode(5, &[1.0]), encode(6, &[2.0]), encode(4, &[9.0]), b"junk".to_vec()] {
            sender.send_to(&packet, to).unwrap();
        }
        // Loopback delivery is immediate, but give the kernel a moment.
        let mut got = None;
        for _ in 0..100 {
            if let Some(v) = receiver.poll() {
                got = Some(v);
            }
            if receiver.counts.accepted + receiver.counts.stale + receiver.counts.malformed == 4 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(got, Some(vec![2.0]));
        assert_eq!(receiver.counts, PacketCounts { accepted: 2, stale: 1, malformed: 1 });
        // Sequence numbers wrap: 0 follows u32::MAX.
        let mut receiver = PilotReceiver::bind("127.0.0.1:0".parse().unwrap(), 1).unwrap();
        let to = receiver.socket.local_addr().unwrap();
        sender.send_to(&encode(u32::MAX, &[3.0]), to).unwrap();
        sender.send_to(&encode(0, &[4.0]), to).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        assert_eq!(receiver.poll(), Some(vec![4.0]));
        assert_eq!(receiver.counts.stale, 0);
    }
}
