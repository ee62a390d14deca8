# The two commands: `make run` (the site on the embedded default) and `make test` (the whole suite).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint typecheck pytest worker beat serve migrate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamps: reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed

migrate: $(VENV)/.installed
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_catalog

run: migrate
	@echo ""
	@echo "  Tile Rummy is running at http://$(HOST):$(PORT)/  (Ctrl+C to stop)"
	@echo ""
	$(BIN)/daphne -b $(HOST) -p $(PORT) rummysite.asgi:application

# The real stack's extra processes (set DATABASE_URL and REDIS_URL first; see README.md).
worker: $(VENV)/.installed
	$(BIN)/celery -A rummysite worker --loglevel=INFO

beat: $(VENV)/.installed
	$(BIN)/celery -A rummysite beat --loglevel=INFO --schedule=$${CELERY_BEAT_SCHEDULE_FILENAME:-/tmp/rummy-celerybeat-schedule}

test: $(VENV)/.installed-dev lint typecheck pytest

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy --strict apps/engine

pytest: $(VENV)/.installed-dev
	$(BIN)/pytest

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
