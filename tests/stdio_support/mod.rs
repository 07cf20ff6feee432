//! The stdio and legacy-SSE tests' helpers, for files that include them with
//! `#[path = "stdio_support/mod.rs"] mod support;`: a thin shim onto the one support library,
//! `tests/it/support/` (its `stdio` vocabulary: `Scratch`, `Guarded`, `Gateway`, `http`,
//! `procs`, `py_client`, `ts_client`, `listed`, `steps`, ...).
//! New tests belong in `tests/it/` as a module (see `tests/it/main.rs`); this shim keeps a
//! standalone `tests/*.rs` written against the old include path compiling unchanged.

#![allow(dead_code, unused_imports)]

// Another shim in the same test file may load the same file again: harmless, each is private.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/mod.rs"]
mod library;

pub use library::stdio::*;
