"""pyDatalog, the reference: imported lazily, its Logic per engine, clauses built in it, queries asked of it."""
