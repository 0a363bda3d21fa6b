#!/usr/bin/env bash
# commit-run.sh [-n] [-m MESSAGE] [RUN]: commit a training run folder (default
# runs/default) as one consistent snapshot, while `ndb train` may still be writing it.
#
# It stops nothing. `ndb train` writes each checkpoint whole into RUN/checkpoint.next and
# swaps it in by renames, never rewriting a file inside RUN/checkpoint, so a copy of
# RUN/checkpoint is consistent when the folder stayed the same one throughout (same
# inode and same state.json before and after); otherwise the copy is taken again. The
# snapshot (build/run-snapshot/RUN) is then committed under RUN's paths with git
# plumbing, so what is committed is the snapshot, whatever the trainer writes meanwhile:
# RUN/checkpoint/{config.json, model.safetensors, tokenizer.json, optimizer.safetensors,
# state.json} and RUN/state.json (the same state).
#
#   -n   take the snapshot and list what would be committed; stage and commit nothing
#   -m   the commit message (default: "RUN: step S, T tokens")
#
# Mind the size: the weights and AdamW's two moments are three times the model in
# fp32 (about 64 MB for the 5.3M default), and every commit of them stays in history.
set -euo pipefail

dry=0
msg=
while getopts "nm:" opt; do
	case $opt in
	n) dry=1 ;;
	m) msg=$OPTARG ;;
	*) echo "usage: $0 [-n] [-m MESSAGE] [RUN]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
run=${1:-runs/default}
run=${run%/}
ckpt=$run/checkpoint
top=$(git rev-parse --show-toplevel)
cd "$top"

# The state's step, or nothing when the folder is mid-swap.
step_of() { sed -n 's/^  "step": \([0-9]*\),$/\1/p' "$1/state.json" 2>/dev/null || true; }

snap=build/run-snapshot/$run
for try in 1 2 3 4 5 6 7 8 9 10; do
	before_inode=$(stat -c %i "$ckpt" 2>/dev/null || true)
	before_step=$(step_of "$ckpt")
	rm -rf "$snap"
	mkdir -p "$snap"
	if [ -n "$before_inode" ] && [ -n "$before_step" ] && cp -r "$ckpt" "$snap/checkpoint" 2>/dev/null &&
		[ "$(stat -c %i "$ckpt" 2>/dev/null || true)" = "$before_inode" ] &&
		[ "$(step_of "$ckpt")" = "$before_step" ] && [ "$(step_of "$snap/checkpoint")" = "$before_step" ]; then
		break
	fi
	if [ "$try" = 10 ]; then
		echo "commit-run: no consistent copy of $ckpt after 10 tries" >&2
		exit 1
	fi
	sleep 2
done
for f in config.json model.safetensors tokenizer.json optimizer.safetensors state.json; do
	[ -f "$snap/checkpoint/$f" ] || { echo "commit-run: $ckpt lacks $f (not a resumable run?)" >&2; exit 1; }
done
cp "$snap/checkpoint/state.json" "$snap/state.json"
tokens=$(sed -n 's/^  "tokens": \([0-9]*\),$/\1/p' "$snap/state.json" | head -1)
size=$(du -sh "$snap" | cut -f1)
echo "commit-run: $run at step $before_step ($tokens tokens), $size"
[ -n "$msg" ] || msg="$run: step $before_step, $tokens tokens"

files=$(cd "$snap" && find . -type f | sed 's#^\./##' | sort)
if [ "$dry" = 1 ]; then
	for f in $files; do echo "  would commit $run/$f"; done
	exit 0
fi
# Commit through a private index made from HEAD, so that nothing else staged goes in
# and the blobs are the snapshot's, not whatever the working tree holds by then; the
# real index gets the same entries, so they do not show as changes.
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
GIT_INDEX_FILE=$idx git read-tree HEAD
for f in $files; do
	blob=$(git hash-object -w "$snap/$f")
	GIT_INDEX_FILE=$idx git update-index --add --cacheinfo "100644,$blob,$run/$f"
	git update-index --add --cacheinfo "100644,$blob,$run/$f"
done
tree=$(GIT_INDEX_FILE=$idx git write-tree)
commit=$(git commit-tree "$tree" -p HEAD -m "$msg")
git update-ref -m "commit-run: $msg" HEAD "$commit"
git log --oneline -1
