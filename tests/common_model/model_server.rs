//! The loopback model server, for files that include it with
//! `#[path = "common_model/model_server.rs"] mod model_server;`: a thin shim onto
//! `tests/it/support/model_server.rs`.
//! New tests belong in `tests/it/` as a module (see `tests/it/main.rs`); this shim keeps a
//! standalone `tests/*.rs` written against the old include path compiling unchanged.

#![allow(dead_code, unused_imports)]

// Another shim in the same test file may load the same file again: harmless, each is private.
#[allow(clippy::duplicate_mod)]
#[path = "../it/support/model_server.rs"]
mod server;

pub use server::*;
