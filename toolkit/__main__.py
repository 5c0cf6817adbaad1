import sys

from toolkit.cli.main import main

sys.exit(main())
