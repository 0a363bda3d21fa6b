package fuzzwatch

import "testing"

// Outside fuzzing the watchdog is off: stopping it is all there is to do.
func TestWatchIsOffWithoutFuzzing(t *testing.T) {
	called := false
	stop := Watch(func() string { called = true; return "" })
	stop()
	if fuzzing() || called {
		t.Errorf("fuzzing %v, input described %v", fuzzing(), called)
	}
}
