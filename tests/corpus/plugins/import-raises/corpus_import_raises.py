"""A broken plug-in game for tests/corpus (issue 26): raises on import."""

raise RuntimeError('the plug-in is broken')
