//! Maps keyed by a configured name (an upstream's): their keys come from the config, never
//! from a client or an upstream, so no one can choose keys that collide, and every request
//! looks a few of them up. foldhash instead of SipHash for those lookups (about a fifth of
//! the instructions for a short name).

/// A map from a configured name.
pub type ByName<V> = std::collections::HashMap<String, V, foldhash::fast::RandomState>;
