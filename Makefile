# make play: play a game in the terminal (options: make play ARGS="--match-length 5").
# make test: run every check.
# Both create .venv on first use and install what they need.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint typecheck bench clean mutation catalogs

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	$(BIN)/gammon warmup  # compile the engine now (numba's disk cache), not at the first move
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/gammon play $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy src/gammon  # strict (pyproject), over every subpackage

test: $(STAMP) lint
	$(BIN)/python -m pytest

# make catalogs: the translation template from the source, every .po brought up to it (new
# messages empty, to be translated), every .mo compiled and the page's JSON written
# (web/static/i18n/<lang>.json; all committed: no build step at install).
catalogs: $(STAMP)
	$(BIN)/python scripts/i18n_catalogs.py

bench: $(STAMP)
	$(BIN)/pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/movegen.py

# make mutation: mutation testing (mutmut; slow, not part of make test).  Each module runs
# against its own test files (GAMMON_MUTATION_TESTS); progress in mutants/progress.log; the
# table goes to benchmarks/results/mutation.md.
mutation: $(STAMP)
	$(BIN)/pip install -q 'mutmut>=3.8.1,<3.9'  # scripts/mutmut_properties.py patches its internals
	scripts/mutation.sh
	$(BIN)/python benchmarks/mutation_report.py --out benchmarks/results/mutation.md \
		--raw benchmarks/results/mutation_raw.json

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache mutants
