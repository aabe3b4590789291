//! The FMU's `resources` folder: the `fmuResourceLocation` URI an importer passes to
//! `fmi2Instantiate`, decoded to a filesystem path, so that a model can open the table files
//! its String parameters name ([`crate::params::Reader::resource_path`]).

use std::path::PathBuf;

/// The folder a `file:` URI names, percent-decoded: `file:///a/b`, `file://localhost/a/b` and
/// `file:/a/b` all give `/a/b`. An error for another scheme, another host, or a path that is not
/// UTF-8 once decoded.
///
/// ```
/// use fmu_core::resources::path_from_uri;
/// assert_eq!(path_from_uri("file:///tmp/my%20fmu/resources").unwrap().to_str(), Some("/tmp/my fmu/resources"));
/// assert!(path_from_uri("http://example.com/resources").is_err());
/// ```
pub fn path_from_uri(uri: &str) -> Result<PathBuf, String> {
    let scheme_end = uri.find(':').filter(|&i| uri[..i].eq_ignore_ascii_case("file"));
    let Some(rest) = scheme_end.map(|i| &uri[i + 1..]) else {
        return Err(format!("fmuResourceLocation '{uri}' is not a file: URI"));
    };
    let path = match rest.strip_prefix("//") {
        Some(authority_and_path) => {
            let (host, path) =
                authority_and_path.split_at(authority_and_path.find('/').unwrap_or(authority_and_path.len()));
            if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                return Err(format!("fmuResourceLocation '{uri}' names another host ('{host}')"));
            }
            path
        }
        None => rest,
    };
    let text = String::from_utf8(percent_decode(path.as_bytes()))
        .map_err(|_| format!("fmuResourceLocation '{uri}' is not UTF-8 once decoded"))?;
    Ok(PathBuf::from(text))
}

/// `%XX` sequences replaced by their byte; a `%` not followed by two hex digits kept as it is.
fn percent_decode(bytes: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        if bytes[i] == b'%'
            && let Some(Ok(b)) = hex.map(|h| u8::from_str_radix(h, 16))
        {
            decoded.push(b);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    decoded
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The forms RFC 8089 (appendix E) and FMI 2.0 section 2.1.5 allow, against the paths they name.
    #[test]
    fn file_uris_decode_to_their_paths() {
        for (uri, path) in [
            ("file:///tmp/fmu/resources", "/tmp/fmu/resources"),
            ("file:/tmp/fmu/resources", "/tmp/fmu/resources"),
            ("file://localhost/tmp/fmu/resources", "/tmp/fmu/resources"),
            ("FILE:///tmp/fmu", "/tmp/fmu"),
            ("file:///tmp/a%20b/c%2525/%C3%A9", "/tmp/a b/c%25/\u{e9}"),
            ("file:///tmp/100%/x%2", "/tmp/100%/x%2"),
            ("file:///tmp/fmu/resources/", "/tmp/fmu/resources/"),
        ] {
            assert_eq!(path_from_uri(uri), Ok(PathBuf::from(path)), "{uri}");
        }
    }

    #[test]
    fn other_schemes_hosts_and_bytes_are_refused() {
        for (uri, message) in [
            ("http://example.com/r", "is not a file: URI"),
            ("/tmp/fmu/resources", "is not a file: URI"),
            ("files:///tmp", "is not a file: URI"),
            ("file://server/share/r", "names another host ('server')"),
            ("file:///tmp/%FF", "is not UTF-8 once decoded"),
        ] {
            let error = path_from_uri(uri).expect_err(uri);
            assert!(error.ends_with(message), "{uri}: {error}");
        }
    }
}
