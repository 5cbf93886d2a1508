"""Compare two runs of tools/output_digests.sh: the files that differ and the reports that differ,
timing fields aside. Exits 1 when anything differs."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

TIMING = re.compile(r"seconds|per_second|elapsed|time|cpu", re.I)


def strip(value):
    """A report without the figures that depend on the machine."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if not TIMING.search(k)}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def main(before: Path, after: Path) -> int:
    differences = []
    for report in sorted((before / "json").glob("*.json")):
        other = after / "json" / report.name
        try:
            same = strip(json.loads(report.read_text())) == strip(json.loads(other.read_text()))
        except (OSError, ValueError) as exc:
            differences.append(f"report {report.name}: {exc}")
            continue
        if not same:
            differences.append(f"report {report.name} differs")
    files_before = dict(line.split()[::-1] for line in (before / "pdf.md5").read_text().splitlines())
    files_after = dict(line.split()[::-1] for line in (after / "pdf.md5").read_text().splitlines())
    for name in sorted(set(files_before) | set(files_after)):
        if files_before.get(name) != files_after.get(name):
            state = "missing" if name not in files_after else "new" if name not in files_before else "differs"
            differences.append(f"file {name} {state}")
    reports = len(list((before / "json").glob("*.json")))
    print("\n".join([*differences, f"{len(files_before)} files, {reports} reports; differences: {len(differences)}"]))
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
