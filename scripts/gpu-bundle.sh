#!/usr/bin/env bash
# Assembles the GPU bundle (docs/gpu-training.md) in DIR (default build/gpu-bundle):
# the static corpus generator (CGO_ENABLED=0), the training script, its run.sh, the
# shipped tokenizer and the CruxEval dev set the generator decontaminates against. The
# tracer (trace/tracer.py) is embedded in the generator. Fails above 64 MiB, the most
# the device tool carries.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build/gpu-bundle}
GO=${GO:-go}
mkdir -p "$dir"
CGO_ENABLED=0 $GO build -trimpath -ldflags='-s -w' -o "$dir/ndb-datagen" ./cmd/ndb-datagen
install -m 0755 scripts/gpu/run.sh "$dir/run.sh"
install -m 0644 scripts/gpu/train.py scripts/gpu/llama.py "$dir/"
install -m 0644 models/default/tokenizer.json "$dir/tokenizer.json"
crux=${CRUXEVAL:-$(ls ../shared/cruxeval/dev.jsonl shared/cruxeval/dev.jsonl 2>/dev/null | head -1 || true)}
if [ -n "$crux" ]; then
	install -m 0644 "$crux" "$dir/cruxeval-dev.jsonl"
else
	echo "gpu-bundle: no shared/cruxeval/dev.jsonl: the device corpus is not decontaminated" >&2
	: >"$dir/cruxeval-dev.jsonl"
fi
bytes=$(du -sb "$dir" | cut -f1)
echo "gpu-bundle: $dir is $(( bytes / 1024 )) KiB ($(ls "$dir" | wc -l) files; the device tool carries up to 65536 KiB)"
[ "$bytes" -le $(( 64 << 20 )) ] || { echo "gpu-bundle: over 64 MiB" >&2; exit 1; }
# The device tool carries the working tree (tracked and untracked, not ignored) too.
if tree=$(git ls-files -z --cached --others --exclude-standard 2>/dev/null | xargs -0 -r stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}'); then
	echo "gpu-bundle: with the working tree ($(( tree / 1024 )) KiB) the device carries $(( (tree + bytes) / 1024 )) KiB"
	[ $(( tree + bytes )) -le $(( 64 << 20 )) ] || echo "gpu-bundle: WARNING: tree and bundle exceed the 64 MiB the device tool carries" >&2
fi
