//go:build ignore

// Command libtorch-check is a quick sanity check of the libtorch/gotch setup: it
// prints libtorch's thread count, the library behind libblas.so.3, and the speed of
// a 2048x512 @ 512x512 fp32 matmul. Below 20 GFLOP/s it fails: that is the
// reference BLAS, not OpenBLAS (docs/libtorch.md).
//
//	go run scripts/libtorch-check.go [-threads N] [-min 20]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/libtch"
	"github.com/sugarme/gotch/ts"
)

func main() {
	threads := flag.Int("threads", runtime.NumCPU(), "libtorch intra-op threads")
	minGF := flag.Float64("min", 20, "fail below this many GFLOP/s")
	flag.Parse()
	runtime.LockOSThread()

	libtch.AtSetNumThreads(*threads)
	blas, _ := filepath.EvalSymlinks("/usr/lib/x86_64-linux-gnu/libblas.so.3")
	fmt.Printf("libtorch threads: %d (cores %d)\n", libtch.AtGetNumThreads(), runtime.NumCPU())
	fmt.Printf("libblas.so.3:     %s\n", blas)
	fmt.Printf("OPENBLAS_NUM_THREADS=%q OMP_NUM_THREADS=%q\n", os.Getenv("OPENBLAS_NUM_THREADS"), os.Getenv("OMP_NUM_THREADS"))

	a := ts.MustRandn([]int64{2048, 512}, gotch.Float, gotch.CPU)
	b := ts.MustRandn([]int64{512, 512}, gotch.Float, gotch.CPU)
	defer a.MustDrop()
	defer b.MustDrop()
	run := func(n int) time.Duration {
		start := time.Now()
		for i := 0; i < n; i++ {
			c := a.MustMatmul(b, false)
			c.MustDrop()
		}
		return time.Since(start)
	}
	run(3) // warm up
	n := 20
	d := run(n)
	gf := float64(n) * 2 * 2048 * 512 * 512 / d.Seconds() / 1e9
	fmt.Printf("matmul 2048x512x512 fp32: %.1f GFLOP/s (%.2f ms each)\n", gf, d.Seconds()*1e3/float64(n))
	if gf < *minGF {
		fmt.Printf("FAIL: below %.0f GFLOP/s; is libopenblas0-pthread installed and libblas.so.3 pointing at it?\n", *minGF)
		os.Exit(1)
	}
	fmt.Println("ok")
}
