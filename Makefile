# ndb: a neural debugger for Python. `make demo` and `make test` are the two commands;
# both install what they need first.

GO      ?= go
BIN     := bin/ndb
PYTHON  ?= python3

# Packages that need no libtorch (they must build and test without it), and those
# that do (the model, training, and the binary that holds them).
PURE_PKGS  := ./grammar/... ./trace/... ./session/... ./adapter/... \
              ./train/corpus/... ./train/corpusstats/... ./train/synth/... ./train/decontam/... ./train/progress/... ./train/eval/...
TORCH_PKGS := ./infer/... ./train ./cmd/...

.DEFAULT_GOAL := all

-include mk/*.mk

.PHONY: all build test demo vet fmt deps testsuite debugpy data train clean golden results

all: build

deps:
	@command -v $(PYTHON) >/dev/null || { echo "ndb needs $(PYTHON) (the tracer's interpreter)"; exit 1; }
	$(GO) mod download

# Debian's Python 3.11 test suite: real code for the repository-level traces.
testsuite:
	@scripts/install-testsuite.sh

# Debian's debugpy, which the adapter's tests and benchmark compare ndb against.
debugpy:
	@/usr/bin/python3.11 -c 'import debugpy' 2>/dev/null || { \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-debugpy >/dev/null; }

build: deps libtorch
	$(GO) build -o $(BIN) ./cmd/ndb

vet: libtorch
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet $(PURE_PKGS) $(TORCH_PKGS)

# -p 1: the tracer tests run Python workers against wall-clock limits; one package at
# a time keeps a small machine from starving them.
# The libtorch packages run without -race (cgo-heavy, and all model calls stay on one
# goroutine by design).
test: deps testsuite debugpy libtorch pytorch-ref vet
	$(GO) test -race -count=1 -p 1 $(PURE_PKGS)
	$(GO) test -count=1 -p 1 $(TORCH_PKGS)
	$(MAKE) build vscode-test e2e

# The main job: real debugger trajectories of a testdata program, then the bundled
# model's predictions of the same session side by side with the recorded one.
demo: build
	@echo '== count("berry", "r"): step_into, step_over x3, breakpoint on line 6, continue'
	$(BIN) trajectory testdata/programs/count.py --entry 'count("berry", "r")' \
		--actions step_into,step_over,step_over,step_over,breakpoint:6,continue
	@echo
	@echo '== the same call, backwards from its return: inv_step_into x2, inv_step_call'
	$(BIN) trajectory testdata/programs/count.py --entry 'count("berry", "r")' --inverse \
		--actions inv_step_into,inv_step_into,inv_step_call
	@echo
	@echo '== the bundled model predicts the same session, beside the recorded one (models/default: an early checkpoint)'
	$(BIN) compare testdata/programs/count.py --entry 'count("berry", "r")' \
		--actions step_into,step_over,step_return

# The default corpus: function-level programs and the standard library's tests,
# tokenized (build/corpus).
data: build/corpus/train.bin

build/corpus/train.bin: | build testsuite
	$(BIN) data gen --out build/corpus

# Trains the default model on the default corpus (build/run; --resume continues).
train: data build
	$(BIN) train --corpus build/corpus --out build/run $(TRAIN_FLAGS)

# The paper's evaluations (docs/results.md) of the bundled model, or of MODEL=DIR, into
# build/results; RESULTS_LIMIT caps the prompts per group (the paper: 800; the CPU: ~2 s each).
RESULTS_LIMIT ?= 800
results: build
	$(BIN) eval nextstate --limit $(RESULTS_LIMIT) --out build/results/nextstate $(if $(MODEL),--model $(MODEL))
	$(BIN) eval cruxeval ../shared/cruxeval/dev.jsonl --limit $(RESULTS_LIMIT) --out build/results/cruxeval $(if $(MODEL),--model $(MODEL))
	$(BIN) eval horizon ../shared/cruxeval/dev.jsonl --limit $(RESULTS_LIMIT) --out build/results/horizon $(if $(MODEL),--model $(MODEL))

golden:
	$(GO) test ./trace -run Golden -update

clean:
	rm -rf bin build
