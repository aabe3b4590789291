//! The framing between an isolated instance ([`super::isolated`]) and its child process
//! ([`super::host`]): over a Unix socket, every message is a frame, a little-endian `u32` body
//! length and the body, whose first byte says what it is ([`Op`] from parent to child, [`Reply`]
//! from child to parent). Numbers are little-endian; a slice is its `u32` length and its items; a
//! string or a byte string is its `u32` length and its bytes.
//!
//! Encoding appends to a reused `Vec<u8>` and decoding reads from a borrowed slice, so a call on
//! the stepping path allocates nothing once the buffers have grown to its size.

use std::io::{self, Read};

/// Largest frame body accepted (a serialised FMU state is the largest message): 1 GiB.
pub(crate) const MAX_FRAME: usize = 1 << 30;

/// Parent-to-child messages: one per FMI call (see [`super::host`] for their arguments).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Op {
    /// The first request: extraction directory, archive (both as bytes), instance name, debug
    /// logging flag; the child loads the FMU and instantiates it.
    Open = 1,
    /// `fmi2SetupExperiment`: tolerance (flag, value), start, stop (flag, value).
    SetupExperiment,
    /// `fmi2EnterInitializationMode`.
    EnterInitializationMode,
    /// `fmi2ExitInitializationMode`.
    ExitInitializationMode,
    /// `fmi2Terminate`.
    Terminate,
    /// `fmi2SetReal`: value references, values.
    SetReal,
    /// `fmi2GetReal`: value references; replies with the values.
    GetReal,
    /// `fmi2SetInteger`: value references, values.
    SetInteger,
    /// `fmi2GetInteger`: value references; replies with the values.
    GetInteger,
    /// `fmi2SetBoolean`: value references, values (one byte each).
    SetBoolean,
    /// `fmi2GetBoolean`: value references; replies with the values.
    GetBoolean,
    /// `fmi2DoStep`: t, h, noSetFMUStatePriorToCurrentPoint; replies with the step result.
    DoStep,
    /// `fmi2GetDirectionalDerivative`: unknowns, knowns, seed; replies with the derivatives.
    DirectionalDerivative,
    /// `fmi2SetRealInputDerivatives`: value references, orders, values.
    SetRealInputDerivatives,
    /// `fmi2GetFMUstate` into a new state; replies with its handle.
    GetFmuState,
    /// `fmi2GetFMUstate` into the state with this handle.
    GetFmuStateInto,
    /// `fmi2SetFMUstate` from the state with this handle.
    SetFmuState,
    /// `fmi2FreeFMUstate` of the state with this handle.
    FreeFmuState,
    /// `fmi2SerializeFMUstate` of the state with this handle; replies with the bytes.
    SerializeFmuState,
    /// `fmi2DeSerializeFMUstate` of these bytes; replies with the new state's handle.
    DeserializeFmuState,
    /// `fmi2GetRealStatus(fmi2LastSuccessfulTime)`; replies with the time.
    LastSuccessfulTime,
}

impl Op {
    /// Every op, for decoding.
    const ALL: [Op; 21] = [
        Op::Open,
        Op::SetupExperiment,
        Op::EnterInitializationMode,
        Op::ExitInitializationMode,
        Op::Terminate,
        Op::SetReal,
        Op::GetReal,
        Op::SetInteger,
        Op::GetInteger,
        Op::SetBoolean,
        Op::GetBoolean,
        Op::DoStep,
        Op::DirectionalDerivative,
        Op::SetRealInputDerivatives,
        Op::GetFmuState,
        Op::GetFmuStateInto,
        Op::SetFmuState,
        Op::FreeFmuState,
        Op::SerializeFmuState,
        Op::DeserializeFmuState,
        Op::LastSuccessfulTime,
    ];

    /// The op with code `code`.
    pub(crate) fn from_code(code: u8) -> Option<Op> {
        Op::ALL.iter().copied().find(|op| *op as u8 == code)
    }
}

/// Child-to-parent messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Reply {
    /// The call succeeded; its results follow.
    Ok = 0,
    /// The call failed: a [`super::CallError`] without the instance name (the function name,
    /// the kind, the status code, the message).
    Err = 1,
    /// A message the FMU logged: status code, instance, category, text. Any number of these
    /// may come before the reply to a call.
    Log = 2,
    /// Opening or instantiating failed: the error's text.
    OpenFailed = 3,
}

/// A malformed frame: the peer does not speak this protocol (a bug, or a stray write to the
/// socket).
#[derive(Debug)]
pub(crate) struct Malformed;

/// Appends a frame to a buffer; [`Encoder::finish`] writes the length.
pub(crate) struct Encoder<'a> {
    buffer: &'a mut Vec<u8>,
}

impl<'a> Encoder<'a> {
    /// Starts a frame of kind `tag` in `buffer` (cleared).
    pub(crate) fn new(buffer: &'a mut Vec<u8>, tag: u8) -> Self {
        buffer.clear();
        buffer.extend_from_slice(&[0, 0, 0, 0, tag]);
        Encoder { buffer }
    }

