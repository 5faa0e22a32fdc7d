//! Time controls (correspondence days, live base+increment, multi-stage) and deadlines.
