//go:build ignore

// Command libtorch-check is a quick sanity check of the libtorch/gotch setup: it
// prints libtorch's and OpenBLAS's thread counts, the library behind libblas.so.3,
// and the speed of a 2048x512 @ 512x512 fp32 matmul with OpenBLAS on one thread and
// on all cores. Below -min GFLOP/s (best of the two) it fails: that is the reference
// BLAS, not OpenBLAS (docs/libtorch.md).
//
//	go run scripts/libtorch-check.go [-min 20]
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/ndb-project/ndb/infer"
	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/ts"
)

func main() {
	minGF := flag.Float64("min", 20, "fail below this many GFLOP/s")
	flag.Parse()
	runtime.LockOSThread()

	threads := infer.SetThreads(0)
	blas, _ := filepath.EvalSymlinks("/usr/lib/x86_64-linux-gnu/libblas.so.3")
	fmt.Printf("cores %d, libtorch threads %d (NDB_THREADS=%q)\n", runtime.NumCPU(), threads, os.Getenv("NDB_THREADS"))
	fmt.Printf("libblas.so.3: %s\n", blas)

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
	best := 0.0
	for _, bt := range []int{1, runtime.NumCPU()} { // OpenBLAS on one core, then all
		if !infer.SetBLASThreads(bt) {
			fmt.Println("OpenBLAS is not loaded: libtorch uses another BLAS")
		}
		run(3) // warm up
		n := 20
		d := run(n)
		gf := float64(n) * 2 * 2048 * 512 * 512 / d.Seconds() / 1e9
		best = math.Max(best, gf)
		fmt.Printf("matmul 2048x512x512 fp32, OpenBLAS threads %d: %.1f GFLOP/s (%.2f ms)\n", infer.BLASThreads(), gf, d.Seconds()*1e3/float64(n))
	}
	if best < *minGF {
		fmt.Printf("FAIL: below %.0f GFLOP/s; is libopenblas0-pthread installed and libblas.so.3 pointing at it?\n", *minGF)
		os.Exit(1)
	}
	fmt.Println("ok")
}
