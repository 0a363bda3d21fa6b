// Package modelserver is the pure-Go side of ndb's model server: the JSON-RPC
// protocol that ndb speaks to ndb-infer (the only binary that links libtorch), and
// the client that starts ndb-infer over a pipe on first use, or dials one that
// listens elsewhere (`ndb-infer --listen`, `ndb dap --model-server ADDR`).
//
// The unit of the protocol is a neural session: "session.open" sends the program's
// context, parse and entry with the sampling options and returns an id; the server
// keeps that session's backend (its prompt history and its own KV cache) and
// answers "session.do", "session.peek" and "session.setVariable" with one predicted
// state each, so the hop is per action, never per token. The grammar automaton and
// the constraints are rebuilt in ndb-infer from the same Go packages, so constrained
// decoding is exactly what an in-process model would write. "predict" answers one
// evaluation prompt (ndb eval) without a session.
package modelserver
