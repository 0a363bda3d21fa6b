package infer

// Share returns a model that runs m's weights with a KV cache of its own, so that
// several sessions (a model server's) keep their caches while the checkpoint is
// loaded once. Close of the share frees only its cache; m must outlive it. Like m,
// the shares must not run concurrently with each other (libtorch calls stay on one
// goroutine at a time: the caller serialises them).
func (m *Model) Share() *Model {
	s := *m
	s.cache, s.shared = nil, true
	return &s
}
