"""`python -m engine` is the `poker` command."""

from .cli import run

run()
