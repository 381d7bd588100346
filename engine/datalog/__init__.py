"""The rule language: rule files read and checked (the one gate), rule sets, the intermediate form of the
checked clauses, its analyses and passes.  Nothing here knows poker, pyDatalog or DuckDB."""
