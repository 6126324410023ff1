# Quick start: `make demo` builds the demo site into build/html; `make test`
# runs every test; `make docs` builds the documentation into build/docs. Each
# creates .venv on first use. Venvs are made and filled by uv, which pip
# installs once into .venv-uv: a fresh machine needs only Python and make.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SPHINXOPTS ?= -W -n --keep-going
# Extra requirements, e.g. SPHINX_PIN='sphinx<9' VENV=.venv-sphinx8 to test Sphinx 8.
SPHINX_PIN ?=
# The extras a venv's tests need (the 7.2.6 line adds pytorch2, see below).
TEST_EXTRAS ?= demo,test,nvidia
# pytest-xdist: one worker per core, each test file whole in one worker (its
# module fixtures, such as the browser, made once). PYTEST_WORKERS= runs
# the tests in one process.
PYTEST_WORKERS ?= -n auto --dist loadfile
PYTEST := $(BIN)/python -m pytest $(PYTEST_WORKERS)

# The Sphinx lines between the oldest supported (7.2.6) and the newest (.venv's):
# `make test-matrix` runs the fast tests on each, in a venv of its own.
SPHINX_LINES := 7.3 7.4 8.0 8.1 8.2

.PHONY: demo test test-fast test-sphinx72 test-matrix test-pydata test-pydata-others \
	demo-pytorch2 test-pytorch2 docs \
	bench bench-read bench-incremental bench-themes catalog wheel screenshots clean

# uv never downloads a Python: each venv is made from $(PYTHON).
export UV_PYTHON_DOWNLOADS := never
UV_VENV := .venv-uv
UV := $(UV_VENV)/bin/uv

$(UV):
	$(PYTHON) -m venv $(UV_VENV)
	$(UV_VENV)/bin/python -m pip install --quiet 'uv==0.13.9'

# --seed: pip in the venv, which the tests of the installed wheel run.
$(BIN)/python: | $(UV)
	$(UV) venv --quiet --seed --python $(PYTHON) $(VENV)

# One stamp per extra, redone when the project's metadata changes.
INSTALL = $(UV) pip install --quiet --python $(BIN)/python

$(VENV)/.demo-installed: pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[demo]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

$(VENV)/.docs-installed: pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[docs]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(INSTALL) -e '.[$(TEST_EXTRAS)]' $(if $(SPHINX_PIN),'$(SPHINX_PIN)')
	touch $@

demo: $(VENV)/.demo-installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html demo build/html

docs: $(VENV)/.docs-installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html docs build/docs

test: $(VENV)/.test-installed
	$(PYTEST) $(PYTEST_ARGS)

# The tests not marked slow (no browser, no long hypothesis runs, no wheel).
test-fast: $(VENV)/.test-installed
	$(PYTEST) -m "not slow" $(PYTEST_ARGS)

# The oldest Sphinx supported, the one PyTorch's docs build with, in one venv
# with pytorch_sphinx_theme2 (which pins Sphinx 7.2.6 and pydata-sphinx-theme
# 0.15.4): every test, the theme's own included, then the pydata tests with
# the versions the venv does not hold.
SPHINX72 := VENV=.venv-sphinx72 SPHINX_PIN='sphinx==7.2.6' TEST_EXTRAS=demo,test,pytorch2,nvidia

PYDATA_SPHINX72 := 0.16.1 0.17.1

test-sphinx72:
	REPRODOCS_REQUIRE_PYTORCH2=1 $(MAKE) test $(SPHINX72)
	$(MAKE) test-pydata $(SPHINX72) PYDATA_VERSIONS='$(PYDATA_SPHINX72)'

# One target per line (`make -k test-matrix` goes on past a failing line).
test-matrix: $(addprefix test-sphinx-,$(SPHINX_LINES))

