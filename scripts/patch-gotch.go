//go:build ignore

// Command patch-gotch adapts a writable copy of gotch v0.8.0 to the libtorch it is
// built against. It is run by scripts/setup-libtorch.sh, never on the Go module cache:
//
//	go run scripts/patch-gotch.go -dir build/gotch -torch cpu
//	go run scripts/patch-gotch.go -dir build/gotch-cuda -torch cuda -libtorch /opt/libtorch
//
// It does three things:
//
//  1. replaces libtch/lib.go (the cgo flags) by a CPU variant for Debian's libtorch
//     1.13.1 (headers under /usr/include, libraries in the multiarch directory, C++11
//     ABI) or by a CUDA variant for a libtorch folder given with -libtorch;
//  2. replaces the body of each generated op that does not compile against Debian's
//     libtorch 1.13.1 (see docs/libtorch.md) by a throw of std::runtime_error, so
//     calling one from Go returns an error instead of failing the build;
//  3. fixes two bindings in libtch/tensor.go that read a 4-byte C int as an 8-byte Go
//     int (garbage in the upper half): AtGradSetEnabled, whose wrong "previous mode"
//     made every restore switch gradients off for good, and AtDevice;
//  4. adds libtch/ndb_extra.go, which binds at_get_num_threads, at_set_num_threads and
//     at_manual_seed (declared in torch_api.h but not bound in gotch's Go API);
//  5. fixes two leaks in every generated op of ts/tensor-generated.go: the C.malloc(0)
//     cell that receives the result handle is never freed (and is too small for the
//     handle it receives), and an in-place op (add_, rsqrt_, ...) replaces the
//     tensor's C handle without freeing the old one. The old handle keeps the tensor
//     and, in training, its whole autograd graph alive: about 170 MB a step leaked;
//  6. drops, in ts/tensor.go, the 100 KB of Go heap that gotch allocates beside each
//     tensor to make the Go GC run finalizers sooner, and the two cgo calls per new
//     tensor that only feed a memory counter (kept under gotch.Debug). ndb frees its
//     tensors itself; the ballast cost a third of a decoding step.
//
// It fails if an op is not found, so a different gotch version cannot be patched
// silently wrong.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// brokenOps are the ops of gotch v0.8.0 that do not compile against libtorch 1.13.1.
var brokenOps = []string{
	"atg__chunk_grad_outputs_efficient_attention",
	"atg__ctc_loss_tensor_out",
	"atg__efficient_attention_backward",
	"atg__flash_attention_backward",
	"atg__is_all_true",
	"atg__is_any_true",
	"atg__lstm_mps",
	"atg__lstm_mps_out",
	"atg__native_batch_norm_legit",
	"atg__native_batch_norm_legit_functional",
	"atg__native_batch_norm_legit_no_stats",
	"atg__native_batch_norm_legit_no_stats_out",
	"atg__native_batch_norm_legit_out",
	"atg__prelu_kernel",
	"atg__prelu_kernel_backward",
	"atg__reshape_copy",
	"atg__scaled_dot_product_attention_math",
	"atg__scaled_dot_product_efficient_attention",
	"atg__scaled_dot_product_efficient_attention_backward",
	"atg__scaled_dot_product_flash_attention_backward",
	"atg__sparse_mm_reduce",
	"atg__sparse_mm_reduce_impl",
	"atg__test_check_tensor",
	"atg_max_pool2d_backward",
	"atg_max_pool2d_backward_out",
	"atg_max_unary_out",
	"atg_mkldnn_reorder_conv2d_weight",
	"atg_mkldnn_reorder_conv2d_weight_out",
	"atg_mkldnn_rnn_layer",
	"atg_mkldnn_rnn_layer_backward",
	"atg_mkldnn_rnn_layer_backward_out",
	"atg_mkldnn_rnn_layer_out",
	"atg_scaled_dot_product_attention",
	"atg_squeeze_copy_dims",
	"atg_squeeze_copy_dims_out",
	"atg_squeeze_dims",
	"atg_squeeze_dims_",
	"atg_to_sparse",
	"atg_to_sparse_bsc",
	"atg_to_sparse_bsc_out",
	"atg_to_sparse_bsr",
	"atg_to_sparse_bsr_out",
	"atg_to_sparse_csc",
	"atg_to_sparse_csc_out",
	"atg_to_sparse_csr",
	"atg_to_sparse_csr_out",
	"atg_to_sparse_out",
	"atg__fused_sdp_choice",
}

