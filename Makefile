# Both targets set themselves up from nothing: a Python 3.10+ and make are all they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test test-browser check system-packages bench fuzz wheel-check clean

build: $(STAMP)
	$(BIN)/cardgen build --out output

# the quality bar first (ruff and mypy, configured in pyproject.toml), then the suite
test: check system-packages
	$(BIN)/python -m pytest

# Debian packages the tests need (fonts for every script, fontconfig, pdffonts, ghostscript), installed if missing
system-packages:
	bash tools/system_packages.sh

# the browser test alone (tests/test_serve_browser.py): Debian's headless Chromium, installed when
# missing (tools/system_packages.sh browser), driven by Playwright; `make test` leaves it out
test-browser: $(STAMP) $(VENV)/.playwright
	bash tools/system_packages.sh browser
	$(BIN)/python -m pytest -m browser

$(VENV)/.playwright: $(STAMP)
	$(BIN)/python -m pip install --quiet --quiet 'playwright>=1.40'
	touch $@

check: $(STAMP)
	$(BIN)/ruff check
	$(BIN)/mypy

# build the wheel, install it in a fresh venv outside the checkout, use it as a user would
wheel-check: $(STAMP)
	bash tools/wheel_check.sh

# the long hostile-input profile: 10,000 mutated decks, each in its own process under time and memory limits; 10,000
# mutated SVG, font and XLSX files (two runs of 5,000 side by side, each input in a child forked from a warmed-up
# process, under the same limits); then 100 builds killed at random moments
fuzz: $(STAMP)
	$(BIN)/python tools/fuzz.py --decks 10000 --seed 1
	$(BIN)/python tools/fuzz.py --kind svg --kind font --kind xlsx --decks 5000 --seed 1 --fork & first=$$!; \
	$(BIN)/python tools/fuzz.py --kind svg --kind font --kind xlsx --decks 5000 --seed 2 --fork; second=$$?; \
	wait $$first && test $$second -eq 0
	$(BIN)/python tools/killtest.py --runs 100 --seed 1

bench: $(STAMP)
	$(BIN)/python bench/build.py
	$(BIN)/python bench/layout.py
	$(BIN)/python bench/export.py
	$(BIN)/python bench/playtest.py
	$(BIN)/python bench/pdffont.py
	$(BIN)/python bench/serve.py
	$(BIN)/python bench/search.py

$(STAMP): pyproject.toml examples/gops/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --quiet -e '.[test]'
	# the example game plug-in, so the conformance test covers a third-party game too
	$(BIN)/python -m pip install --quiet --quiet --no-deps -e examples/gops
	touch $(STAMP)

clean:
	rm -rf $(VENV) output/*.pdf output/*.png
