"""``python -m fde_client`` is the same as the ``fde`` console script."""

import sys

from fde_client.cli import main

sys.exit(main())
