# The prepared GPU training run (docs/gpu-training.md). Included by the top Makefile.
# Targets:
#   gpu-bundle  build/gpu-bundle: the static corpus generator (CGO_ENABLED=0), the
#               PyTorch training script and run.sh, the shipped tokenizer and the
#               CruxEval dev set; prints its size and fails above the 64 MiB the
#               device tool carries
# Variables:
#   GPU_BUNDLE  the folder (default build/gpu-bundle)

GPU_BUNDLE ?= build/gpu-bundle

.PHONY: gpu-bundle

gpu-bundle:
	GO='$(GO)' scripts/gpu-bundle.sh $(GPU_BUNDLE)
