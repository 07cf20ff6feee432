//! A real PostgreSQL for one test, for files that include it with
//! `#[path = "pg_support/mod.rs"] mod pg_support;`: a thin shim onto
//! `tests/it/support/pg.rs`.
//! New tests belong in `tests/it/` as a module (see `tests/it/main.rs`); this shim keeps a
//! standalone `tests/*.rs` written against the old include path compiling unchanged.

#![allow(dead_code, unused_imports)]

// Another shim in the same test file may load the same file again: harmless, each is private.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/pg.rs"]
mod pg;

pub use pg::*;

/// What the helpers reach as `super::patience`: the waits' patience factor.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/patience.rs"]
mod patience;
