"""`python -m engine` is the `poker` command."""

from engine.cli import run

if __name__ == "__main__":      # not when a spawned process (a local cluster's worker) imports it
    run()
