//! [`Slave`]'s setters and getters, `fmi2Set*` and `fmi2Get*` for each FMI type, through one
//! checked call per direction (`set`, `get`).

use std::ffi::{CStr, c_char};

use super::super::error::CallError;
use super::super::ffi::{FMI2_FALSE, FMI2_TRUE, Fmi2String, GetFn, SetFn};
use super::Slave;

/// Stack buffer size for converting Booleans without allocating.
const BOOL_CHUNK: usize = 64;

impl Slave {
    /// Checks the lengths, then calls the setter `f` of `values` (of its C type `T`).
    fn set<T>(&mut self, function: &'static str, f: SetFn<T>, vrs: &[u32], values: &[T]) -> Result<(), CallError> {
        self.same_length(function, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(function)?;
        // SAFETY: `f` has the FMI 2.0 signature of an `fmi2Set*` function whose values have the
        // C type `T`; both arrays have `vrs.len()` elements (checked above) and live across the
        // call (strings: the caller keeps the NUL-terminated strings they point to alive).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), values.as_ptr()) };
        self.check(function, mark, code)
    }

    /// Checks the lengths, then calls the getter `f` into `values` (of its C type `T`).
    fn get<T>(&mut self, function: &'static str, f: GetFn<T>, vrs: &[u32], values: &mut [T]) -> Result<(), CallError> {
        self.same_length(function, ("value references", vrs.len()), ("values", values.len()))?;
        let mark = self.begin(function)?;
        // SAFETY: `f` has the FMI 2.0 signature of an `fmi2Get*` function whose values have the
        // C type `T`; `values` is writable for `vrs.len()` elements (checked above).
        let code = unsafe { f(self.c(), vrs.as_ptr(), vrs.len(), values.as_mut_ptr()) };
        self.check(function, mark, code)
    }

    /// `fmi2SetReal`. No allocation.
    pub fn set_real(&mut self, vrs: &[u32], values: &[f64]) -> Result<(), CallError> {
        self.set("fmi2SetReal", self.functions.set_real, vrs, values)
    }

    /// `fmi2GetReal`. No allocation.
    pub fn get_real(&mut self, vrs: &[u32], values: &mut [f64]) -> Result<(), CallError> {
        self.get("fmi2GetReal", self.functions.get_real, vrs, values)
    }

    /// `fmi2SetInteger` (also for Enumerations).
    pub fn set_integer(&mut self, vrs: &[u32], values: &[i32]) -> Result<(), CallError> {
        self.set("fmi2SetInteger", self.functions.set_integer, vrs, values)
    }

    /// `fmi2GetInteger` (also for Enumerations).
    pub fn get_integer(&mut self, vrs: &[u32], values: &mut [i32]) -> Result<(), CallError> {
        self.get("fmi2GetInteger", self.functions.get_integer, vrs, values)
    }

    /// `fmi2SetBoolean` (converted through a stack buffer, in chunks of 64; no allocation).
    pub fn set_boolean(&mut self, vrs: &[u32], values: &[bool]) -> Result<(), CallError> {
        const F: &str = "fmi2SetBoolean";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut buffer = [FMI2_FALSE; BOOL_CHUNK];
        for (vrs, values) in vrs.chunks(BOOL_CHUNK).zip(values.chunks(BOOL_CHUNK)) {
            for (b, &v) in buffer.iter_mut().zip(values) {
                *b = if v { FMI2_TRUE } else { FMI2_FALSE };
            }
            self.set(F, self.functions.set_boolean, vrs, &buffer[..vrs.len()])?;
        }
        Ok(())
    }

    /// `fmi2GetBoolean` (through a stack buffer, in chunks of 64; no allocation).
    pub fn get_boolean(&mut self, vrs: &[u32], values: &mut [bool]) -> Result<(), CallError> {
        const F: &str = "fmi2GetBoolean";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut buffer = [FMI2_FALSE; BOOL_CHUNK];
        for (vrs, values) in vrs.chunks(BOOL_CHUNK).zip(values.chunks_mut(BOOL_CHUNK)) {
            self.get(F, self.functions.get_boolean, vrs, &mut buffer[..vrs.len()])?;
            for (v, &b) in values.iter_mut().zip(&buffer) {
                *v = b != FMI2_FALSE;
            }
        }
        Ok(())
    }

    /// `fmi2SetString`.
    pub fn set_string(&mut self, vrs: &[u32], values: &[&str]) -> Result<(), CallError> {
        const F: &str = "fmi2SetString";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let owned = self.c_strings(F, values, "a value contains a NUL byte")?;
        // `owned` outlives the call: the pointers stay valid.
        let pointers: Vec<Fmi2String> = owned.iter().map(|c| c.as_ptr()).collect();
        self.set(F, self.functions.set_string, vrs, &pointers)
    }

    /// `fmi2GetString`; the FMU's strings are copied into `values`.
    pub fn get_string(&mut self, vrs: &[u32], values: &mut [String]) -> Result<(), CallError> {
        const F: &str = "fmi2GetString";
        self.same_length(F, ("value references", vrs.len()), ("values", values.len()))?;
        let mut pointers: Vec<Fmi2String> = vec![std::ptr::null(); vrs.len()];
        self.get(F, self.functions.get_string, vrs, &mut pointers)?;
        for (value, &p) in values.iter_mut().zip(&pointers) {
            value.clear();
            if !p.is_null() {
                // SAFETY: the FMU returned NUL-terminated strings valid until its next call.
                value.push_str(&unsafe { CStr::from_ptr(p as *const c_char) }.to_string_lossy());
            }
        }
        Ok(())
    }
}
