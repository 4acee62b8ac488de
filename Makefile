# The two set-up commands of the README. Each makes its own virtual environment.
# The venv's interpreter: the distribution's own Python 3.11+ where it can make a venv, else
# python3 on the PATH. Debian's is built with profile-guided and link-time optimisation and
# its library linked in; a default source build (pyenv's) runs the fold 7-13% slower
# (docs/performance-journal.md, twenty-third session). `make PYTHON=...` picks another.
SYSTEM_PYTHON := /usr/bin/python3
PYTHON ?= $(shell $(SYSTEM_PYTHON) -c 'import sys, ensurepip; sys.exit(sys.version_info < (3, 11))' \
	2>/dev/null && echo $(SYSTEM_PYTHON) || echo python3)
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench bench-serve clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@# The package's bytecode, compiled once: an editable install leaves it to the first
	@# import, which writes nothing where PYTHONDONTWRITEBYTECODE is set (CI's machines),
	@# and every command would then compile the whole program again (about 0.5 s).
	$(BIN)/python -m compileall -q ledger cli
	touch $@

demo: $(VENV)/.installed
	$(BIN)/ledger demo --serve

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# pytest exits 5 when it collected nothing: that is a failure here, never a pass.
test: lint
	$(BIN)/python -m pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; exit 1; fi; \
	exit $$status

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# The service under load (Debian's wrk: apt-get install wrk); see docs/performance.md.
bench-serve: $(VENV)/.installed
	$(BIN)/python bench/serve.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV) demo .pytest_cache .mypy_cache .ruff_cache
