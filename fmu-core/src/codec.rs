//! The little-endian byte codec of serialised FMU states: `u32` counts before lists, `f64`
//! values as their IEEE bits. Used by [`crate::Instance`] and by the orchestrator's system FMU
//! (`cosim::master::MasterState`), so both read and write states the same way.

/// Appends values to a byte buffer.
#[derive(Debug, Default)]
pub struct Writer(pub Vec<u8>);

impl Writer {
    /// A `u32`.
    pub fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// An `f64`.
    pub fn f64(&mut self, v: f64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    /// A count, then the values.
    pub fn f64s(&mut self, values: &[f64]) {
        self.u32(values.len() as u32);
        for &v in values {
            self.f64(v);
        }
    }
    /// A count, then the bytes.
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.u32(bytes.len() as u32);
        self.0.extend_from_slice(bytes);
    }
}

/// Reads values back; every error says the state is truncated.
#[derive(Debug)]
pub struct Reader<'a>(pub &'a [u8]);

const TRUNCATED: &str = "serialized FMU state is truncated";

impl<'a> Reader<'a> {
    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(TRUNCATED.into());
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }
    /// A `u32`.
    pub fn u32(&mut self) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4)?.try_into().expect("4 bytes")))
    }
    /// An `f64`.
    pub fn f64(&mut self) -> Result<f64, String> {
        Ok(f64::from_le_bytes(self.take(8)?.try_into().expect("8 bytes")))
    }
    /// A count of items of `item` bytes each, checked against the bytes left.
    pub fn len(&mut self, item: usize) -> Result<usize, String> {
        let n = self.u32()? as usize;
        if n.saturating_mul(item) > self.0.len() {
            return Err(TRUNCATED.into());
        }
        Ok(n)
    }
    /// A list written by [`Writer::f64s`].
    pub fn f64s(&mut self) -> Result<Vec<f64>, String> {
        let n = self.len(8)?;
        (0..n).map(|_| self.f64()).collect()
    }
    /// Bytes written by [`Writer::bytes`].
    pub fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = self.len(1)?;
        self.take(n)
    }
    /// Whether everything was read.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
