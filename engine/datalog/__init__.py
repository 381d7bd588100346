"""The rule language: the intermediate form of the checked clauses, its analyses and passes."""
