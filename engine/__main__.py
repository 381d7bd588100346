"""`python -m engine` is the `poker` command."""

import sys

from .cli import main

sys.exit(main())
