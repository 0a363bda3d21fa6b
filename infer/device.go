package infer

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/libtch"
	"github.com/sugarme/gotch/ts"
)

// ParseDevice turns a --device flag into a gotch device: "cpu", "cuda" (an error when
// libtorch sees no GPU), "cuda:N", or "auto" (the first GPU when there is one, else the
// CPU). An empty string means "auto".
func ParseDevice(s string) (gotch.Device, error) {
	switch s = strings.ToLower(strings.TrimSpace(s)); {
	case s == "cpu":
		return gotch.CPU, nil
	case s == "" || s == "auto":
		return gotch.CudaIfAvailable(), nil
	case s == "cuda" || strings.HasPrefix(s, "cuda:"):
		n := 0
		if i := strings.IndexByte(s, ':'); i >= 0 {
			v, err := strconv.Atoi(s[i+1:])
			if err != nil || v < 0 {
				return gotch.CPU, fmt.Errorf("device %q: bad GPU index", s)
			}
			n = v
		}
		if !gotch.CUDA.IsAvailable() {
			return gotch.CPU, fmt.Errorf("device %q: libtorch sees no CUDA device (a CPU build of libtorch, or no GPU; see docs/libtorch.md)", s)
		}
		if int64(n) >= gotch.CUDA.DeviceCount() {
			return gotch.CPU, fmt.Errorf("device %q: only %d GPUs", s, gotch.CUDA.DeviceCount())
		}
		return gotch.CudaBuilder(uint(n)), nil
	}
	return gotch.CPU, fmt.Errorf("device %q: want cpu, cuda, cuda:N or auto", s)
}

// DeviceName is the lower-case name of a device, as ParseDevice reads it.
func DeviceName(d gotch.Device) string {
	if d.IsCuda() {
		return fmt.Sprintf("cuda:%d", d.Value)
	}
	return "cpu"
}

// SetThreads sets libtorch's intra-op thread count, a process-wide setting. n <= 0
// means the NDB_THREADS environment variable when set, else the number of cores.
// When NDB_BLAS_THREADS is set and OpenBLAS is the BLAS behind libtorch, OpenBLAS's
// own thread pool is set to that many threads; otherwise it keeps OpenBLAS's default
// (OPENBLAS_NUM_THREADS, else all cores), which measured best here (docs/libtorch.md).
// It returns libtorch's count now in force. Call it once at start-up, before the
// first model call. A count already in force is left alone: setting it rebuilds
// libtorch's thread pools, whose new workers busy-wait a while (measured: about a
// tenth of a second of a neural launch's CPU).
func SetThreads(n int) int {
	if n <= 0 {
		n = envInt("NDB_THREADS", runtime.NumCPU())
	}
	if n != libtch.AtGetNumThreads() {
		libtch.AtSetNumThreads(n)
	}
	if b := envInt("NDB_BLAS_THREADS", 0); b > 0 {
		SetBLASThreads(b)
	}
	return libtch.AtGetNumThreads()
}

// SingleThreaded runs fn with libtorch's intra-op threads at one and then restores
// the count: for a checkpoint's load, a few dozen copies too small to share, during
// which OpenMP's idle workers would only busy-wait between operations and take a
// core from the processes starting beside the model. fn runs on the calling
// goroutine's OS thread, locked for it: OpenMP keeps the count per thread (libtorch
// copies its own count to a thread at that thread's first parallel operation), so
// only the thread that set it is sure to use it. Not for use while another
// goroutine runs the model (libtorch's own count and thread pool are process-wide).
func SingleThreaded(fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	n := libtch.AtGetNumThreads()
	if n <= 1 {
		fn()
		return
	}
	libtch.AtSetNumThreads(1)
	defer libtch.AtSetNumThreads(n)
	fn()
}

// envInt is the positive integer in environment variable name, or def.
func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// Threads returns libtorch's intra-op thread count.
func Threads() int { return libtch.AtGetNumThreads() }

// Seed seeds libtorch's random generators (weight initialisation, dropout).
func Seed(seed int64) { libtch.AtManualSeed(seed) }

// NoGrad runs fn with libtorch's gradient recording off. Grad mode is a per-OS-thread
// setting in libtorch, so fn runs with the calling goroutine locked to its thread, and
// the previous mode is restored afterwards.
func NoGrad(fn func()) { withGrad(false, fn) }

// withGrad runs fn on a locked OS thread with grad mode set to on, then restores it.
func withGrad(on bool, fn func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, err := ts.GradSetEnabled(on)
	if err != nil {
		panic(err)
	}
	defer ts.GradSetEnabled(prev)
	fn()
}

// torchError is the panic value of must: a libtorch error inside a model call. The
// exported entry points recover it into an ordinary error (gotch's Must* functions
// would end the process with log.Fatal instead).
type torchError struct{ err error }

// must returns t or panics with a torchError.
func must(t *ts.Tensor, err error) *ts.Tensor {
	if err != nil {
		panic(torchError{err})
	}
	return t
}

// check panics with a torchError when err is not nil.
func check(err error) {
	if err != nil {
		panic(torchError{err})
	}
}

// recoverTorch turns a torchError panic into *errp; other panics go on.
func recoverTorch(errp *error, what string) {
	if r := recover(); r != nil {
		te, ok := r.(torchError)
		if !ok {
			panic(r)
		}
		*errp = fmt.Errorf("%s: %w", what, te.err)
	}
}

// drop frees tensors now rather than at the next garbage collection.
func drop(tensors ...*ts.Tensor) {
	for _, t := range tensors {
		if t != nil {
			t.MustDrop()
		}
	}
}
