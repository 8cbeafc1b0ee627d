# make demo: set up .venv and run the demo (its checkpoint goes to ./out/, ignored by git).
# make test: set up .venv, lint, run the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint format clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	@# the demo extra: tqdm progress bars and threadpoolctl (the demo runs one BLAS thread)
	$(BIN)/python -m pip install -q -e ".[test,demo]"
	@# torch is only an optional oracle for parity tests. The CPU build is taken when a local
	@# wheel provides it (PyPI has no "+cpu" build, so nothing large is downloaded);
	@# otherwise the parity tests are skipped.
	@$(BIN)/python -m pip install -q "torch==2.13.0+cpu" >/dev/null 2>&1 \
		&& echo "torch 2.13.0 installed as test oracle: parity tests will run" \
		|| echo "torch 2.13.0+cpu not available: parity tests will be skipped"
	touch $@

demo: $(VENV)/.installed
	$(BIN)/python -m numtorch.demo --out out

test: $(VENV)/.installed lint
	$(BIN)/python -m pytest

lint: $(VENV)/.installed
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench

format: $(VENV)/.installed
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

# make fuzz: differential fuzzing against torch (FUZZ_GRAPHS graphs, default 20000, from
# FUZZ_SEED); prints the classified summary and writes reproducers to fuzz-out/
.PHONY: fuzz
fuzz: $(VENV)/.installed
	PYTHONPATH=src:tests $(BIN)/python -m fuzz --out fuzz-out
