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
