# Two entry points a newcomer needs: `make site` and `make test`.
# Both create .venv and install what they need; they are safe to re-run.
# The interpreter .venv is made with: PYTHON if given, else the fastest Python 3.10+ found
# (scripts/fastest-python; a distribution's CPython builds a site about 15 % faster than pyenv's).
PYTHON ?=
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: site test serve setup setup-test clean

$(BIN)/sitegen: pyproject.toml
	$(if $(PYTHON),$(PYTHON),"$$(./scripts/fastest-python)") -m venv $(VENV)
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
