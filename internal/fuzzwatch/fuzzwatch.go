// Package fuzzwatch is a per-input watchdog for fuzz targets. Go's fuzzer notices
// a crash, but an input that is merely slow (a super-linear path) only stalls the
// run, which then ends with "context deadline exceeded" and no input saved. Under
// `go test -fuzz`, Watch panics when one input runs longer than a limit; the
// panic ends the fuzz worker, and the fuzzer saves the input under
// testdata/fuzz/ as a failure, to be fixed and kept as a seed. Under a plain
// `go test` (the seed corpus only) the watchdog is off: tests never depend on
// wall-clock time.
package fuzzwatch

import (
	"flag"
	"fmt"
	"os"
	"time"
)

// DefaultLimit is how long one input may run, unless NDB_FUZZ_INPUT_LIMIT (a Go
// duration) says otherwise.
const DefaultLimit = 2 * time.Second

// Watch starts the watchdog for one input and returns the function that stops it
// (defer it). input describes the input in the panic message.
func Watch(input func() string) (stop func()) {
	if !fuzzing() {
		return func() {}
	}
	limit := DefaultLimit
	if d, err := time.ParseDuration(os.Getenv("NDB_FUZZ_INPUT_LIMIT")); err == nil && d > 0 {
		limit = d
	}
	start := time.Now()
	t := time.AfterFunc(limit, func() {
		panic(fmt.Sprintf("fuzzwatch: one input ran for more than %s (started %s ago): %.300q",
			limit, time.Since(start).Round(time.Millisecond), input()))
	})
	return func() { t.Stop() }
}

// fuzzing reports whether the test binary runs with -test.fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}
