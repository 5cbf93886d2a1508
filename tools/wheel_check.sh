#!/usr/bin/env bash
# Use cardgen as most users get it: build the wheel from this checkout, install
# it into a fresh virtual environment in a temporary folder outside the
# checkout, and run there what the README shows. Fails on any non-zero exit,
# missing output, or a deprecation warning from our own pyproject.toml. The
# wheel is pure Python (py3-none-any): it is built and installed with no C
# compiler (CC and CXX point at /bin/false), and carries no compiled module.
#
#     make wheel-check        (CI runs it after make test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d "${TMPDIR:-/tmp}/cardgen-wheel.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "wheel-check: $*" >&2; exit 1; }
step() { echo "wheel-check: $*"; }

step "building the wheel from a clean copy of the checkout"
# a copy of the files git knows (no build/ or *.egg-info left by an editable
# install, which setuptools would silently take files from)
mkdir "$work/src"
git -C "$root" ls-files -z --cached --others --exclude-standard | (cd "$root" && tar --null -T - -cf -) \
    | tar -xf - -C "$work/src"
CC=/bin/false CXX=/bin/false \
    "$root/.venv/bin/python" -m pip wheel --no-deps --verbose --wheel-dir "$work/dist" "$work/src" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log" >&2; fail "the wheel did not build"; }
if grep -iE "deprecat" "$work/build.log" >&2; then
    fail "building the wheel printed the deprecation warnings above"
fi
wheel=$(ls "$work"/dist/cardgen-*.whl)
case "$(basename "$wheel")" in
    *-py3-none-any.whl) ;;
    *) fail "$(basename "$wheel") is not a pure Python wheel (py3-none-any)";;
esac
"$python" - "$wheel" "$root" <<'PY' || fail "the wheel lacks the files above or carries compiled code"
import sys, zipfile
from pathlib import Path
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
root = Path(sys.argv[2])
# every bundled deck, piece of art, sheet template, layout and font of the checkout
wanted = [f"cardgen/{p.relative_to(root).as_posix()}" for folder in ("decks", "art")
          for p in sorted((root / folder).rglob("*")) if p.is_file()]
wanted += [p.relative_to(root).as_posix() for folder in ("sheets", "layouts", "fonts", "serve_page")
           for p in sorted((root / "cardgen" / folder).glob("*")) if p.is_file()]
missing = [name for name in wanted if name not in names]
for name in missing:
    print(f"missing from the wheel: {name}", file=sys.stderr)
# pure Python: no compiled module, no C source
compiled = sorted(n for n in names if n.endswith((".so", ".pyd", ".dll", ".dylib", ".c")))
for name in compiled:
    print(f"compiled code in the wheel: {name}", file=sys.stderr)
sys.exit(1 if missing or compiled else 0)
PY

step "installing $(basename "$wheel") into a fresh virtual environment"
"$python" -m venv "$work/venv"
CC=/bin/false CXX=/bin/false "$work/venv/bin/python" -m pip install --quiet "$wheel" 2>"$work/install.log" \
    || { cat "$work/install.log" >&2; fail "pip install failed"; }
if grep -iE "deprecat" "$work/install.log" >&2; then
    fail "pip install printed the deprecation warnings above"
fi

mkdir "$work/user" && cd "$work/user"
cardgen=("$work/venv/bin/cardgen")
where=$("$work/venv/bin/python" -c "import cardgen; print(cardgen.__file__)")
case "$where" in "$work/venv/"*) ;; *) fail "cardgen was imported from $where, not the installed wheel";; esac

step "cardgen list"
"${cardgen[@]}" list >list.txt
for deck in common-carrier dotcombust clusterfuck; do
    grep -q "^  $deck " list.txt || { cat list.txt >&2; fail "cardgen list does not show $deck"; }
done

step "cardgen build (every bundled deck)"
"${cardgen[@]}" build
for pdf in common-carrier-player-1 common-carrier-player-2 dotcombust clusterfuck; do
    test -s "output/$pdf.pdf" || fail "cardgen build wrote no output/$pdf.pdf"
done

step "cardgen validate"
"${cardgen[@]}" validate

step "cardgen playtest common-carrier --games 20 --seed 1"
"${cardgen[@]}" playtest common-carrier --games 20 --seed 1 >playtest.txt
grep -q "20 games" playtest.txt || { cat playtest.txt >&2; fail "the playtest report does not say 20 games"; }

step "cardgen new demo && cardgen build demo/demo.yaml"
"${cardgen[@]}" new demo
"${cardgen[@]}" build demo/demo.yaml
test -s output/demo.pdf || fail "cardgen build demo/demo.yaml wrote no output/demo.pdf"

step "cardgen serve without its extra: exit 2, naming it"
code=0
timeout 30 "${cardgen[@]}" serve demo/demo.yaml --no-open --port 0 >serve.txt 2>&1 || code=$?
{ [ "$code" = 2 ] && grep -q "pip install 'cardgen\[serve\]'" serve.txt; } \
    || { cat serve.txt >&2; fail "cardgen serve without starlette exited $code, not 2 naming cardgen[serve]"; }

step "the example game plug-in: pip install examples/gops, then playtest its deck"
"$work/venv/bin/python" -m pip install --quiet --no-deps "$work/src/examples/gops" 2>"$work/plugin.log" \
    || { cat "$work/plugin.log" >&2; fail "the example plug-in did not install"; }
"${cardgen[@]}" validate "$work/src/examples/gops/gops.yaml" --games 5
"${cardgen[@]}" playtest "$work/src/examples/gops/gops.yaml" --games 20 --seed 1 >gops.txt
grep -q "Playtest: gops, 20 games" gops.txt || { cat gops.txt >&2; fail "the plug-in game did not playtest"; }

step "the installed wheel does what the README shows"
