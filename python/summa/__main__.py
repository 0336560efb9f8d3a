"""python -m summa: the command line of summa.cli."""

import sys

from .cli import main

sys.exit(main())