const cpuLib = `package libtch

// CPU build against Debian's libtorch (written by ndb's scripts/patch-gotch.go).

// #cgo CFLAGS: -I${SRCDIR} -O3 -Wall -Wno-unused-variable -Wno-deprecated-declarations -Wno-c++11-narrowing -g -Wno-sign-compare -Wno-unused-function
// #cgo CFLAGS: -D_GLIBCXX_USE_CXX11_ABI=%[1]s
// #cgo CXXFLAGS: -std=%[3]s -I${SRCDIR} -g -O3 -D_GLIBCXX_USE_CXX11_ABI=%[1]s
// #cgo CXXFLAGS: -I%[2]s/torch/csrc/api/include
// #cgo LDFLAGS: -lstdc++ -ltorch -lc10 -ltorch_cpu
import "C"
`

const cudaLib = `package libtch

// CUDA build against the libtorch in %[2]s (written by ndb's scripts/patch-gotch.go).
// libtorch_cuda is linked with --no-as-needed: nothing references it directly, and
// without it libtorch registers no CUDA backend.

// #cgo CFLAGS: -I${SRCDIR} -O3 -Wall -Wno-unused-variable -Wno-deprecated-declarations -Wno-c++11-narrowing -g -Wno-sign-compare -Wno-unused-function
// #cgo CFLAGS: -D_GLIBCXX_USE_CXX11_ABI=%[1]s
// #cgo CXXFLAGS: -std=%[4]s -I${SRCDIR} -g -O3 -D_GLIBCXX_USE_CXX11_ABI=%[1]s
// #cgo CXXFLAGS: -I%[2]s/include -I%[2]s/include/torch/csrc/api/include -I%[3]s/include
// #cgo LDFLAGS: -lstdc++ -L%[2]s/lib -Wl,-rpath,%[2]s/lib
// #cgo LDFLAGS: -Wl,--no-as-needed -ltorch_cuda -lc10_cuda -Wl,--as-needed -ltorch -lc10 -ltorch_cpu
import "C"
`

const extraFile = `package libtch

// Added by ndb's scripts/patch-gotch.go: bindings that torch_api.h declares but gotch's
// Go API leaves out.

//#include <stdbool.h>
//#include <stdint.h>
//#include "torch_api.h"
import "C"

// AtGetNumThreads returns libtorch's intra-op thread count.
func AtGetNumThreads() int { return int(C.at_get_num_threads()) }

// AtSetNumThreads sets libtorch's intra-op thread count.
func AtSetNumThreads(n int) { C.at_set_num_threads(C.int(n)) }

// AtManualSeed seeds libtorch's default random generators.
func AtManualSeed(seed int64) { C.at_manual_seed(C.int64_t(seed)) }
`

func main() {
	dir := flag.String("dir", "", "writable copy of gotch to patch (required)")
	torch := flag.String("torch", "cpu", "cpu (Debian's libtorch) or cuda")
	libtorch := flag.String("libtorch", "", "libtorch folder with include/ and lib/ (cuda); for cpu, the system include directory")
	cuda := flag.String("cuda", "/usr/local/cuda", "CUDA toolkit folder, for its headers (cuda)")
	std := flag.String("std", "c++17", "C++ standard of the libtch build")
	abi := flag.String("abi", "1", "value of _GLIBCXX_USE_CXX11_ABI")
	extra := flag.String("extra-stubs", "", "comma-separated further ops to stub (for another libtorch)")
	flag.Parse()
	if err := run(*dir, *torch, *libtorch, *cuda, *abi, *std, *extra); err != nil {
		fmt.Fprintln(os.Stderr, "patch-gotch:", err)
		os.Exit(1)
	}
}

func run(dir, torch, libtorch, cuda, abi, std, extra string) error {
	if dir == "" {
		return fmt.Errorf("-dir is required")
	}
	var lib string
	switch torch {
	case "cpu":
		if libtorch == "" {
			libtorch = "/usr/include"
		}
		lib = fmt.Sprintf(cpuLib, abi, libtorch, std)
	case "cuda":
		if libtorch == "" {
			return fmt.Errorf("-torch cuda needs -libtorch (a folder with include/ and lib/)")
		}
		lib = fmt.Sprintf(cudaLib, abi, libtorch, cuda, std)
	default:
		return fmt.Errorf("-torch %q: want cpu or cuda", torch)
	}
	libtch := filepath.Join(dir, "libtch")
	if err := os.WriteFile(filepath.Join(libtch, "lib.go"), []byte(lib), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(libtch, "ndb_extra.go"), []byte(extraFile), 0o644); err != nil {
		return err
	}
	if err := fixBindings(filepath.Join(libtch, "tensor.go")); err != nil {
		return err
	}
	ops := append([]string(nil), brokenOps...)
	for _, op := range strings.Split(extra, ",") {
		if op = strings.TrimSpace(op); op != "" {
			ops = append(ops, op)
		}
	}
	gen := filepath.Join(libtch, "torch_api_generated.cpp.h")
	src, err := os.ReadFile(gen)
	if err != nil {
		return err
	}
	out, err := stubOps(string(src), ops)
	if err != nil {
		return err
	}
	if err := os.WriteFile(gen, []byte(out), 0o644); err != nil {
		return err
	}
	if err := fixOpLeaks(filepath.Join(dir, "ts", "tensor-generated.go")); err != nil {
		return err
	}
	if err := dropBallast(filepath.Join(dir, "ts", "tensor.go")); err != nil {
		return err
	}
	fmt.Printf("patch-gotch: %s: lib.go for %s, %d ops stubbed, 2 bindings fixed, ndb_extra.go added, op leaks fixed, ballast dropped\n", dir, torch, len(ops))
	return nil
}

