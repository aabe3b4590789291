//! The little XML the SSP code needs: a document read into a tree of [`Element`]s (text content
//! is not kept), and attribute values escaped for writing.

use quick_xml::XmlVersion;
use quick_xml::events::Event;
use quick_xml::reader::Reader;

use super::SspError;

/// An XML element: local name, attributes (local names), children.
#[derive(Debug, Clone, Default)]
pub(super) struct Element {
    pub(super) name: String,
    pub(super) attributes: Vec<(String, String)>,
    pub(super) children: Vec<Element>,
}

impl Element {
    /// The value of attribute `name`.
    pub(super) fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Parses `xml` into its root [`Element`] (text content is not kept).
pub(super) fn parse(xml: &str) -> Result<Element, SspError> {
    let mut reader = Reader::from_str(xml);
    let mut stack: Vec<Element> = vec![Element::default()];
    loop {
        let event = reader
            .read_event()
            .map_err(|e| SspError::Xml(format!("XML error at byte {}: {e}", reader.error_position())))?;
        let open = |e: &quick_xml::events::BytesStart| -> Result<Element, SspError> {
            let mut attributes = Vec::new();
            for a in e.attributes() {
                let a = a.map_err(|e| SspError::Xml(e.to_string()))?;
                let value = a.normalized_value(XmlVersion::Implicit1_0).map_err(|e| SspError::Xml(e.to_string()))?;
                attributes.push((a.key.local_name().as_ref().to_string(), value.into_owned()));
            }
            Ok(Element { name: e.local_name().as_ref().to_string(), attributes, children: Vec::new() })
        };
        match event {
            Event::Start(e) => stack.push(open(&e)?),
            Event::Empty(e) => {
                let element = open(&e)?;
                stack.last_mut().expect("document").children.push(element);
            }
            Event::End(_) => {
                let element = stack.pop().ok_or_else(unbalanced)?;
                stack.last_mut().ok_or_else(unbalanced)?.children.push(element);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let document = stack
        .pop()
        .filter(|_| stack.is_empty())
        .ok_or_else(|| SspError::Xml("unexpected end of the document".into()))?;
    document.children.into_iter().next().ok_or_else(|| SspError::Xml("empty document".into()))
}

/// `text` escaped for an XML attribute value.
pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&apos;")
}

/// The error of an end tag without its start.
fn unbalanced() -> SspError {
    SspError::Xml("unbalanced XML".into())
}
