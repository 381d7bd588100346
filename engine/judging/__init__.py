"""Judging: which proofs license reading the five-card table (policy, proofs), the table, and verdicts read off it."""
