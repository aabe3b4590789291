//! The loader's own message for binaries it refuses.

use super::*;
use import_support::compile_shared_with;

/// A 64-byte ELF header: `class` 1 (32-bit) or 2 (64-bit), `machine` (3 = i386, 62 = x86-64,
/// 183 = AArch64), type ET_DYN, no program headers.
fn elf_header(class: u8, machine: u16) -> Vec<u8> {
    let mut bytes = vec![0u8; 64];
    bytes[..7].copy_from_slice(&[0x7f, b'E', b'L', b'F', class, 1, 1]);
    bytes[16..18].copy_from_slice(&3u16.to_le_bytes());
    bytes[18..20].copy_from_slice(&machine.to_le_bytes());
    bytes[20..24].copy_from_slice(&1u32.to_le_bytes());
    bytes
}

fn load_error(dir: &Path, file: &str, binary: &[u8]) -> (PathBuf, ImportError) {
    let path = ball_archive(dir, file, binary);
    let err = Fmu::open(&path).unwrap_err();
    (path, err)
}

#[test]
fn wrong_architecture_binary_gives_the_loaders_reason() {
    let dir = tempfile::tempdir().unwrap();
    for (file, binary, reason) in [
        ("Elf32.fmu", elf_header(1, 3), "wrong ELF class: ELFCLASS32"),
        // glibc says "cannot open shared object file: No such file or directory" here.
        ("Aarch64.fmu", elf_header(2, 183), "an ELF file for AArch64 (e_machine 183)"),
        ("Text.fmu", format!("#!/bin/sh\n{}\n", "# not a library ".repeat(16)).into_bytes(), "invalid ELF header"),
    ] {
        let (path, err) = load_error(dir.path(), file, &binary);
        let ImportError::LoadLibrary { message, .. } = &err else { panic!("{file}: {err:?}") };
        let text = err.to_string();
        assert!(text.starts_with(&format!("{}: cannot load binaries/linux64/Ball.so: ", path.display())), "{text}");
        assert!(message.contains(reason), "{file}: {text}");
        assert!(!message.starts_with("No such file"), "{text}");
        assert!(text.contains(", not a Linux x86-64 shared library)"), "{file}: {text}");
    }
}

#[test]
fn missing_dependency_is_named() {
    let dir = tempfile::tempdir().unwrap();
    // A binary linked against libballdep.so, which the FMU does not ship.
    let dep = compile_shared(dir.path(), "libballdep", "int ball_dep(void) { return 1; }\n");
    std::fs::write(dir.path().join("libballdep.so"), dep).unwrap();
    let ball = compile_shared_with(
        dir.path(),
        "ball",
        &format!("int ball_dep(void);\nint ball_uses_dep(void) {{ return ball_dep(); }}\n{BALL_C}"),
        &["-Wl,--no-as-needed", &format!("-L{}", dir.path().display()), "-lballdep"],
    );
    let (path, err) = load_error(dir.path(), "NeedsDep.fmu", &ball);
    let text = err.to_string();
    assert!(text.starts_with(&format!("{}: cannot load binaries/linux64/Ball.so: ", path.display())), "{text}");
    assert!(text.contains("libballdep.so: cannot open shared object file: No such file or directory"), "{text}");
    assert!(text.contains("a library it depends on is missing: libballdep.so"), "{text}");
}