    /// Appends a byte.
    pub(crate) fn u8(&mut self, value: u8) -> &mut Self {
        self.buffer.push(value);
        self
    }

    /// Appends a `u32`.
    pub(crate) fn u32(&mut self, value: u32) -> &mut Self {
        self.le(value.to_le_bytes())
    }

    /// Appends an `i32`.
    pub(crate) fn i32(&mut self, value: i32) -> &mut Self {
        self.le(value.to_le_bytes())
    }

    /// Appends a `u64`.
    pub(crate) fn u64(&mut self, value: u64) -> &mut Self {
        self.le(value.to_le_bytes())
    }

    /// Appends an `f64`.
    pub(crate) fn f64(&mut self, value: f64) -> &mut Self {
        self.le(value.to_le_bytes())
    }

    /// Appends a number's little-endian bytes.
    fn le<const N: usize>(&mut self, bytes: [u8; N]) -> &mut Self {
        self.buffer.extend_from_slice(&bytes);
        self
    }

    /// A length: slices and strings longer than `u32::MAX` are not sent (FMI calls never are).
    fn len(&mut self, len: usize) -> &mut Self {
        self.u32(u32::try_from(len).unwrap_or(u32::MAX))
    }

    /// Appends a byte string.
    pub(crate) fn bytes(&mut self, value: &[u8]) -> &mut Self {
        self.len(value.len());
        self.buffer.extend_from_slice(value);
        self
    }

    /// Appends a string.
    pub(crate) fn str(&mut self, value: &str) -> &mut Self {
        self.bytes(value.as_bytes())
    }

    /// Appends a slice: its length, then its items.
    pub(crate) fn slice<T: Item>(&mut self, values: &[T]) -> &mut Self {
        self.len(values.len());
        for v in values {
            v.encode(self);
        }
        self
    }

    /// Writes the body length into the frame's header.
    pub(crate) fn finish(&mut self) {
        let body = u32::try_from(self.buffer.len() - 4).unwrap_or(u32::MAX);
        self.buffer[..4].copy_from_slice(&body.to_le_bytes());
    }
}

/// Reads the values of one frame body, in order.
pub(crate) struct Decoder<'a> {
    body: &'a [u8],
}

impl<'a> Decoder<'a> {
    /// The frame body after its tag byte.
    pub(crate) fn new(body: &'a [u8]) -> Self {
        Decoder { body }
    }

    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<&'a [u8], Malformed> {
        if self.body.len() < n {
            return Err(Malformed);
        }
        let (head, rest) = self.body.split_at(n);
        self.body = rest;
        Ok(head)
    }

    /// The next `N` bytes as an array.
    fn array<const N: usize>(&mut self) -> Result<[u8; N], Malformed> {
        self.take(N)?.try_into().map_err(|_| Malformed)
    }

    /// Reads a byte.
    pub(crate) fn u8(&mut self) -> Result<u8, Malformed> {
        Ok(self.array::<1>()?[0])
    }

    /// Reads a `u32`.
    pub(crate) fn u32(&mut self) -> Result<u32, Malformed> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// Reads an `i32`.
    pub(crate) fn i32(&mut self) -> Result<i32, Malformed> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    /// Reads a `u64`.
    pub(crate) fn u64(&mut self) -> Result<u64, Malformed> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// Reads an `f64`.
    pub(crate) fn f64(&mut self) -> Result<f64, Malformed> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// The length of a slice of `size`-byte items, checked against what the body holds.
    fn len(&mut self, size: usize) -> Result<usize, Malformed> {
        let n = self.u32()? as usize;
        if n.checked_mul(size).is_none_or(|bytes| bytes > self.body.len()) {
            return Err(Malformed);
        }
        Ok(n)
    }

    /// Reads a byte string (borrowed from the frame).
    pub(crate) fn bytes(&mut self) -> Result<&'a [u8], Malformed> {
        let n = self.len(1)?;
        self.take(n)
    }

    /// Reads a UTF-8 string (borrowed from the frame).
    pub(crate) fn str(&mut self) -> Result<&'a str, Malformed> {
        std::str::from_utf8(self.bytes()?).map_err(|_| Malformed)
    }

    /// A slice into `out` (cleared).
    pub(crate) fn slice_into<T: Item>(&mut self, out: &mut Vec<T>) -> Result<(), Malformed> {
        let n = self.len(T::SIZE)?;
        out.clear();
        for _ in 0..n {
            out.push(T::decode(self)?);
        }
        Ok(())
    }

    /// A slice into `out`, which must have its length.
    pub(crate) fn slice_exact<T: Item>(&mut self, out: &mut [T]) -> Result<(), Malformed> {
        if self.len(T::SIZE)? != out.len() {
            return Err(Malformed);
        }
        for v in out {
            *v = T::decode(self)?;
        }
        Ok(())
    }
}

