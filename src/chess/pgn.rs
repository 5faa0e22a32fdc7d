//! PGN export and import.
