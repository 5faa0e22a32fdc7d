# Opening names (src/chess/opening): the family of a lichess name
# ("Italian Game" of "Italian Game: Giuoco Pianissimo"). English shows
# lichess's own words; other languages choose by the family's key.
opening-family = { $family ->
   *[other] { $name }
}

# A translated family and lichess's variation ("Sicilian Defense: Najdorf
# Variation"), joined as the language joins a name to its detail.
opening-with-variation = { $family }: { $variation }
