// Package adapter is ndb's Debug Adapter Protocol server (github.com/google/go-dap):
// connections over stdio or TCP, one session per client, the dispatch of requests in
// tiers, launch configuration, frame and variable handles, events and error responses
// with stable ids. It knows the protocol; package session knows debugging. The
// recorded backend comes from package trace; the neural one plugs in through
// Config.Neural. See docs/dap.md for what a client sees, and Server for which
// goroutine owns what.
package adapter