# The lines between: the fast tests with the line's own pydata-sphinx-theme
# (0.15.4 and 0.16.1 run on 7.2.6, 9.0 and 9.2, the oldest, Python 3.11's
# newest and the newest); they generate a third of the property tests' sites
# (tests/conftest.py's examples()), as CI's run of 9.0 does: 7.2.6 and 9.2
# generate them all.
test-sphinx-%:
	REPRODOCS_FEWER_EXAMPLES=1 $(MAKE) test-fast VENV=.venv-sphinx$(subst .,,$*) SPHINX_PIN='sphinx==$*.*'

# reprodocs.navigation's pydata-sphinx-theme tests with versions other than
# the one a venv holds: 0.15.4 (pytorch_sphinx_theme2's) and 0.16.1, which
# install on every line (CI runs them on 7.2.6, 9.0 and 9.2); `make
# test-pydata-others` adds the other versions the extension knows that no
# line gets, on .venv's Sphinx (9.0). Each version is installed
# without its dependencies (the venv's serve it) into the venv's pydata-V
# folder, put first on the path; the tests check that it is the one imported.
# A version's tests are one process, a target of their own (test-pydata-V):
# `make -j2 test-pydata` runs two versions at a time, which is quicker than
# pytest-xdist's workers on one file of 35 tests.
PYDATA_VERSIONS ?= 0.15.4 0.16.1
PYDATA_OTHERS := 0.18.0 0.20.0 0.21.0 0.22.0 0.23.0

$(VENV)/pydata-%/.installed: | $(VENV)/.test-installed
	$(INSTALL) --no-deps --target $(VENV)/pydata-$* 'pydata-sphinx-theme==$*'
	touch $@

test-pydata: $(addprefix test-pydata-,$(PYDATA_VERSIONS))

test-pydata-others: $(addprefix test-pydata-,$(PYDATA_OTHERS))

# The stamps are made by a pattern rule for a pattern rule: kept, not
# removed as intermediate files.
.PRECIOUS: $(VENV)/pydata-%/.installed

# A version the venv holds itself was tested with the line's own tests:
# not again.
test-pydata-%: $(VENV)/.test-installed $(VENV)/pydata-%/.installed
	@if [ "$$($(BIN)/python -c 'import pydata_sphinx_theme as t; print(t.__version__)')" = "$*" ]; then \
		echo "pydata-sphinx-theme $* is $(VENV)'s own: its tests ran with the line's"; \
	else \
		REPRODOCS_PYDATA_VERSION=$* PYTHONPATH=$(VENV)/pydata-$* \
			$(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS) tests/test_navigation_pydata*.py; \
	fi

# The demo inside pytorch_sphinx_theme2, PyTorch's docs theme, into
# build/html-pytorch2; and the tests that need the theme. Both in the 7.2.6
# line's venv, which holds it.
demo-pytorch2:
	$(MAKE) .venv-sphinx72/.test-installed $(SPHINX72)
	.venv-sphinx72/bin/sphinx-build $(SPHINXOPTS) -b html -c demo/pytorch2 demo build/html-pytorch2

PYTORCH2_TESTS := tests/test_pytorch2.py tests/test_navigation_themes.py \
	tests/test_navigation_pydata.py tests/test_navigation_markdown_copies.py \
	tests/test_navigation_pytorch_sphinx_theme2_header.py

test-pytorch2:
	REPRODOCS_REQUIRE_PYTORCH2=1 $(MAKE) test $(SPHINX72) PYTEST_ARGS='$(PYTEST_ARGS) $(PYTORCH2_TESTS)'

# Benchmarks (long: see docs/performance.rst). The themes compared come with
# the test extra (furo) or with Sphinx and reprodocs.
bench: bench-read bench-incremental bench-themes

$(VENV)/.bench-installed: pyproject.toml | $(VENV)/.test-installed
	$(INSTALL) -e '.[bench]'
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
	rm -rf build dist $(VENV) .venv-sphinx* .venv-py* $(UV_VENV)
