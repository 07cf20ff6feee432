//! The way to reach the reference implementation (`tdqs==0.1.0`, a test oracle only), and the
//! corpus generator of the differential test ([`corpus`], re-exported here for the differential
//! tests).

pub use super::corpus;

use std::path::PathBuf;

/// The repository root (where `Cargo.toml` lives).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Cargo's target directory: `CARGO_TARGET_DIR` when set, else `<repo>/target`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() { dir } else { repo_root().join(dir) }
        }
        None => repo_root().join("target"),
    }
}

/// The Python interpreter that has the reference installed: `TDQS_ORACLE_PYTHON` when set,
/// else `<repo>/.venv/bin/python`. Panics, with the way to fix it, when it does not exist: a
/// differential test without its oracle must fail, never pass silently.
pub fn oracle_python() -> PathBuf {
    let python = match std::env::var_os("TDQS_ORACLE_PYTHON") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => repo_root().join(".venv").join("bin").join("python"),
    };
    assert!(
        python.exists(),
        "the reference implementation is not installed: {} does not exist.\n\
         Run `scripts/oracle-venv.sh` (creates .venv with tdqs==0.1.0), \
         or point TDQS_ORACLE_PYTHON at a python that has tdqs==0.1.0.",
        python.display()
    );
    python
}

/// Reads an environment variable as a number (decimal, or hex with `0x`).
pub fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim().replace('_', "");
    let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => v.parse(),
    };
    Some(parsed.unwrap_or_else(|_| panic!("{name}={v:?} is not a number")))
}
