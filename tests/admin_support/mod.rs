//! The admin tests' helpers, for files that include them with
//! `#[path = "admin_support/mod.rs"] mod admin;` next to `mod support;` (the gateway helpers):
//! a thin shim onto `tests/it/support/admin.rs`, which works on the includer's own `Rig` and
//! `Upstream`, as before.
//! New tests belong in `tests/it/` as a module (see `tests/it/main.rs`); this shim keeps a
//! standalone `tests/*.rs` written against the old include path compiling unchanged.

#![allow(dead_code, unused_imports)]

// Another shim in the same test file may load the same file again: harmless, each is private.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/admin.rs"]
mod helpers;

pub use helpers::*;

/// What `admin.rs` reaches as `super::rig`: the includer's gateway helpers.
mod rig {
    pub use super::super::support::{Rig, Upstream};
}

/// What the helpers reach as `super::patience`: the waits' patience factor.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/patience.rs"]
mod patience;
