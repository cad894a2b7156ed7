# The two commands a fresh machine needs: `make demo` and `make test` (both set themselves up).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
SUDO   := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
DEMO_LIMIT ?= 10

.PHONY: setup torch-cpu chromium demo test bench soak lint clean mutate

setup: $(STAMP) chromium

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@$(MAKE) --no-print-directory torch-cpu
	$(PY) -m pip install -q --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

# PyTorch's CPU build (for the RL extra and its tests) before anything asks for `torch`: a plain `torch`
# requirement would take the registry's newest build with several GB of CUDA libraries this machine cannot
# use. A local wheel of the pinned CPU build (pip's find-links) is used first, else PyTorch's CPU index.
TORCH_CPU ?= 2.13.0
torch-cpu:
	@$(PY) -c "import torch" 2>/dev/null || \
	  $(PY) -m pip install -q --disable-pip-version-check "torch==$(TORCH_CPU)+cpu" 2>/dev/null || \
	  $(PY) -m pip install -q --disable-pip-version-check torch --index-url https://download.pytorch.org/whl/cpu

chromium:
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; then \
	  echo "Installing Debian's chromium (for web_mode='browser')"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-headless-shell fonts-dejavu-core >/dev/null; \
	fi

demo: setup
	@for agent in oracle random heuristic; do \
	  $(PY) -m embodiedweb.cli eval --env all --agent $$agent --limit $(DEMO_LIMIT) --out results/demo-$$agent.jsonl --save-steps --no-progress > /dev/null || exit 1; \
	done
	$(PY) -m embodiedweb.cli report results/demo-oracle.jsonl results/demo-random.jsonl results/demo-heuristic.jsonl --html results/demo-report.html
	@echo "HTML report with plots and a trajectory viewer: results/demo-report.html"

test: setup
	@$(PY) -m pytest -p no:cacheprovider -rs; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

bench: setup
	$(PY) -m embodiedweb.cli bench --json

# Issue 14's soak figures (100k fuzzed actions per env, 2,000 random browser-mode steps; ~15 min), as JSON.
soak: setup
	$(PY) -m embodiedweb.soak

# Mutation testing of the scoring rules (not part of `make test` or CI): sampled by default, FULL=1 for all.
mutate: setup
	$(PY) tests/mutation/run.py $(if $(FULL),--full,) $(foreach m,$(MODULE),--module $(m))

lint: setup
	$(VENV)/bin/ruff check .

clean:
	rm -rf $(VENV) results build *.egg-info
