"""The rule language: rule files read and checked (the one gate), rule sets, the IR and its passes.

Nothing here knows poker, pyDatalog or DuckDB."""
