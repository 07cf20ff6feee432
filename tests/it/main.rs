//! The integration tests, in one binary: a module per area (run one with
//! `cargo nextest run --test it <area>::`), and one support library, [`support`]. One binary
//! links the crate once instead of once per area.
//!
//! Everything is a module here; a test that had to stay a binary of its own (one that sets
//! process-global state, say) would be a file in `tests/` stating why at its top.

mod support;

mod admin_api;
mod admin_browser;
mod cli;
mod cli_scan;
mod deploy;
mod fuzz_json;
mod fuzz_reader;
mod fuzz_sse;
mod fuzz_threat;
mod fuzz_tools_list;
mod gateway_annotate;
mod gateway_auth;
mod gateway_auth_flood;
mod gateway_auth_jwks;
mod gateway_auth_python;
mod gateway_auth_rules;
mod gateway_auth_tokens;
mod gateway_client_clocks;
mod gateway_clients;
mod gateway_conformance;
mod gateway_conformance_auth;
mod gateway_enforce;
mod gateway_faults;
mod gateway_guards;
mod gateway_h1;
mod gateway_h1_attacks;
mod gateway_holes;
mod gateway_keepalive;
mod gateway_observe;
mod gateway_order;
mod gateway_pagination;
mod gateway_protocol;
mod gateway_refinement;
mod gateway_runtime;
mod gateway_sdk2;
mod gateway_sessions;
mod gateway_streams;
mod gateway_threats;
mod gateway_upstream_client;
mod gateway_upstream_oauth;
mod heuristic_calibration;
mod heuristic_golden;
mod heuristic_metamorphic;
mod heuristic_speed;
mod house;
mod judge_client;
mod judge_disagreement;
mod legacy_sse;
mod list_cost;
mod oracle_diff;
mod pin_rename;
mod score_diff;
mod stdio_failures;
mod stdio_load;
mod stdio_servers;
mod stdio_sessionless;
mod stdio_uninspected;
mod stdio_wrap;
mod store_fleet;
mod store_gateway;
mod store_postgres;
mod store_restart;
mod telemetry_otlp;
mod telemetry_prometheus;
mod threat_corpus;
mod threat_golden;
mod wrap_learn;
mod wrap_list_changed;
