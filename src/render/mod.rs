//! Board images: position → PNG bytes in memory, and GIF replays.
