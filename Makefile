# Two entry points a newcomer needs: `make site` and `make test`.
# Both create .venv and install what they need; they are safe to re-run.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: site test serve setup setup-test clean

$(BIN)/sitegen: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[tutorials,test]'
	touch $@

setup: $(BIN)/sitegen

site: setup
	$(BIN)/sitegen build

serve: setup
	$(BIN)/sitegen serve

setup-test: setup
	./scripts/setup-test-tools

test: setup-test
	$(BIN)/python -m pytest -n auto --dist loadscope

clean:
	rm -rf _site .sitegen
