//! The GUID of a description we generate: a hash of its own text, so any change of the
//! interface changes it. The one "write with a placeholder, hash, replace" step of our FMUs
//! (`fmu-core`) and the system FMU (`fmu-system`).

use super::ModelDescription;

/// What stands where the GUID goes while the text is hashed.
const PLACEHOLDER: &str = "@GUID@";

impl ModelDescription {
    /// The `modelDescription.xml` text and its GUID: the description is written with a
    /// placeholder GUID, the text hashed ([`guid_of`]) and the placeholder replaced by the hash.
    /// The `guid` this description holds is not used.
    pub fn into_xml_with_content_guid(mut self) -> (String, String) {
        self.guid = PLACEHOLDER.to_string();
        let body = self.to_xml();
        let guid = guid_of(&body);
        (body.replace(PLACEHOLDER, &guid), guid)
    }
}

/// A GUID for a model description: the 128-bit FNV-1a of its text (with a placeholder where the
/// GUID goes), formatted as a braced UUID.
pub fn guid_of(text: &str) -> String {
    let mut h: u128 = 0x6c62272e07bb014262b821756295c58d;
    for b in text.bytes() {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000000001000000000000000000013B);
    }
    let hex = format!("{h:032x}");
    format!("{{{}-{}-{}-{}-{}}}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guid_replaces_the_placeholder_and_hashes_the_placeholder_text() {
        let md = ModelDescription::new("M", "ignored");
        let (xml, guid) = md.clone().into_xml_with_content_guid();
        let body = ModelDescription::new("M", PLACEHOLDER).to_xml();
        assert_eq!(guid, guid_of(&body));
        assert_eq!(xml, body.replace(PLACEHOLDER, &guid));
        assert!(xml.contains(&format!("guid=\"{guid}\"")));
    }
}
