"""cardgen: print-and-play business-card decks from YAML, with a rules validator and playtests.

The command line is ``cardgen.cli``; the library's entry points are
``cardgen.build.build_decks``, ``cardgen.validate.validate_decks`` and
``cardgen.playtest.run_playtest``.
"""
