# The commands a person types. Each one creates (or reuses) the virtual environment .venv and
# installs what it needs there (scripts/venv.sh): make run only the package and its server,
# the others add pyproject.toml's extras as they need them (one environment, which grows).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# More extras for every command's install (CI adds train: PyTorch, sb3-contrib).
EXTRAS ?=
install = @PYTHON='$(PYTHON)' VENV='$(VENV)' scripts/venv.sh $(1) $(subst $(comma), ,$(EXTRAS))
comma := ,

.PHONY: run cluster test lint bench screenshots clean

run:
	$(call install)
	$(BIN)/hukum serve

# Two server processes behind HAProxy on one PostgreSQL and one Redis, until Ctrl-C.
cluster:
	$(call install)
	scripts/cluster.sh

test:
	$(call install,dev rl)
	@scripts/chromium.sh
	$(BIN)/pytest -n 2 --durations=15

lint:
	$(call install,dev rl)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy

bench:
	$(call install,rl)
	$(BIN)/hukum bench
	$(BIN)/hukum bench --env
	$(BIN)/hukum bench --solver
	$(BIN)/hukum bench --solver --tricks 13 --deals 5 --trump known
	$(BIN)/hukum bench --solver --tricks 13 --deals 5 --trump cut --max-nodes 150000000
	$(BIN)/hukum bench --analysis
	$(BIN)/hukum bench --analysis --late 4
	$(BIN)/hukum bench --wave

screenshots:
	$(call install,dev)
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_browser.py -k "full_deal or ganjifa"
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_board.py -k "badge or phone"
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_motion.py -k fit_the_board
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_punjabi.py -k phone
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_table_phone.py -k ganjifa_board

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
