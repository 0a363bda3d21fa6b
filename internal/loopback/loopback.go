// Package loopback holds ndb's one rule for network listeners: a server listens on
// this machine's loopback only, unless the user asks for more with --allow-remote,
// and then it warns, since anyone who can connect can run code as the server's
// user through recorded mode.
package loopback

import (
	"fmt"
	"io"
	"net"
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

// Check applies the rule to a listen address before the server listens: nil for a
// loopback address; an error that names the flag for any other address unless
// allowRemote; with allowRemote, it writes the warning to warn (the server's
// stderr) and returns nil. name is the command the warning names, e.g. "ndb dap";
// the caller prefixes the error with it.
func Check(name, addr string, allowRemote bool, warn io.Writer) error {
	local, err := IsLoopback(addr)
	if err != nil {
		return err
	}
	if local {
		return nil
	}
	if !allowRemote {
		return fmt.Errorf("%s is reachable from other machines, and anyone who can connect can run code as this user through recorded mode; listen on 127.0.0.1 or pass %s", addr, Flag)
	}
	fmt.Fprintf(warn, "%s: WARNING: listening on %s, beyond this machine (%s): anyone who can connect can run code as this user through recorded mode\n", name, addr, Flag)
	return nil
}
