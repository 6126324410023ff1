# Quick start: `make demo` builds the demo site into build/html; `make test`
# runs every test; `make docs` builds the documentation into build/docs. Each
# creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SPHINXOPTS ?= -W -n --keep-going
# Extra requirements, e.g. SPHINX_PIN='sphinx<9' VENV=.venv-sphinx8 to test Sphinx 8.
SPHINX_PIN ?=

# The Sphinx lines between the oldest supported (7.2.6) and the newest (.venv's):
# `make test-matrix` runs the fast tests on each, in a venv of its own.
SPHINX_LINES := 7.3 7.4 8.0 8.1 8.2

.PHONY: demo test test-fast test-sphinx72 test-matrix test-pydata test-pydata-others \
	demo-pytorch2 test-pytorch2 docs \
	bench bench-read bench-incremental bench-themes catalog wheel screenshots clean

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

# The tests not marked slow (no browser, no long hypothesis runs, no wheel).
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

# Every test on the oldest Sphinx supported, the one PyTorch's docs build with.
test-sphinx72:
	$(MAKE) test VENV=.venv-sphinx72 SPHINX_PIN='sphinx==7.2.6'
	$(MAKE) test-pydata VENV=.venv-sphinx72 SPHINX_PIN='sphinx==7.2.6'

# One target per line (`make -k test-matrix` goes on past a failing line).
test-matrix: $(addprefix test-sphinx-,$(SPHINX_LINES))

test-sphinx-%:
	$(MAKE) test-fast VENV=.venv-sphinx$(subst .,,$*) SPHINX_PIN='sphinx==$*.*'
	$(MAKE) test-pydata VENV=.venv-sphinx$(subst .,,$*) SPHINX_PIN='sphinx==$*.*'

# reprodocs.navigation's pydata-sphinx-theme tests with versions other than
# the one pip gives a venv: 0.15.4 (pytorch_sphinx_theme2's) and 0.16.1 on
# every line; `make test-pydata-others` adds the other versions the extension
# knows that no line gets, on .venv's Sphinx (9.0). Each version is installed
# without its dependencies (the venv's serve it) into the venv's pydata-V
# folder, put first on the path; the tests check that it is the one imported.
# One target per version (test-pydata-V), so that `make -j2` runs two at once.
PYDATA_VERSIONS ?= 0.15.4 0.16.1
PYDATA_OTHERS := 0.18.0 0.20.0 0.21.0 0.22.0 0.23.0

$(VENV)/pydata-%/.installed: | $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet --no-deps --target $(VENV)/pydata-$* 'pydata-sphinx-theme==$*'
	touch $@

test-pydata: $(addprefix test-pydata-,$(PYDATA_VERSIONS))

test-pydata-others: $(addprefix test-pydata-,$(PYDATA_OTHERS))

# The stamps are made by a pattern rule for a pattern rule: kept, not
# removed as intermediate files.
.PRECIOUS: $(VENV)/pydata-%/.installed

test-pydata-%: $(VENV)/.test-installed $(VENV)/pydata-%/.installed
	REPRODOCS_PYDATA_VERSION=$* PYTHONPATH=$(VENV)/pydata-$* \
		$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS) tests/test_navigation_pydata.py

# The demo inside pytorch_sphinx_theme2, PyTorch's docs theme, which pins
# Sphinx <= 7.2.6: in a venv of its own, into build/html-pytorch2.
PYTORCH2_VENV := .venv-pytorch2

$(PYTORCH2_VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(PYTORCH2_VENV)
	$(PYTORCH2_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(PYTORCH2_VENV)/bin/python -m pip install --quiet -e '.[demo,test,pytorch2]'
	touch $@

demo-pytorch2: $(PYTORCH2_VENV)/.installed
	$(PYTORCH2_VENV)/bin/sphinx-build $(SPHINXOPTS) -b html -c demo/pytorch2 demo build/html-pytorch2

# The demo's checks, and the pages with and without reprodocs.navigation.
test-pytorch2: $(PYTORCH2_VENV)/.installed
	REPRODOCS_REQUIRE_PYTORCH2=1 $(PYTORCH2_VENV)/bin/python -m pytest tests/test_pytorch2.py tests/test_navigation_themes.py tests/test_navigation_pydata.py tests/test_navigation_pytorch_sphinx_theme2.py

# Benchmarks (long: see docs/performance.rst). The themes compared come with
# the test extra (furo) or with Sphinx and reprodocs.
bench: bench-read bench-incremental bench-themes

$(VENV)/.bench-installed: pyproject.toml | $(VENV)/.test-installed
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

bench-read: $(VENV)/.bench-installed
	$(BIN)/python bench/read_phase.py

bench-incremental: $(VENV)/.bench-installed
	$(BIN)/python bench/incremental.py

bench-themes: $(VENV)/.bench-installed
	$(BIN)/python bench/themes.py --json bench/results/themes.json --plot docs/images/build-time.png

# Refresh the message template and the compiled catalogs after changing wording.
catalog: $(VENV)/.test-installed
	$(BIN)/pybabel extract -F babel.cfg -k _ -k __ -k reprodocs_gettext --no-location --omit-header \
		-o src/reprodocs/locale/reprodocs.pot src templates
	$(BIN)/pybabel update -D reprodocs -i src/reprodocs/locale/reprodocs.pot \
		-d src/reprodocs/locale --no-fuzzy-matching
	$(BIN)/pybabel compile -D reprodocs -d src/reprodocs/locale --statistics

# The pictures of the theme (docs/images), taken with the system's Chromium;
# one of the demo in Simplified Chinese, for the theme's translated words.
screenshots: demo $(VENV)/.test-installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html -D language=zh_CN demo build/html-zh_CN
	$(BIN)/python scripts/screenshots.py build/html build/html-zh_CN

wheel: $(VENV)/.test-installed
	$(BIN)/python -m pip wheel --quiet --no-deps -w dist .

clean:
	rm -rf build dist $(VENV) .venv-sphinx* .venv-py* $(PYTORCH2_VENV)
