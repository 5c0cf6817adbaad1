"""`python -m toolkit …`: the same program as the `toolkit` command."""

import sys

from toolkit.cli.main import main

sys.exit(main(prog="python -m toolkit"))
