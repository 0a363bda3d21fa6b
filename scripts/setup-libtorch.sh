#!/usr/bin/env bash
# setup-libtorch.sh: make libtorch and a patched gotch v0.8.0 ready for `go build`.
# Idempotent; each step is skipped when its stamp or result is already there.
# Usually run through `make libtorch` (mk/libtorch.mk); see docs/libtorch.md.
#
#   TORCH=cpu   (default) Debian's libtorch-dev 1.13.1 + OpenBLAS, copy in build/gotch
#   TORCH=cuda  LIBTORCH=/path/to/libtorch (include/ and lib/), CUDA_HOME (default
#               /usr/local/cuda); copy in build/gotch-cuda; no apt packages
#   TORCH_CXX11_ABI=1        value of _GLIBCXX_USE_CXX11_ABI (Debian's and recent
#                            PyTorch builds use 1)
#   TORCH_CXX_STD=c++17      C++ standard for compiling libtch
#   GOTCH_EXTRA_STUBS=a,b    further generated ops to stub out (another libtorch)
#   GOTCH_PREBUILD=0         skip compiling libtch now (it then happens at first use)
set -euo pipefail

cd "$(dirname "$0")/.."
TORCH=${TORCH:-cpu}
LIBTORCH=${LIBTORCH:-}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
TORCH_CXX11_ABI=${TORCH_CXX11_ABI:-1}
TORCH_CXX_STD=${TORCH_CXX_STD:-c++17}
GOTCH_EXTRA_STUBS=${GOTCH_EXTRA_STUBS:-}
GOTCH_PREBUILD=${GOTCH_PREBUILD:-1}
GOTCH_VERSION=v0.8.0
STAMPS=build/stamps
mkdir -p "$STAMPS"

log() { printf 'setup-libtorch: %s\n' "$*" >&2; }
SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi

# apt_install PKG...: install the packages not installed yet; apt-get update only
# when a package has no install candidate.
apt_install() {
	local missing=() p
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			missing+=("$p")
		fi
	done
	if [ ${#missing[@]} -eq 0 ]; then
		log "already installed: $*"
		return
	fi
	for p in "${missing[@]}"; do
		if ! apt-cache policy "$p" 2>/dev/null | grep -q 'Candidate: [0-9]'; then
			log "apt-get update (no candidate for $p)"
			$SUDO apt-get update -qq
			break
		fi
	done
	log "apt-get install ${missing[*]}"
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# 1. System packages.
case "$TORCH" in
cpu)
	GOTCH_DIR=build/gotch
	if [ ! -f "$STAMPS/apt-libtorch" ]; then
		apt_install libtorch-dev libopenblas0-pthread
		touch "$STAMPS/apt-libtorch"
	fi
	blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)
	case "$blas" in
	*openblas*) ;;
	*) log "warning: libblas.so.3 is $blas, not OpenBLAS: matmuls will be ~40x slower (see docs/libtorch.md)" ;;
	esac
	;;
cuda)
	GOTCH_DIR=build/gotch-cuda
	if [ -z "$LIBTORCH" ] || [ ! -d "$LIBTORCH/lib" ] || [ ! -d "$LIBTORCH/include" ]; then
		log "TORCH=cuda needs LIBTORCH=/path to a libtorch folder with include/ and lib/"
		exit 2
	fi
	LIBTORCH=$(cd "$LIBTORCH" && pwd)
	;;
*)
	log "TORCH=$TORCH: want cpu or cuda"
	exit 2
	;;
esac

# 2. A patched copy of gotch. The key names everything the copy depends on, so a
#    change of flavour, path or patch program makes a fresh copy (Go's build cache
#    is keyed by content, so an identical copy does not recompile libtch).
key=$( (echo "$GOTCH_VERSION $TORCH $LIBTORCH $CUDA_HOME $TORCH_CXX11_ABI $TORCH_CXX_STD $GOTCH_EXTRA_STUBS"; cat scripts/patch-gotch.go) | sha256sum | cut -c1-16)
if [ "$(cat "$GOTCH_DIR/.ndb-patch" 2>/dev/null || true)" != "$key" ]; then
	src=$(GOWORK=off go mod download -json "github.com/sugarme/gotch@$GOTCH_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	if [ -z "$src" ] || [ ! -d "$src" ]; then
		log "go mod download gave no folder for gotch $GOTCH_VERSION"
		exit 1
	fi
	log "copying $src to $GOTCH_DIR"
	rm -rf "$GOTCH_DIR.tmp"
	cp -r "$src" "$GOTCH_DIR.tmp"
	chmod -R u+w "$GOTCH_DIR.tmp"
	args=(-dir "$GOTCH_DIR.tmp" -torch "$TORCH" -abi "$TORCH_CXX11_ABI" -std "$TORCH_CXX_STD" -extra-stubs "$GOTCH_EXTRA_STUBS")
	if [ "$TORCH" = cuda ]; then args+=(-libtorch "$LIBTORCH" -cuda "$CUDA_HOME"); fi
	GOWORK=off go run scripts/patch-gotch.go "${args[@]}"
	echo "$key" >"$GOTCH_DIR.tmp/.ndb-patch"
	rm -rf "$GOTCH_DIR"
	mv "$GOTCH_DIR.tmp" "$GOTCH_DIR"
else
	log "$GOTCH_DIR is patched already"
fi

# 3. go.work pointing the gotch requirement at the patched copy. Its go line is the
#    main module's (a go.work may not name an older Go than a module it uses).
gover=$(sed -n 's/^go \([0-9.]*\)$/\1/p' go.mod)
work=$(printf 'go %s\n\nuse .\n\nreplace github.com/sugarme/gotch %s => ./%s\n' "$gover" "$GOTCH_VERSION" "$GOTCH_DIR")
if [ "$(cat go.work 2>/dev/null || true)" != "$work" ]; then
	log "writing go.work (gotch => ./$GOTCH_DIR)"
	printf '%s\n' "$work" >go.work
fi

# 4. Compile libtch now (one big C++ unit, ~4 minutes on 2 cores the first time;
#    Go's build cache keeps it, so this is a no-op afterwards).
if [ "$GOTCH_PREBUILD" = 1 ]; then
	if grep -q 'github.com/sugarme/gotch' go.mod; then
		log "go build gotch (cached after the first time)"
		go build github.com/sugarme/gotch/ts github.com/sugarme/gotch/nn
	else
		log "go.mod does not require gotch yet; skipping the prebuild"
	fi
fi
log "ready ($TORCH, gotch in $GOTCH_DIR)"
