//! Writes the `.fmu` archive: `modelDescription.xml`, `binaries/linux64/<id>.so` and optional
//! further files (documentation, resources).

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use zip::write::SimpleFileOptions;

/// Platform folder of the binary inside the archive.
pub const PLATFORM: &str = "linux64";

/// Writes `out` as an FMI 2.0 `.fmu` with the given model description and shared library.
/// `files` are `(path in the archive, contents)`, e.g. `("documentation/index.html", ...)` or
/// `("resources/data.csv", ...)`; their folders are added.
pub fn write_fmu(
    out: &Path,
    model_description: &str,
    model_identifier: &str,
    shared_library: &Path,
    files: &[(&str, &[u8])],
) -> io::Result<()> {
    let binary = std::fs::read(shared_library)
        .map_err(|e| io::Error::new(e.kind(), format!("cannot read {}: {e}", shared_library.display())))?;
    let tmp = out.with_extension("fmu.partial");
    let file = File::create(&tmp)?;
    let mut zip = zip::ZipWriter::new(file);
    let options = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("modelDescription.xml", options)?;
    zip.write_all(model_description.as_bytes())?;
    zip.add_directory("binaries/", options)?;
    zip.add_directory(format!("binaries/{PLATFORM}/"), options)?;
    zip.start_file(format!("binaries/{PLATFORM}/{model_identifier}.so"), options.unix_permissions(0o755))?;
    zip.write_all(&binary)?;
    let mut folders: Vec<&str> = Vec::new();
    for (path, contents) in files {
        for (end, _) in path.match_indices('/') {
            let folder = &path[..=end];
            if !folders.contains(&folder) {
                zip.add_directory(folder, options)?;
                folders.push(folder);
            }
        }
        zip.start_file(*path, options)?;
        zip.write_all(contents)?;
    }
    zip.finish()?;
    // Only a complete archive appears under the final name.
    std::fs::rename(&tmp, out)
}
