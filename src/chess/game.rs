//! A game of chess over shakmaty: history, endings, draw offers and claims.
