"""Pure poker helpers: card notation, best-of-seven arithmetic, matchups and ranges.  No rules are asked here."""
