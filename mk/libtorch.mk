# libtorch, gotch and the PyTorch reference (docs/libtorch.md). Included by the top
# Makefile. Targets:
#   libtorch        Debian's libtorch-dev + OpenBLAS, a patched gotch v0.8.0 in
#                   build/gotch (build/gotch-cuda with TORCH=cuda), go.work, and libtch
#                   compiled once; idempotent, ~0.4 s when everything is there
#   libtorch-check  thread count, BLAS and matmul GFLOP/s (fails on the reference BLAS)
#   pytorch-ref     Debian's python3-torch for the second-implementation test in infer
#   libtorch-clean  remove the patched copies, stamps and go.work
# Variables:
#   TORCH=cpu|cuda, LIBTORCH=/path (cuda), CUDA_HOME, TORCH_CXX11_ABI, TORCH_CXX_STD,
#   GOTCH_EXTRA_STUBS (see scripts/setup-libtorch.sh and docs/libtorch.md)
#   TORCH_TEST_PKGS  the packages that need libtorch
#   NDB_THREADS      libtorch intra-op threads at run time (default: all cores)
#   NDB_BLAS_THREADS OpenBLAS threads at run time (default: OpenBLAS's own, all cores)

TORCH             ?= cpu
LIBTORCH          ?=
CUDA_HOME         ?= /usr/local/cuda
TORCH_CXX11_ABI   ?= 1
TORCH_CXX_STD     ?= c++17
GOTCH_EXTRA_STUBS ?=
TORCH_TEST_PKGS   := ./infer/...
PYTORCH_REF_PYTHON := /usr/bin/python3.11

.PHONY: libtorch libtorch-check pytorch-ref libtorch-clean

libtorch:
	@TORCH='$(TORCH)' LIBTORCH='$(LIBTORCH)' CUDA_HOME='$(CUDA_HOME)' \
		TORCH_CXX11_ABI='$(TORCH_CXX11_ABI)' TORCH_CXX_STD='$(TORCH_CXX_STD)' \
		GOTCH_EXTRA_STUBS='$(GOTCH_EXTRA_STUBS)' \
		scripts/setup-libtorch.sh

libtorch-check: libtorch
	go run scripts/libtorch-check.go

# Debian's python3-torch imports only in Debian's own Python (not a pyenv python3 first
# on PATH); the stamp is written once that import works.
pytorch-ref: build/stamps/pytorch-ref

build/stamps/pytorch-ref:
	@mkdir -p build/stamps
	@if $(PYTORCH_REF_PYTHON) -c 'import torch' 2>/dev/null; then \
		echo "pytorch-ref: python3-torch already importable"; \
	else \
		SUDO=; [ "$$(id -u)" -eq 0 ] || SUDO=sudo; \
		apt-cache policy python3-torch | grep -q 'Candidate: [0-9]' || $$SUDO apt-get update -qq; \
		echo "pytorch-ref: apt-get install python3-torch"; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-torch >/dev/null; \
	fi
	@$(PYTORCH_REF_PYTHON) -c 'import torch; print("pytorch-ref: torch", torch.__version__)'
	@touch $@

libtorch-clean:
	rm -rf build/gotch build/gotch-cuda build/gotch.tmp build/gotch-cuda.tmp build/stamps/apt-libtorch build/stamps/pytorch-ref go.work
