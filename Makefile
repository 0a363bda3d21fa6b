# ndb: a neural debugger for Python. `make demo` and `make test` are the two commands;
# both install what they need first.

GO      ?= go
BIN     := bin/ndb
# The model server: the only binary that links libtorch (the model's forward pass and
# training). ndb starts it over a pipe at the first neural session; ndb itself is pure Go.
INFER   := bin/ndb-infer
PYTHON  ?= python3

# Packages that need no libtorch (they must build and test without it), and those
# that do (the model, training, and the binary that holds them).
PURE_PKGS  := ./grammar/... ./trace/... ./session/... ./adapter/... ./models/... ./modelserver/... ./internal/... \
              ./train/corpus/... ./train/corpusstats/... ./train/synth/... ./train/decontam/... ./train/progress/... ./train/eval/...
TORCH_PKGS := ./infer/... ./train ./cmd/...

.DEFAULT_GOAL := all

-include mk/*.mk

.PHONY: all build pure test demo vet fmt deps testsuite debugpy data train finetune clean golden results

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
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/ndb
	$(GO) build -o $(INFER) ./cmd/ndb-infer

# ndb is pure Go: it builds, vets and passes its tests with no C compiler and no
# libtorch (the tests that need the model skip: they cannot build ndb-infer).
pure: deps
	CGO_ENABLED=0 $(GO) build -o /dev/null ./cmd/ndb
	CGO_ENABLED=0 $(GO) vet ./cmd/ndb ./modelserver/...
	CGO_ENABLED=0 $(GO) test -count=1 -p 1 ./cmd/ndb ./modelserver/...

fmt:
	gofmt -w $$(git ls-files '*.go')

vet: libtorch
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); echo "gofmt needed"; exit 1; }
	$(GO) vet $(PURE_PKGS) $(TORCH_PKGS)

# -p 1: the tracer tests run Python workers against wall-clock limits; one package at
# a time keeps a small machine from starving them.
# The libtorch packages run without -race (cgo-heavy, and all model calls stay on one
# goroutine by design). cmd/ndb is pure but tested with them: its neural tests run
# the ndb-infer built here (NDB_INFER).
test: deps testsuite debugpy libtorch pytorch-ref vet build pure
	$(GO) test -race -count=1 -p 1 $(PURE_PKGS)
	NDB_INFER=$(abspath $(INFER)) $(GO) test -count=1 -p 1 $(TORCH_PKGS)
	$(MAKE) vscode-test e2e

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
	@echo '== the bundled model predicts the same session, beside the recorded one (models/default: 5.3M parameters, 79.6M tokens)'
	$(BIN) compare testdata/programs/count.py --entry 'count("berry", "r")' \
		--actions step_into,step_over,step_return

# The default corpus: function-level programs and the standard library's tests,
# tokenized (build/corpus) with the shipped tokenizer, so that a run can start from the
# shipped weights. The long run's recipe trains 90% on function-level windows, so the
# corpus is sized for it: 12,000 programs and a tenth of repository-level trajectories
# give 74.6M training tokens (19 min on two loaded cores). DATA_FLAGS= for `ndb data gen`'s
# own defaults (50,000 programs, half repository level, a new tokenizer: 587M tokens).
DATA_FLAGS ?= --programs 12000 --repo-share 0.1 --tokenizer models/default/tokenizer.json
data: build/corpus/train.bin build/corpus/train.levels

build/corpus/train.bin: | build testsuite
	$(BIN) data gen --out build/corpus $(DATA_FLAGS)

# Corpora tokenized before the levels files existed get them without a new build.
build/corpus/train.levels: | build build/corpus/train.bin
	$(BIN) data levels --corpus build/corpus

# Trains the default model's recipe (docs/model.md, "Training the default model") into
# RUN, a run folder that is committed (scripts/commit-run.sh) and resumed by the next
# `make train`: 60M planned tokens (29,297 steps of 4 x 512), loss on the source context
# too, 90% of the windows from function-level trajectories, the 5.3M shape. About 9 h
# at 1,800 tok/s on two cores, so several sittings: TRAIN_FLAGS takes a sitting's
# budget (--max-duration 2h, --until-tokens N); Ctrl-C writes a checkpoint and stops.
# INIT=DIR warm-starts a new run from a checkpoint (e.g. models/default).
RUN          ?= runs/default
TRAIN_RECIPE ?= --tokens 60000000 --context-loss --function-share 0.9
train: data build
	@$(call train_run,$(RUN),build/corpus,$(TRAIN_RECIPE) $(if $(INIT),--init $(INIT)))

# The fine-tunes after the long run (docs/model.md, "Fine-tunes after the long run"),
# each resumed where a sitting stopped: runs/rebind (5M tokens from runs/default on a
# function-level corpus of the rebind templates, 41 min) and runs/mix (8.5M tokens from
# runs/rebind on that corpus mixed with the default one, 70 min).
REBIND_DATA_FLAGS ?= --programs 4000 --repo-share 0 --seed 2 --tokenizer models/default/tokenizer.json
build/corpus-rb/train.bin: | build testsuite
	$(BIN) data gen --out build/corpus-rb $(REBIND_DATA_FLAGS)

build/corpus-mix/train.bin: build/corpus/train.bin build/corpus/train.levels build/corpus-rb/train.bin
	rm -rf build/corpus-mix
	$(BIN) data mix --out build/corpus-mix build/corpus build/corpus-rb

finetune: build/corpus-mix/train.bin build
	@$(call train_run,runs/rebind,build/corpus-rb,--init runs/default/checkpoint --tokens 5000000 --warmup 100 --lr 3e-4 --context-loss --seed 2)
	@$(call train_run,runs/mix,build/corpus-mix,--init runs/rebind/checkpoint --tokens 8500000 --warmup 100 --lr 2e-4 --context-loss --function-share 0.9 --seed 3)

# train_run RUN,CORPUS,RECIPE: resume RUN (make train and make finetune), or start it
# with RECIPE; TRAIN_FLAGS go to either.
train_run = if [ -f $(1)/checkpoint/state.json ] || [ -f $(1)/checkpoint.prev/state.json ]; then \
		echo "make: resuming $(1)"; \
		$(BIN) train --corpus $(2) --out $(1) --resume $(TRAIN_FLAGS); \
	else \
		$(BIN) train --corpus $(2) --out $(1) $(3) $(TRAIN_FLAGS); \
	fi

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
