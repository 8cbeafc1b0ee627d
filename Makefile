# make demo: set up .venv and run the demo (its checkpoint goes to ./out/, ignored by git).
# make test: set up .venv, lint, run the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-numpy-min test-numpy-max bench lint format clean stubs docs

# the ends of the NumPy range declared in pyproject.toml, tested by `make test-numpy-min/max`
NUMPY_MIN := 2.0.0
NUMPY_MAX := 2.4.6

# One .venv, two steps: `make demo` installs numtorch and what the demo imports (NumPy, and
# the demo extra: tqdm progress bars, threadpoolctl for one BLAS thread); `make test` adds the
# test tools and the torch oracle on top (a second marker file).
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[demo]"
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[test,demo]"
	@# torch is the oracle of the parity tests. The project's machines carry a local CPU wheel
	@# of it (pip's find-links), which pip prefers to PyPI's CUDA build; where it cannot be
	@# installed the parity tests are skipped, except under CI=true where pytest refuses to run.
	@$(BIN)/python -m pip install -q "torch==2.13.0" \
		&& $(BIN)/python -c "import torch; print('torch', torch.__version__, 'installed as test oracle')" \
		|| echo "torch 2.13.0 not installable: parity tests will be skipped (an error under CI=true)"
	touch $@

demo: $(VENV)/.installed
	$(BIN)/python -m numtorch.demo --out out

# two worker processes (pytest-xdist), a test file each at a time: the suite is mostly
# Python-bound, so two cores run it in a little over half the time; files keep their order
test: $(VENV)/.test-installed lint
	$(BIN)/python -m pytest -n 2 --dist loadfile

# the op and parity suites in a fresh venv with the lowest (highest) supported NumPy
test-numpy-min test-numpy-max: test-numpy-%:
	$(PYTHON) -m venv .venv-numpy-$*
	.venv-numpy-$*/bin/python -m pip install -q -e ".[test]" "numpy==$(NUMPY_$(shell echo $* | tr a-z A-Z))" "torch==2.13.0"
	.venv-numpy-$*/bin/python -c "import numpy; print('testing with numpy', numpy.__version__)"
	.venv-numpy-$*/bin/python -m pytest -p no:cacheprovider tests/ops/test_ops.py tests/ops/test_ops_parity.py \
		tests/test_programs_parity.py tests/core/test_tensor.py tests/core/test_autograd_engine.py

lint: $(VENV)/.test-installed
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench
	$(BIN)/lint-imports

format: $(VENV)/.test-installed
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

bench: $(VENV)/.installed
	$(BIN)/python bench/run.py

# type stubs (src/numtorch/*.pyi) from the op registry; tests/test_stubs.py checks they are current
stubs: $(VENV)/.installed
	$(BIN)/python -m numtorch._stubgen

# the documentation site in site/: the op catalogue regenerated, every example run, then a
# strict build (a warning fails it)
docs: $(VENV)/.test-installed
	$(BIN)/python -m numtorch.testing.catalogue > docs/ops.md
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/test_docs.py
	$(BIN)/python -m mkdocs build --strict

clean:
	rm -rf $(VENV) .venv-numpy-min .venv-numpy-max .pytest_cache .ruff_cache

# make fuzz: differential fuzzing against torch (FUZZ_GRAPHS graphs, default 20000, from
# FUZZ_SEED); prints the classified summary and writes reproducers to fuzz-out/
.PHONY: fuzz
fuzz: $(VENV)/.test-installed
	PYTHONPATH=src:tests $(BIN)/python -m fuzz --out fuzz-out

# make fuzz-campaign: the same 20,000 graphs over a seed never used before (drawn from the
# OS and printed, so a finding replays), as an independent run would see them
.PHONY: fuzz-campaign
fuzz-campaign: $(VENV)/.test-installed
	PYTHONPATH=src:tests $(BIN)/python -m fuzz --seed new --out fuzz-campaign-out

# make doc-examples: torch's documentation examples run under torch and numtorch (every one,
# the slow ones included); prints the classified summary and writes doc-examples.jsonl
.PHONY: doc-examples
doc-examples: $(VENV)/.test-installed
	PYTHONPATH=src:tests $(BIN)/python -m doc_examples --out doc-examples.jsonl
