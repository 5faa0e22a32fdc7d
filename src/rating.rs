//! The club level/points rating scheme, exact in integer hundredths.
