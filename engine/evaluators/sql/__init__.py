"""The compiled evaluator: the rule language IR rendered to SQL and run set-at-a-time on DuckDB."""
