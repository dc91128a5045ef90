# The commands a person types. Each one creates (or reuses) the virtual environment itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The extras installed into the virtual environment (CI adds train: PyTorch, sb3-contrib).
EXTRAS ?= dev,rl

.PHONY: run cluster test lint bench policy screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/hukum serve

# Two server processes behind HAProxy on one PostgreSQL and one Redis, until Ctrl-C.
cluster: $(STAMP)
	scripts/cluster.sh

test: $(STAMP)
	@scripts/chromium.sh
	$(BIN)/pytest -n 2

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/hukum bench
	$(BIN)/hukum bench --env
	$(BIN)/hukum bench --solver
	$(BIN)/hukum bench --solver --tricks 13 --deals 5 --trump known
	$(BIN)/hukum bench --solver --tricks 13 --deals 5 --trump cut --max-nodes 150000000
	$(BIN)/hukum bench --analysis
	$(BIN)/hukum bench --analysis --late 4

# The expert's learnt policy model (src/hukum/bots/policy.npz) from games played here: about
# 30 minutes on two cores (scripts/train_policy.py).
policy: $(STAMP)
	$(BIN)/python scripts/train_policy.py --deals 150 --seed 5000 --workers 2

screenshots: $(STAMP)
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_browser.py -k "full_deal or ganjifa"
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_board.py -k "badge or phone"
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_motion.py -k fit_the_board
	HUKUM_SCREENSHOTS=1 $(BIN)/pytest -p no:xdist tests/server/test_table_phone.py -k ganjifa_board

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
