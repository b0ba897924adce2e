"""``python -m fracas``: the same command line as ``fracas``."""

import sys

from fracas.cli import main

sys.exit(main())
