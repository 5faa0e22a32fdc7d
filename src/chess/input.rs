//! Move input: every form a person types, read against a position.
