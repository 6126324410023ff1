# Quick start: `make demo` builds the demo site into build/html; `make test`
# runs every test; `make docs` builds the documentation into build/docs. Each
# creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SPHINXOPTS ?= -W -n --keep-going
# Extra requirements, e.g. SPHINX_PIN='sphinx<9' VENV=.venv-sphinx8 to test Sphinx 8.
SPHINX_PIN ?=

.PHONY: demo docs test bench bench-read bench-incremental bench-themes catalog wheel screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# One stamp per extra, redone when the project's metadata changes.
$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[demo]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

$(VENV)/.docs-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[demo,test]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

demo: $(VENV)/.demo-installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html demo build/html

docs: $(VENV)/.docs-installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html docs build/docs

test: $(VENV)/.test-installed
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Benchmarks (long: see docs/performance.rst). Peers that pin an old Sphinx
# go, without their dependencies, to a directory only their runs see.
bench: bench-read bench-incremental bench-themes

$(VENV)/.bench-installed: pyproject.toml | $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m pip install --quiet --no-deps --target bench/_work/peers \
		pytorch_sphinx_theme2==0.4.13 pydata-sphinx-theme==0.15.4 accessible-pygments
	touch $@

bench-read: $(VENV)/.bench-installed
	$(BIN)/python bench/read_phase.py

bench-incremental: $(VENV)/.bench-installed
	$(BIN)/python bench/incremental.py

bench-themes: $(VENV)/.bench-installed
	$(BIN)/python bench/themes.py --json bench/_work/themes.json --plot docs/images/build-time.png

# Refresh the message template and the compiled catalogs after changing wording.
catalog: $(VENV)/.test-installed
	$(BIN)/pybabel extract -F babel.cfg -k _ -k __ --no-location --omit-header \
		-o src/reprodocs/locale/reprodocs.pot src templates
	$(BIN)/pybabel update -D reprodocs -i src/reprodocs/locale/reprodocs.pot \
		-d src/reprodocs/locale --no-fuzzy-matching
	$(BIN)/pybabel compile -D reprodocs -d src/reprodocs/locale --statistics

# The pictures of the theme (docs/images), taken with the system's Chromium.
screenshots: demo $(VENV)/.test-installed
	$(BIN)/python scripts/screenshots.py build/html

wheel: $(VENV)/.test-installed
	$(BIN)/python -m pip wheel --quiet --no-deps -w dist .

clean:
	rm -rf build dist $(VENV)
