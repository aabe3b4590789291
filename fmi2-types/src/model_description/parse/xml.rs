//! XML helpers of the parser: line numbers of byte offsets, unescaped attributes, names.

use quick_xml::XmlVersion;
use quick_xml::events::BytesStart;
use quick_xml::reader::Reader;

use super::DescriptionError;

/// Line and character column (both 1-based) of a byte offset.
pub(super) fn line_column(xml: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(xml.len());
    while !xml.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &xml[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Line numbers of increasing byte offsets, counted incrementally (the parser asks for every
/// element's line; counting from the start each time would be quadratic in the file size).
pub(super) struct Lines<'a> {
    xml: &'a [u8],
    offset: usize,
    line: usize,
}

impl<'a> Lines<'a> {
    pub(super) fn new(xml: &'a str) -> Self {
        Lines { xml: xml.as_bytes(), offset: 0, line: 1 }
    }

    /// 1-based line of byte `offset`.
    pub(super) fn at(&mut self, offset: usize) -> usize {
        let offset = offset.min(self.xml.len());
        if offset < self.offset {
            (self.offset, self.line) = (0, 1);
        }
        self.line += self.xml[self.offset..offset].iter().filter(|&&b| b == b'\n').count();
        self.offset = offset;
        self.line
    }
}

/// Attributes of one element, unescaped.
pub(super) struct Attrs {
    element: String,
    list: Vec<(String, String)>,
    /// 1-based line of the element.
    pub(super) line: usize,
}

impl Attrs {
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.list.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_ref())
    }

    /// Every attribute, (name, value), in document order.
    pub(super) fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.list.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub(super) fn invalid(&self, message: String) -> DescriptionError {
        DescriptionError::Invalid { line: self.line, message }
    }

    pub(super) fn required(&self, name: &str) -> Result<&str, DescriptionError> {
        self.get(name).ok_or_else(|| self.invalid(format!("<{}> has no {name} attribute", self.element)))
    }

    pub(super) fn boolean(&self, name: &str) -> Result<bool, DescriptionError> {
        Ok(self.flag(name)?.unwrap_or(false))
    }

    /// A boolean attribute as written: `None` when absent.
    pub(super) fn flag(&self, name: &str) -> Result<Option<bool>, DescriptionError> {
        match self.get(name).map(str::trim) {
            None => Ok(None),
            Some("false") | Some("0") => Ok(Some(false)),
            Some("true") | Some("1") => Ok(Some(true)),
            Some(other) => Err(self.invalid(format!(
                "<{}> attribute {name}=\"{other}\" is not a boolean (true, false, 1 or 0)",
                self.element
            ))),
        }
    }

    pub(super) fn real(&self, name: &str) -> Result<Option<f64>, DescriptionError> {
        self.get(name)
            .map(|s| {
                s.trim()
                    .parse::<f64>()
                    .map_err(|_| self.invalid(format!("<{}> attribute {name}=\"{s}\" is not a number", self.element)))
            })
            .transpose()
    }

    pub(super) fn unsigned(&self, name: &str) -> Result<Option<u32>, DescriptionError> {
        self.get(name)
            .map(|s| {
                s.trim().parse::<u32>().map_err(|_| {
                    self.invalid(format!(
                        "<{}> attribute {name}=\"{s}\" is not an unsigned 32-bit integer",
                        self.element
                    ))
                })
            })
            .transpose()
    }
}

/// Reads the attributes of `e`, mapping attribute syntax errors to [`DescriptionError::Xml`].
pub(super) fn attrs(
    xml: &str,
    lines: &mut Lines,
    reader: &Reader<&[u8]>,
    start: usize,
    e: &BytesStart,
) -> Result<Attrs, DescriptionError> {
    let line = lines.at(start);
    let element = e.local_name().as_ref().to_string();
    let mut list = Vec::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|err| {
            let (line, column) = line_column(xml, start);
            DescriptionError::Xml { line, column, message: format!("in <{element}>: {err}") }
        })?;
        let value = attr.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
            let (line, column) = line_column(xml, reader.buffer_position() as usize);
            DescriptionError::Xml { line, column, message: format!("in <{element}>: {err}") }
        })?;
        list.push((attr.key.local_name().as_ref().to_string(), value.into_owned()));
    }
    Ok(Attrs { element, list, line })
}

/// `[A-Za-z_][A-Za-z0-9_]*`: what FMI 2.0 requires of `modelIdentifier`.
pub(super) fn is_c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether the open elements are exactly `path` (local names).
pub(super) fn at(stack: &[String], path: &[&str]) -> bool {
    stack.len() == path.len() && stack.iter().zip(path).all(|(a, b)| a == b)
}
