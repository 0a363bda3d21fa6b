// Package session is one debugging session, free of the Debug Adapter Protocol: the
// current state, the call stack derived from the history, breakpoints, the prompt
// (context, states and actions so far), direction switches, and the Backend interface
// that a session steps (neural, recorded, or both in compare mode).
package session
