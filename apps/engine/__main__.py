"""`python -m apps.engine`: see apps/engine/cli.py."""

import sys

from apps.engine.cli import main

sys.exit(main())
