// Package adapter is ndb's Debug Adapter Protocol server: connections, dispatch, launch
// configuration, handles and events, on top of package session.
package adapter
