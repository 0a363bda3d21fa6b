// Package adapter is ndb's Debug Adapter Protocol server (github.com/google/go-dap):
// connections over stdio or TCP, one session per client, the dispatch of requests in
// tiers, launch configuration, frame and variable handles, events and error responses
// with stable ids. It only translates: a launch opens a session.Session
// (session.Open), a resuming request runs a plan on it (session.Run) and its stop
// becomes a stopped, exited or terminated event, and stackTrace, scopes, variables
// and evaluate read the session's stack, frame locals and evaluator. It knows the
// protocol; package session knows debugging. See docs/dap.md for what a client sees,
// and Server for which goroutine owns what.
package adapter