// fixBindings rewrites the C int to Go int conversions of AtGradSetEnabled and
// AtDevice as plain conversions.
func fixBindings(path string) error {
	return replaceOnce(path, [][2]string{
		{"return *(*int)(unsafe.Pointer(&cretVal))", "return int(cretVal)"},
		{"return *(*int)(unsafe.Pointer(&cint))", "return int(cint)"},
	})
}

// replaceOnce replaces, in the file at path, each fix's old text (which must occur
// exactly once) by its new text.
func replaceOnce(path string, fixes [][2]string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(src)
	for _, fix := range fixes {
		if strings.Count(s, fix[0]) != 1 {
			return fmt.Errorf("%s: %q found %d times, want once", path, fix[0], strings.Count(s, fix[0]))
		}
		s = strings.Replace(s, fix[0], fix[1], 1)
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// stubOps replaces, for each op, the lines between "  PROTECT(" and its closing
// "  )" by a throw. The op's definition is the line that starts with a return type
// and contains " name(" and ends with "{".
func stubOps(src string, ops []string) (string, error) {
	lines := strings.Split(src, "\n")
	for _, op := range ops {
		def := -1
		for i, l := range lines {
			if strings.Contains(l, " "+op+"(") && strings.HasSuffix(l, "{") && !strings.HasPrefix(l, " ") {
				if def >= 0 {
					return "", fmt.Errorf("%s: defined twice", op)
				}
				def = i
			}
		}
		if def < 0 {
			return "", fmt.Errorf("%s: definition not found", op)
		}
		if def+1 >= len(lines) || lines[def+1] != "  PROTECT(" {
			return "", fmt.Errorf("%s: no PROTECT( after line %d", op, def+1)
		}
		end := -1
		for j := def + 2; j < len(lines) && lines[j] != "}"; j++ {
			if lines[j] == "  )" {
				end = j
				break
			}
		}
		if end < 0 {
			return "", fmt.Errorf("%s: end of PROTECT( not found", op)
		}
		throw := fmt.Sprintf(`    throw std::runtime_error("%s is not available in this libtorch (stubbed by ndb's scripts/patch-gotch.go)");`, op)
		rest := append([]string{throw}, lines[end:]...)
		lines = append(lines[:def+2], rest...)
	}
	return strings.Join(lines, "\n"), nil
}

// replaceAll replaces old by new in s, and fails unless old occurs at least min times.
func replaceAll(path, s, old, new string, min int) (string, error) {
	if n := strings.Count(s, old); n < min {
		return "", fmt.Errorf("%s: %q found %d times, want at least %d", path, old, n, min)
	}
	return strings.ReplaceAll(s, old, new), nil
}

// fixOpLeaks frees each op's result cell after use and, in in-place ops, the
// tensor's previous C handle before it is overwritten.
func fixOpLeaks(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(src)
	s, err = replaceAll(path, s,
		"ptr := (*lib.Ctensor)(unsafe.Pointer(C.malloc(0)))\n",
		"ptr := (*lib.Ctensor)(unsafe.Pointer(C.malloc(C.size_t(unsafe.Sizeof(uintptr(0))))))\n  defer C.free(unsafe.Pointer(ptr))\n", 2000)
	if err != nil {
		return err
	}
	s, err = replaceAll(path, s, "  ts.ctensor = *ptr\n", "  lib.AtFree(ts.ctensor)\n  ts.ctensor = *ptr\n", 200)
	if err != nil {
		return err
	}
	return os.WriteFile(path, []byte(s), 0o644)
}

// dropBallast removes the 100 KB allocation and the memory counting of newTensor.
func dropBallast(path string) error {
	return replaceOnce(path, [][2]string{
		{"\tx.d = new(bigStruct)\n", ""},
		{"\tnbytes := x.nbytes()\n\tatomic.AddInt64(&AllocatedMem, nbytes)\n",
			"\tvar nbytes int64\n\tif gotch.Debug {\n\t\tnbytes = x.nbytes()\n\t\tatomic.AddInt64(&AllocatedMem, nbytes)\n\t}\n"},
	})
}
