"""`python -m toolkit …`: the same program as the `toolkit` command.

Run only as the main module: a documentation tool that imports every module (pdoc, Sphinx's
autosummary, `pydoc -w`) imports this one too, and must not get the program's exit.
"""

import sys

from toolkit.cli.main import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m toolkit"))