/// A value sent in slices: its size in a frame and its encoding (`bool` is one byte, 0 or 1).
pub(crate) trait Item: Copy {
    /// Bytes per item.
    const SIZE: usize;
    /// Appends the item.
    fn encode(self, e: &mut Encoder<'_>);
    /// Reads an item.
    fn decode(d: &mut Decoder<'_>) -> Result<Self, Malformed>;
}

/// `Item` for a number written by the encoder method and read by the decoder method `$rw`.
macro_rules! number_item {
    ($($t:ty: $rw:ident),*) => {$(
        impl Item for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn encode(self, e: &mut Encoder<'_>) {
                e.$rw(self);
            }
            fn decode(d: &mut Decoder<'_>) -> Result<Self, Malformed> {
                d.$rw()
            }
        }
    )*};
}

number_item!(u32: u32, i32: i32, f64: f64);

impl Item for bool {
    const SIZE: usize = 1;
    fn encode(self, e: &mut Encoder<'_>) {
        e.u8(u8::from(self));
    }
    fn decode(d: &mut Decoder<'_>) -> Result<Self, Malformed> {
        Ok(d.u8()? != 0)
    }
}

/// Reads frames from a stream through a reused buffer: one `read` usually brings a whole frame
/// (or several: log messages and the reply after them).
pub(crate) struct FrameReader {
    buffer: Vec<u8>,
    /// Bytes `start..end` of `buffer` are read and not yet consumed.
    start: usize,
    end: usize,
}

impl FrameReader {
    /// A reader with a 64 KiB buffer (grown for larger frames).
    pub(crate) fn new() -> Self {
        FrameReader { buffer: vec![0; 1 << 16], start: 0, end: 0 }
    }

    /// The complete frame at the front of the buffer, if there is one: its body length.
    fn complete(&self) -> Result<Option<usize>, Malformed> {
        let available = &self.buffer[self.start..self.end];
        let Some(header) = available.get(..4) else { return Ok(None) };
        let len = u32::from_le_bytes([header[0], header[1], header[2], header[3]]) as usize;
        if len == 0 || len > MAX_FRAME {
            return Err(Malformed);
        }
        Ok((available.len() >= 4 + len).then_some(len))
    }

    /// The next frame's body (tag byte first), reading from `stream` as needed. End of stream
    /// is `UnexpectedEof`; a malformed header is `InvalidData`.
    pub(crate) fn next(&mut self, stream: &mut impl Read) -> io::Result<&[u8]> {
        let malformed = |_| io::Error::new(io::ErrorKind::InvalidData, "malformed frame");
        loop {
            if let Some(len) = self.complete().map_err(malformed)? {
                let body = self.start + 4;
                self.start = body + len;
                return Ok(&self.buffer[body..body + len]);
            }
            if self.start == self.end {
                (self.start, self.end) = (0, 0);
            } else if self.start > 0 {
                self.buffer.copy_within(self.start..self.end, 0);
                (self.start, self.end) = (0, self.end - self.start);
            }
            // Room for the whole frame at the front, and for at least one more byte.
            let needed = self.needed().max(self.end + 1);
            if needed > self.buffer.len() {
                let size = needed.max(2 * self.buffer.len());
                self.buffer.resize(size, 0);
            }
            let n = stream.read(&mut self.buffer[self.end..])?;
            if n == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            self.end += n;
        }
    }

    /// Bytes the frame at the front needs in all (4 until its header is read).
    fn needed(&self) -> usize {
        match self.buffer.get(self.start..self.start + 4) {
            Some(h) if self.end >= self.start + 4 => 4 + u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize,
            _ => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_split_reads_are_joined() {
        let mut buffer = Vec::new();
        let mut e = Encoder::new(&mut buffer, Op::SetReal as u8);
        e.slice(&[1, 2]).slice(&[0.5, -3.0]).str("é").slice(&[true, false]).finish();
        let mut stream = Vec::new();
        stream.extend_from_slice(&buffer);
        stream.extend_from_slice(&buffer);
        // A reader that returns one byte at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(out.len()).min(1);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = FrameReader::new();
        let mut source = Trickle(&stream);
        for _ in 0..2 {
            let body = reader.next(&mut source).unwrap();
            assert_eq!(Op::from_code(body[0]), Some(Op::SetReal));
            let mut d = Decoder::new(&body[1..]);
            let (mut vrs, mut values, mut flags) = (Vec::<u32>::new(), Vec::<f64>::new(), Vec::<bool>::new());
            d.slice_into(&mut vrs).unwrap();
            d.slice_into(&mut values).unwrap();
            assert_eq!(d.str().unwrap(), "é");
            d.slice_into(&mut flags).unwrap();
            assert_eq!((vrs, values, flags), (vec![1, 2], vec![0.5, -3.0], vec![true, false]));
        }
        assert_eq!(reader.next(&mut source).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn lengths_beyond_the_body_are_malformed() {
        let mut d = Decoder::new(&[255, 255, 255, 255, 1, 2]);
        assert!(d.bytes().is_err());
        let mut d = Decoder::new(&[2, 0, 0, 0, 1]);
        assert!(d.slice_into(&mut Vec::<f64>::new()).is_err());
    }
}
