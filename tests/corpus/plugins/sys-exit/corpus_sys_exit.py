"""A broken plug-in game for tests/corpus (issue 26): calls sys.exit(3) on import."""

import sys

sys.exit(3)
