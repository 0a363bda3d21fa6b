package train

import (
	"fmt"

	"github.com/sugarme/gotch/ts"
)

// torchError is the panic value of mustT and checkT: a libtorch error inside the
// optimizer or the clipping. gotch's own Must* functions would end the process with
// log.Fatal; these panic, and recoverTorch turns the panic into an ordinary error.
type torchError struct{ err error }

// mustT returns t or panics with a torchError.
func mustT(t *ts.Tensor, err error) *ts.Tensor {
	checkT(err)
	return t
}

// checkT panics with a torchError when err is not nil.
func checkT(err error) {
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
