//! The heuristic judge (placeholder module; being written).
