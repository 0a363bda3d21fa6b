// Package server is ndb-infer's model server: it answers the modelserver protocol
// (JSON-RPC) with the model, over a pipe (stdin and stdout) or TCP connections.
// Each checkpoint is loaded once per device and shared by the sessions, each of
// which keeps its own backend (infer/neural) and KV cache (infer.Model.Share), so
// concurrent sessions are isolated; the model runs one request at a time (libtorch
// calls stay on one goroutine at a time), and the number of open sessions is
// bounded (Options.MaxSessions).
package server
