"""`python -m engine` is the `poker` command."""

from engine.cli import run

run()
