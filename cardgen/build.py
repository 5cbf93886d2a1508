"""The build pipeline: prepared decks -> checks -> every format's files.

Everything ``cardgen build`` does is here and callable from Python:
``build_decks(["my-deck.yaml"], Path("output"), BuildSettings())``. The
decks come from ``prepare`` and the writers from the ``export`` registry, so
this module names no format and no game.
"""
from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CardgenError
from .export import FORMATS, DeckJob, Export, Output
from .findings import Finding, strictly
from .model import Deck
from .preflight import Check
from .prepare import BuildSettings, deck_faces, deck_template, plan_outputs, prepare_decks
from .render.faces import Faces
from .validate import structural_findings


@dataclass
class BuildResult:
    deck: Deck
    warnings: list[Finding]
    faces: Faces | None = None
    #: what each format wrote, in the order of ``export.FORMATS``
    exports: list[Export] = field(default_factory=list)


class DeckUnplayable(CardgenError):
    """The structural checks found errors; ``findings`` lists them all."""

    def __init__(self, deck: Deck, findings: list[Finding]):
        lines = "\n".join(f"  {f}" for f in findings)
        super().__init__(f"deck '{deck.id}' cannot be played as built ({len(findings)} problem"
                         f"{'s' if len(findings) != 1 else ''}); fix it or use --no-validate:\n{lines}")
        self.findings = findings


def build_decks(names: Sequence[str], out_dir: Path, settings: BuildSettings) -> list[BuildResult]:
    """Build every named deck (bundled ids or YAML paths; none: every bundled deck) into ``out_dir``.

    All decks are loaded, customised and checked before any file is written,
    so bad input anywhere leaves the output folder as it was.
    """
    with _old_objects_left_alone():
        return _build_decks(names, out_dir, settings)


@contextmanager
def _old_objects_left_alone() -> Iterator[None]:
    """While a build runs, the garbage collector leaves alone the objects alive when it began (the
    imported modules of reportlab, Pillow and cardgen, some hundred thousand), and collects less
    often: a build makes small objects by the hundred thousand that live until it ends (each face's
    plan, each shaped word), and at Python's default pace (a collection every 700 new objects) a
    large build spent a quarter of its time walking them again. What it leaves is cyclic garbage
    only, a few megabytes for 10,000 cards; the old objects and the old pace come back when the
    build ends."""
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], _BUILD_THRESHOLD), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


#: new objects between two collections of the youngest generation while building (Python's default 700)
_BUILD_THRESHOLD = 100_000


def _build_decks(names: Sequence[str], out_dir: Path, settings: BuildSettings) -> list[BuildResult]:
    from .progress import expect

    results: list[BuildResult] = []
    jobs: list[DeckJob] = []
    for deck in prepare_decks(names, settings):
        template = deck_template(deck, settings)
        if settings.one_pdf and jobs and template != jobs[0].template:
            raise CardgenError(f"--one-pdf: deck '{deck.id}' prints on {template.name} and deck "
                               f"'{jobs[0].deck.id}' on {jobs[0].template.name}; one PDF takes one sheet")
        outputs = plan_outputs(deck, out_dir)
        # planning every face, then writing every card of every format
        expect(len(deck.cards) + len(settings.formats) * sum(o.count for o in outputs))
        faces = deck_faces(deck, template)
        warnings: list[Finding] = []
        if settings.validate:
            findings = structural_findings(deck, template, faces)
            if settings.strict:
                findings = strictly(findings)
            errors = [f for f in findings if f.severity == "error"]
            if errors:
                raise DeckUnplayable(deck, errors)
            warnings = [f for f in findings if f.severity != "error"]
        results.append(BuildResult(deck, warnings, faces))
        jobs.append(DeckJob(deck, outputs, template, faces))
    check_outputs([(job.deck, job.outputs) for job in jobs], out_dir, settings.formats)
    for fmt in FORMATS.values():
        if fmt.name in settings.formats:
            fmt.write(jobs, out_dir, {name: getattr(settings, name) for name in fmt.options})
    for result, job in zip(results, jobs):
        result.exports = job.exports
    if settings.strict:
        preflight_written(results, settings.color_space)
    return results


class PreflightFailed(CardgenError):
    """``build --strict``: a PDF the build wrote fails a print shop's preflight; exit 1, and the
    PDFs of the build are removed."""

    exit_code = 1

    def __init__(self, checks: Sequence[Check]):
        lines = "\n".join(f"  {c}" for c in checks)
        super().__init__(f"--strict: {len(checks)} preflight problem{'s' if len(checks) != 1 else ''} in "
                         f"what the build wrote, so its PDFs are removed:\n{lines}")
        self.checks = list(checks)


def preflight_written(results: Sequence[BuildResult], color_space: str) -> None:
    """Run ``cardgen preflight`` on every PDF the build wrote (in the build's colour space, against the
    size it wrote into each); on a problem remove them all and raise PreflightFailed."""
    from .preflight import preflight, problems

    pdfs = [e.path for r in results for e in r.exports if e.path.suffix.lower() == ".pdf" and e.path.is_file()]
    found = [c for path in pdfs for c in problems(preflight(path, color_space=color_space))]
    if found:
        for path in pdfs:
            path.unlink(missing_ok=True)
        raise PreflightFailed(found)


def check_outputs(planned: Sequence[tuple[Deck, Sequence[Output]]], out_dir: Path,
                  formats: Sequence[str]) -> None:
    """Before anything is written: no two outputs claim one name in ``out_dir`` in any of the
    ``formats`` (each format declares the files it writes after an output's stem: deck ``x``'s
    ``x-cards.pdf`` and deck ``x-cards``'s ``x-cards.pdf`` collide), and nothing in the way is
    replaced unless it is a regular file."""
    from .files import check_output

    if out_dir.exists() and not out_dir.is_dir():
        raise CardgenError(f"--out {out_dir} is not a folder")
    # a pattern without * is one file for the whole build (a format combining the decks)
    claims = [(fmt.name, pattern) for fmt in FORMATS.values() if fmt.name in formats for pattern in fmt.files
              if "*" in pattern]
    owners: dict[str, tuple[str, str]] = {}
    for deck, outputs in planned:
        for output in outputs:
            source = f"deck '{deck.id}' ({deck.path})" + (f", player '{output.player.name}'" if output.player
                                                         else "")
            for fmt, pattern in claims:
                name = pattern.split("/")[0].replace("*", output.path.stem)
                owner, owner_format = owners.setdefault(name.casefold(), (source, fmt))
                if owner != source:
                    how = ("" if owner_format == fmt else f" as {owner_format}", "" if owner_format == fmt
                           else f" as {fmt}")
                    raise CardgenError(f"{name} would be written twice: for {owner}{how[0]} and for "
                                       f"{source}{how[1]}; give the decks different ids or the players "
                                       f"different names")
                if "/" not in pattern:
                    check_output(out_dir / name, "another --out")
