package session

import (
	"context"
	"errors"
	"sync"
)

// NeuralFactory builds the neural backend of a session from its program (parsed,
// with its context; in compare mode also its recording, which the predicted side
// must not look at beyond its entry state) and the session's options.
type NeuralFactory func(ctx context.Context, prog *Program, opt Options) (Backend, error)

// ErrNoNeural says that this build has no neural backend: no factory was registered.
var ErrNoNeural = errors.New("this build of ndb has no neural backend (use the recorded mode)")

var registry struct {
	mu sync.Mutex
	f  NeuralFactory
	w  func(Options)
}

// RegisterNeuralWarmer sets a function that Open calls, on its own goroutine, as a
// neural or compare session of the registered factory starts opening, before the
// program is parsed or recorded: a model server can start meanwhile.
func RegisterNeuralWarmer(w func(Options)) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	registry.w = w
}

func registeredWarmer() func(Options) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return registry.w
}

// RegisterNeural sets the factory of the neural backend, once, in the binary that
// links the model (cmd/ndb registers infer/neural's Open). Packages that must build
// without libtorch (session, adapter) never import the model: they reach it through
// this factory.
func RegisterNeural(f NeuralFactory) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	registry.f = f
}

// NeuralAvailable reports whether a neural factory is registered.
func NeuralAvailable() bool { return registeredNeural() != nil }

func registeredNeural() NeuralFactory {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return registry.f
}
