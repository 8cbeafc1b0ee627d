# make demo: set up .venv and run the demo (its checkpoint goes to ./out/, ignored by git).
# make test: set up .venv, lint, run the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint format clean stubs docs

# One .venv, two steps: `make demo` installs numtorch and what the demo imports (NumPy, and
# the demo extra: tqdm progress bars, threadpoolctl for one BLAS thread); `make test` adds the
# test tools and the torch oracle on top (a second marker file).
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[demo]"
	touch $@

$(VENV)/.test-installed: $(VENV)/.installed
	$(BIN)/python -m pip install -q --disable-pip-version-check -e ".[test,demo]"
	@# torch is only an optional oracle for parity tests. The CPU build is taken when a local
	@# wheel provides it (PyPI has no "+cpu" build, so nothing large is downloaded);
	@# otherwise the parity tests are skipped.
	@$(BIN)/python -m pip install -q "torch==2.13.0+cpu" >/dev/null 2>&1 \
		&& echo "torch 2.13.0 installed as test oracle: parity tests will run" \
		|| echo "torch 2.13.0+cpu not available: parity tests will be skipped"
	touch $@

demo: $(VENV)/.installed
	$(BIN)/python -m numtorch.demo --out out

test: $(VENV)/.test-installed lint
	$(BIN)/python -m pytest

lint: $(VENV)/.test-installed
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench

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
	rm -rf $(VENV) .pytest_cache .ruff_cache
