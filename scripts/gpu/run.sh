#!/usr/bin/env bash
# The GPU bundle's one command (docs/gpu-training.md): fresh corpus rounds from
# ndb-datagen on the CPU cores while train.py trains on the GPU for TIME_BUDGET
# seconds, then the held-out loss and the checkpoint in $OUT.
#
# Knobs (environment):
#   OUT          checkpoint folder (default: $OUT of the device tool, else ./gpu-out)
#   TIME_BUDGET  seconds of training (default 420); the whole call adds ~1 minute
#   MODEL        train.py preset (tiny, small, 15m) or dim,layers,heads,hidden (default 15m)
#   DEVICE       auto, cuda or cpu (default auto)
#   PYTHON       the training interpreter (default python3); the tracer always runs the
#                python3 on PATH, whose version the traces describe
#   NPROC        training processes on this node, one a GPU (default 1: plain python;
#                above 1, torchrun with DistributedDataParallel, see train.py)
#   NNODES, NODE_RANK, MASTER_ADDR, MASTER_PORT  several nodes: run.sh on each, with the
#                same NNODES, MASTER_ADDR (node 0's address) and MASTER_PORT (29500) and
#                its own NODE_RANK (0 .. NNODES-1); the checkpoint is written on node 0
#   TORCHRUN_FLAGS  more flags for torchrun (python -m torch.distributed.run)
#   GEN_SLOTS    generator processes at once (default: cores/4, at least 1); 0: none,
#                train on the finished rounds already in DATA
#   GEN_WORKERS  tracer workers per generator (default: cores/GEN_SLOTS, at least 1)
#   FIRST_PROGRAMS, ROUND_PROGRAMS  programs per generator round (first round of each
#                slot, later rounds; defaults 150 and 1000)
#   VERIFY=0     skip the second, nondeterminism-catching trace of each program
#   DATA         where the rounds are written (default: a temporary folder, removed)
#   SEED         base seed of the data and the training (default 1)
#   BATCH, SEQ_LEN, LR, DTYPE, EVAL_BATCHES, EVAL_EVERY, COMPILE, STEPS, LOSS_CURVE, CONTEXT_LOSS:
#                see train.py --help (BATCH is the global batch, over all processes)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$PWD/gpu-out}
PYTHON=${PYTHON:-python3}
SEED=${SEED:-1}
NPROC=${NPROC:-1}
NNODES=${NNODES:-1}
NODE_RANK=${NODE_RANK:-0}
cores=$(nproc)
GEN_SLOTS=${GEN_SLOTS:-$(( cores / 4 > 0 ? cores / 4 : 1 ))}
GEN_WORKERS=${GEN_WORKERS:-$(( GEN_SLOTS > 0 && cores / GEN_SLOTS > 0 ? cores / GEN_SLOTS : 1 ))}
FIRST_PROGRAMS=${FIRST_PROGRAMS:-150}
ROUND_PROGRAMS=${ROUND_PROGRAMS:-1000}
verify=; [ "${VERIFY:-1}" = 0 ] && verify=--no-verify
own_data=; [ -z "${DATA:-}" ] && { DATA=$(mktemp -d /tmp/ndb-gpu-data.XXXXXX); own_data=1; }
[ "$GEN_SLOTS" = 0 ] && [ -n "$own_data" ] && { echo "run.sh: GEN_SLOTS=0 trains on the rounds in DATA: set DATA" >&2; exit 2; }
mkdir -p "$OUT" "$DATA"
export SEED

echo "run.sh: $(python3 --version 2>&1) traces (python3 on PATH), training with $PYTHON; $cores cores, $GEN_SLOTS generators x $GEN_WORKERS workers; data in $DATA, checkpoint to $OUT; node $NODE_RANK of $NNODES, $NPROC training processes"

# One generator slot: rounds of fresh programs, each in its own folder, marked DONE
# when its shards are complete. Seeds never repeat across slots, rounds and nodes
# (the slot number counts the slots of the nodes before this one).
gen_slot() {
	local slot=$(( NODE_RANK * GEN_SLOTS + $1 )) round=0 programs=$FIRST_PROGRAMS dir
	while [ ! -e "$DATA/STOP" ]; do
		dir="$DATA/s$(printf %02d "$slot")-r$(printf %04d "$round")"
		if "$here/ndb-datagen" gen --out "$dir" --programs "$programs" \
			--seed $(( SEED * 1000000 + slot * 10000 + round + 1 )) --workers "$GEN_WORKERS" \
			--held-out 0.05 --repo-share 0 --tokenizer "$here/tokenizer.json" \
			--cruxeval "$here/cruxeval-dev.jsonl" --quiet $verify >"$dir.log" 2>&1; then
			touch "$dir/DONE"
			rm -f "$dir"/*.jsonl # the text is not needed once tokenized
		elif [ ! -e "$DATA/STOP" ]; then
			echo "run.sh: generator round $dir failed:"; tail -5 "$dir.log"
			sleep 1
		fi
		round=$((round + 1))
		programs=$ROUND_PROGRAMS
	done
}

pids=()
cleanup() {
	touch "$DATA/STOP" 2>/dev/null || true
	for p in "${pids[@]}"; do pkill -TERM -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	if [ -n "$own_data" ]; then rm -rf "$DATA"; fi
	echo "run.sh: done after ${SECONDS}s"
}
trap cleanup EXIT
for ((s = 0; s < GEN_SLOTS; s++)); do
	gen_slot "$s" &
	pids+=($!)
done

echo "run.sh: ${SECONDS}s: generators started"
export MIN_ROUNDS=${MIN_ROUNDS:-$(( GEN_SLOTS > 0 ? GEN_SLOTS : 1 ))}
if [ "$NPROC" -gt 1 ] || [ "$NNODES" -gt 1 ]; then
	# One process a GPU; torchrun sets RANK, WORLD_SIZE and LOCAL_RANK for train.py.
	if [ "$NNODES" -gt 1 ]; then
		launch=(--nnodes="$NNODES" --node_rank="$NODE_RANK" --master_addr="${MASTER_ADDR:?several nodes need MASTER_ADDR, the address of node 0}" --master_port="${MASTER_PORT:-29500}")
	else
		launch=(--standalone)
	fi
	# shellcheck disable=SC2086 # TORCHRUN_FLAGS is a list of flags
	"$PYTHON" -m torch.distributed.run "${launch[@]}" --nproc_per_node="$NPROC" ${TORCHRUN_FLAGS:-} \
		"$here/train.py" --data "$DATA" --tokenizer "$here/tokenizer.json" --out "$OUT"
else
	"$PYTHON" "$here/train.py" --data "$DATA" --tokenizer "$here/tokenizer.json" --out "$OUT"
fi
rounds=$(ls -d "$DATA"/*/DONE 2>/dev/null | wc -l)
echo "run.sh: ${SECONDS}s: $rounds generator rounds finished; checkpoint:"
ls -l "$OUT"
du -sh "$OUT"
