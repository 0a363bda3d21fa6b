// Package loopback holds ndb's one rule for network listeners (ndb dap, ndb mcp,
// ndb-infer): a --listen address is PORT, :PORT or HOST:PORT, the host 127.0.0.1
// unless given; a server listens on this machine's loopback only, unless the user
// asks for more with --allow-remote, and then it warns, naming what anyone who can
// connect can do (run code as the server's user through recorded mode; use the
// model server).
package loopback

import (
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
)

// Flag is the name of the flag that allows a non-loopback address.
const Flag = "--allow-remote"

// IsLoopback reports whether the host of addr ("HOST:PORT") can only be reached
// from this machine: "localhost" or a loopback IP literal. An empty host,
// 0.0.0.0, :: and every other name or address are not.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return true, nil
	}
	ip := net.ParseIP(strings.TrimSuffix(strings.SplitN(host, "%", 2)[0], "."))
	return ip != nil && ip.IsLoopback(), nil
}

// What anyone who can connect to a listener beyond loopback can do: the refusal
// and the warning say it.
const (
	// RiskRunCode is ndb dap's and ndb mcp's: recorded mode runs the programs it is given.
	RiskRunCode = "anyone who can connect can run code as this user through recorded mode"
	// RiskModelServer is ndb-infer's: it has no authentication, and a session names
	// the checkpoint folder it loads.
	RiskModelServer = "anyone who can connect can use this model server (it has no authentication) and have it load any checkpoint folder this user can read"
)

// Addr completes a --listen address: a bare port or ":PORT" listens on 127.0.0.1
// (servers should not be reachable from the network by default); HOST:PORT is kept
// as given. The port must be a number.
func Addr(spec string) (string, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return "", errors.New("empty listen address: want PORT, :PORT or HOST:PORT")
	}
	if _, err := strconv.ParseUint(spec, 10, 16); err == nil {
		return net.JoinHostPort("127.0.0.1", spec), nil
	}
	host, port, err := net.SplitHostPort(spec)
	if err != nil {
		return "", fmt.Errorf("listen address %q: %w", spec, err)
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return "", fmt.Errorf("listen address %q: the port must be a number from 0 to 65535", spec)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// Check applies the rule to a listen address of a server whose remote clients can
// run code (RiskRunCode): CheckRisk.
func Check(name, addr string, allowRemote bool, warn io.Writer) error {
	return CheckRisk(name, addr, allowRemote, RiskRunCode, warn)
}

// CheckRisk applies the rule to a listen address before the server listens: nil for
// a loopback address; for any other address an error that names the flag and risk
// unless allowRemote; with allowRemote, it writes the warning (with risk) to warn
// (the server's stderr) and returns nil. name is the command the warning names,
// e.g. "ndb dap"; the caller prefixes the error with it.
func CheckRisk(name, addr string, allowRemote bool, risk string, warn io.Writer) error {
	local, err := IsLoopback(addr)
	if err != nil {
		return err
	}
	if local {
		return nil
	}
	if !allowRemote {
		return fmt.Errorf("%s is reachable from other machines, and %s; listen on 127.0.0.1 or pass %s", addr, risk, Flag)
	}
	fmt.Fprintf(warn, "%s: WARNING: listening on %s, beyond this machine (%s): %s\n", name, addr, Flag, risk)
	return nil
}
