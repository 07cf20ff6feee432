//! Stage 3: judges. A model over any OpenAI-compatible endpoint, and the heuristic judge that
//! answers offline, deterministically, in microseconds, with the same answer contract.

pub mod heuristic;
