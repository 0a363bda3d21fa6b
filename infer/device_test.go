package infer

import (
	"runtime"
	"testing"
)

// A checkpoint's load runs on one thread, and the model's predictions afterwards get
// the threads the server was given back.
func TestSingleThreadedRestoresThreads(t *testing.T) {
	runtime.LockOSThread() // OpenMP's count is per thread: ask the one that set it
	defer runtime.UnlockOSThread()
	before := SetThreads(2)
	defer SetThreads(before)
	var inside int
	SingleThreaded(func() { inside = Threads() })
	if inside != 1 {
		t.Errorf("threads during SingleThreaded: %d, want 1", inside)
	}
	if got := Threads(); got != 2 {
		t.Errorf("threads after SingleThreaded: %d, want 2 back", got)
	}
}
