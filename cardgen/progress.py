"""A progress bar for long work, on a terminal only, and only once the work has taken a second.

Piped output, ``--json`` and tests see nothing: the bar is written to
standard error when it is a terminal, redrawn at most ten times a second,
and wiped when the work ends.
"""
from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO


class Progress:
    """``advance(n)`` as work gets done; ``close()`` (or leaving the ``with``) when it ends."""

    def __init__(self, label: str, total: int = 0, stream: TextIO | None = None, delay: float = 1.0,
                 enabled: bool | None = None):
        self.total = total
        self.label = label
        self.stream = stream or sys.stderr
        self.delay = delay
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.shown = False

    def advance(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        if not self.enabled or not self.total:
            return
        now = time.monotonic()
        if now - self.started < self.delay or (now - self.drawn_at < 0.1 and self.done < self.total):
            return
        self.drawn_at = now
        width = 30
        filled = round(width * self.done / self.total)
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] "
                          f"{self.done}/{self.total} {now - self.started:.0f} s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (len(self.label) + 60) + "\r")
            self.stream.flush()
            self.shown = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_current: ContextVar[Progress | None] = ContextVar("cardgen_progress", default=None)


@contextmanager
def reporting(progress: Progress) -> Iterator[Progress]:
    """Let library code below report to ``progress`` (through ``expect`` and ``tick``)."""
    token = _current.set(progress)
    try:
        yield progress
    finally:
        _current.reset(token)
        progress.close()


def expect(n: int) -> None:
    """More work is coming: ``n`` more steps."""
    progress = _current.get()
    if progress is not None:
        progress.total += n


def tick(n: int = 1) -> None:
    """``n`` steps of work are done (nothing happens when no bar is shown)."""
    progress = _current.get()
    if progress is not None:
        progress.advance(n)
