# The two commands: `make run` (the site on the embedded default) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest worker beat serve migrate clean catalogues messages lock upgrade

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Every install takes exactly the locked versions (requirements/*.txt, with hashes: pip refuses anything
# else), then the project itself without its dependencies, built by the locked setuptools. Stamps
# reinstall only when the lock or pyproject.toml changes.
$(VENV)/.installed: requirements/runtime.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/runtime.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(VENV)/.installed-dev: requirements/dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@ $(VENV)/.installed

# The lockfiles, from pyproject.toml (+ requirements/build.in: pip and setuptools), for every platform
# and Python 3.11+. `make lock` after changing a dependency keeps every other pin; `make upgrade` moves
# every pin to the newest release the ranges in pyproject.toml allow. The dev set is resolved under the
# runtime set's pins, so the two never disagree. See docs/operations.md, "Dependencies".
UV_COMPILE = $(BIN)/uv pip compile pyproject.toml requirements/build.in --universal --python-version 3.11 \
	--generate-hashes --quiet

lock: $(VENV)/.installed-dev
	$(UV_COMPILE) $(UPGRADE) -o requirements/runtime.txt
	$(UV_COMPILE) $(UPGRADE) --extra dev -c requirements/runtime.txt -o requirements/dev.txt

upgrade:
	$(MAKE) lock UPGRADE=--upgrade

migrate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_catalog

# The translations (locale/, SPEC 12): compiled with msgfmt when GNU gettext is installed, else by the
# site's own pure-Python compiler (rummysite/catalogues.py), so a fresh clone serves Romanian either way.
catalogues: $(VENV)/.installed
	$(BIN)/python -m rummysite.catalogues compile

# After adding or changing user-facing strings: re-extract them (templates, Python, the table's strings
# in apps/tables/ui_strings.py) and the Django/allauth strings the site shows, then translate what comes
# out empty or fuzzy (locale/GLOSSARY.md has the words) until every count below says 0. Needs GNU
# gettext (apt-get install gettext). tests/site/test_catalogues.py fails while anything is left.
messages: $(VENV)/.installed
	$(BIN)/python -m rummysite.catalogues extract
	$(BIN)/python -m rummysite.catalogues overrides
	$(BIN)/python -m rummysite.catalogues compile
	@for po in $$(find locale -name '*.po' | sort); do printf '%s: ' "$$po"; msgfmt --check --statistics -o /dev/null "$$po"; done

run: migrate catalogues
	@echo ""
	@echo "  Tile Rummy is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@echo ""
	$(BIN)/daphne -b $(HOST) -p $(PORT) --websocket-max-message-size 65536 --websocket-max-frame-size 65536 rummysite.asgi:application

# The real stack's extra processes (set DATABASE_URL and REDIS_URL first; see README.md).
worker: $(VENV)/.installed
	$(BIN)/celery -A rummysite worker --loglevel=INFO

beat: $(VENV)/.installed
	$(BIN)/celery -A rummysite beat --loglevel=INFO --schedule=$${CELERY_BEAT_SCHEDULE_FILENAME:-/tmp/rummy-celerybeat-schedule}

test: $(VENV)/.installed-dev lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

# mypy, strict, over apps/ and rummysite/ with django-stubs (pyproject.toml's [tool.mypy] says which
# modules are less strict, and why).
typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

pytest: $(VENV)/.installed-dev catalogues
	$(BIN)/pytest

# Exploration (issue 40): the property tests alone, with new random examples and FUZZ_FACTOR (default 10)
# times as many as `make test` draws; failures are kept in tests/engine/hypothesis-examples (commit them,
# and add an @example to the test so the derandomized suite replays it too). See tests/conftest.py.
.PHONY: fuzz
fuzz: $(VENV)/.installed-dev catalogues
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest -q tests

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
