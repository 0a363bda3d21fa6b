// Package session is ndb's debugging runtime, free of any protocol: every front end
// (the DAP server in package adapter, the CLI's predict and compare, the MCP server)
// opens a session with Open and drives it with Run and Do.
//
// A session owns the debugging semantics: the backend it steps (neural, recorded —
// Replay, a real execution under package trace — or both in lockstep, Compare), the
// history of actions and outcomes, the call stack derived from them and each
// frame's latest locals, breakpoints, the exception filters, the step limit, the
// plans a debugger's commands make (a step, a continue) and the stops they end in,
// and the expression evaluator over reprs (Eval), which never runs the program.
//
// session imports trace, the tracer and the state trees that the recorded backend
// replays, and grammar; never the model: the neural backend is built by a factory
// the binary registers (RegisterNeural), so session and the front ends above it
// build and test without libtorch.
package session
