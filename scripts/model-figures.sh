#!/usr/bin/env bash
# model-figures.sh: the model's figures (docs/model.md and docs/results.md) for one
# checkpoint, into OUT (default build/figures): decoding latency and memory benchmarks,
# then the evaluations, two at a time on one thread each.
#
#   scripts/model-figures.sh [MODEL_DIR] [OUT]     # default: models/default
#
# Knobs: NEXTSTATE_LIMIT (200 prompts per action, function level), REPO_LIMIT (50),
# CRUX_LIMIT (0: all), HORIZON_LIMIT (10), HORIZON_K (1,5,10).
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL=$(realpath "${1:-models/default}")
OUT=$(realpath -m "${2:-build/figures}")
mkdir -p "$OUT"
make -s build
log() { echo "model-figures: $*" >&2; }

log "benchmarks of $MODEL"
NDB_BENCH_MODEL=$MODEL go test ./infer/neural -run X -bench 'Session20|ResidentMemory' -benchtime 1x >"$OUT/bench-neural.txt" 2>&1
go test ./infer -run X -bench 'Decode' -benchtime 3x >"$OUT/bench-decode.txt" 2>&1
grep -h Benchmark "$OUT"/bench-*.txt >&2

log "evaluations (two at a time, one thread each)"
ev() { NDB_THREADS=1 bin/ndb eval "$@" --model "$MODEL"; }
(
	ev nextstate --level function --limit "${NEXTSTATE_LIMIT:-200}" --out "$OUT/nextstate-function" >"$OUT/nextstate-function.txt" 2>"$OUT/nextstate-function.log"
	ev horizon ../shared/cruxeval/dev.jsonl --limit "${HORIZON_LIMIT:-10}" --k "${HORIZON_K:-1,5,10}" --out "$OUT/horizon" >"$OUT/horizon.txt" 2>"$OUT/horizon.log"
) &
first=$!
ev cruxeval ../shared/cruxeval/dev.jsonl --limit "${CRUX_LIMIT:-0}" --out "$OUT/cruxeval" >"$OUT/cruxeval.txt" 2>"$OUT/cruxeval.log"
ev nextstate --level repository --limit "${REPO_LIMIT:-50}" --out "$OUT/nextstate-repository" >"$OUT/nextstate-repository.txt" 2>"$OUT/nextstate-repository.log"
wait "$first"
log "done: $OUT"
