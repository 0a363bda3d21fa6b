package main

import (
	"net"
	"os"

	"github.com/ndb-project/ndb/adapter"
	"github.com/ndb-project/ndb/internal/loopback"
)

// listenTCP opens the TCP listener of a server command (name is "ndb dap" or "ndb
// mcp"): spec is PORT, :PORT or HOST:PORT (the host defaults to 127.0.0.1), and an
// address beyond loopback needs allowRemote (internal/loopback), which warns on
// stderr. A bad address is a usage error.
func listenTCP(name, spec string, allowRemote bool) (net.Listener, error) {
	addr, err := adapter.ListenAddr(spec)
	if err != nil {
		return nil, badInput("%v", err)
	}
	if err := loopback.Check(name, addr, allowRemote, os.Stderr); err != nil {
		return nil, badInput("%v", err)
	}
	return net.Listen("tcp", addr)
}
