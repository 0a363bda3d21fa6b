// Package mcp is ndb's Model Context Protocol server for coding agents
// (github.com/modelcontextprotocol/go-sdk): nine tools (start_session, step, run_to,
// get_state, evaluate, set_variable, predict, compare, end_session) over the same
// session runtime the DAP server uses (package session: Open, Run, Evaluate,
// SetVariable), served on stdio or on the streamable HTTP transport.
//
// It only translates: a tool call's arguments become a session call, and the
// session's state comes back twice, as structured content (State) and as a short
// text an agent can read. Bad input is a tool error (isError) whose message says
// what to fix. Sessions are kept in a registry under unguessable ids, with a limit
// on how many are open and an idle timeout; a tool call on a session waits for the
// call in flight on it, and honours cancellation. See docs/agents.md.
package mcp
