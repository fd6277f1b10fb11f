import sys

from commerce.cli import main

sys.exit(main())
