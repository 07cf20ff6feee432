//! The one support library of the integration tests (`tests/it/`), a file per idea:
//!
//! - [`paths`]: where things are (the repository, the rigs, the venvs, the gateway binary);
//! - [`scratch`]: one scratch folder per test, kept when the test fails;
//! - [`process`]: one process guard, which ends the process group on drop, and `run_to_exit`
//!   for a process that must end by itself (a `serve` refusing its config, ...);
//! - [`procs`]: the process table from /proc;
//! - [`patience`]: `eventually(cond)`, every wait scaled by `TDQS_TEST_PATIENCE`;
//! - [`rng`]: one seeded random number generator;
//! - [`fuzz`]: the fuzz targets' budget, mutator, hostile text and tally;
//! - [`gateway`]: one way to start the gateway (port 0, the address read back from its log);
//! - [`mcp`]: one raw MCP client (Streamable HTTP, SSE read event by event);
//! - [`wrap`]: one way to start `tdqs-gateway wrap` and speak to it over its stdin and stdout;
//! - [`clients`]: the real SDK clients of the rigs;
//! - [`model_server`], [`pg`], [`telemetry`] and [`prometheus`]: a fake model provider, a real
//!   PostgreSQL, an OTLP collector and a real Prometheus; [`oidc`]: a real authorization server;
//! - [`browser`]: headless Chromium over WebDriver, for the dashboard;
//! - [`jwt`]: tokens the tests sign with a shared secret;
//! - [`meta`], [`tap`], [`admin`], [`corpus`], [`oracle`], [`holes`]: what single areas need.
//!
//! Two vocabularies gather what the two families of tests use under short names: [`rig`] (a
//! [`rig::Rig`] of Python SDK upstreams, the gateway tests' words) and [`stdio`] (the stdio and
//! legacy-SSE tests' words). Both start the same [`gateway::Gateway`] and hold their processes
//! with the same guard.

// A library: not every test uses every helper, nor every name of the two vocabularies.
#![allow(dead_code, unused_imports)]

pub mod admin;
pub mod browser;
pub mod clients;
pub mod corpus;
pub mod fuzz;
pub mod gateway;
pub mod holes;
pub mod jwt;
pub mod mcp;
pub mod meta;
pub mod model_server;
pub mod oidc;
pub mod oracle;
pub mod paths;
pub mod patience;
pub mod pg;
pub mod process;
pub mod procs;
pub mod prometheus;
pub mod rig;
pub mod rng;
pub mod scratch;
pub mod stdio;
pub mod tap;
pub mod telemetry;
pub mod wrap;
