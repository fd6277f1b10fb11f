"""Run the command line: ``python -m commerce``."""

import sys

from commerce.cli import main

sys.exit(main())
