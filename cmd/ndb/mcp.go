package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/adapter/mcp"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
)

// `ndb mcp` is registered here so that the command's whole surface sits in one file.
func init() {
	commands["mcp"] = command{"serve the Model Context Protocol for coding agents (stdio, or streamable HTTP with --listen)", runMCP}
}

// mcpUsage is `ndb mcp`'s usage line.
const mcpUsage = "usage: ndb mcp [--listen ADDR [--allow-remote]] [--max-sessions N] [--idle-timeout D] [--workers N] [--model DIR] [--device DEV] [--constraints program|grammar] [--model-server ADDR]"

// mcpFlags are `ndb mcp`'s flags: the server's configuration and where it listens.
type mcpFlags struct {
	cfg         mcp.Config
	listen      string
	allowRemote bool
}

// parseMCP reads `ndb mcp`'s flags; bad ones are usage errors.
func parseMCP(args []string) (mcpFlags, error) {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve the streamable HTTP transport on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	allowRemote := fs.Bool("allow-remote", false, "allow a --listen address beyond loopback (anyone who can connect can run code as this user)")
	maxSessions := fs.Int("max-sessions", 16, "the most sessions open at once (0: no limit)")
	idle := fs.Duration("idle-timeout", 30*time.Minute, "close a session no tool used for this long (0: never)")
	workers := fs.Int("workers", 2, "tracer worker processes shared by all sessions")
	model := fs.String("model", "", "checkpoint `DIR` for neural and compare sessions that name no model (default: the bundled model; with --model-server, a folder on the server's machine)")
	device := fs.String("device", "cpu", "where the model runs: cpu, cuda, cuda:N or auto")
	var grammarOnly bool
	fs.Var(constraintsFlag{&grammarOnly}, "constraints", constraintsUsage)
	modelServer := fs.String("model-server", "", "a model server's `ADDR` (HOST:PORT of ndb-infer --listen) for neural and compare sessions (default: ndb-infer started over a pipe)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return mcpFlags{}, err
	}
	switch {
	case len(rest) > 0:
		return mcpFlags{}, badInput(mcpUsage)
	case *workers <= 0:
		return mcpFlags{}, badInput("--workers must be positive")
	case *maxSessions < 0 || *idle < 0:
		return mcpFlags{}, badInput("--max-sessions and --idle-timeout must not be negative")
	}
	if err := modelserver.CheckDevice(*device); err != nil {
		return mcpFlags{}, badInput("%v", err)
	}
	if *modelServer != "" {
		if _, _, err := net.SplitHostPort(*modelServer); err != nil {
			return mcpFlags{}, badInput("--model-server %q: want the HOST:PORT of ndb-infer --listen", *modelServer)
		}
	} else if *model != "" { // with a model server, a folder on its machine: not checked here
		if st, err := os.Stat(*model); err != nil || !st.IsDir() {
			return mcpFlags{}, badInput("--model %s: not a checkpoint folder", *model)
		}
	}
	return mcpFlags{
		cfg: mcp.Config{
			Session: session.Options{Model: *model, Device: *device, GrammarOnly: grammarOnly, ModelServer: *modelServer},
			Workers: *workers, MaxSessions: *maxSessions, IdleTimeout: *idle, Log: log.Logger,
		},
		listen: *listen, allowRemote: *allowRemote,
	}, nil
}

// runMCP implements `ndb mcp [--listen ADDR [--allow-remote]] [--max-sessions N] [--idle-timeout D]
// [--workers N] [--model DIR] [--device DEV] [--constraints program|grammar] [--model-server ADDR]`:
// the MCP server (package adapter/mcp) on stdin/stdout, or on the streamable HTTP
// transport at ADDR (loopback unless --allow-remote, see internal/loopback). Its
// neural and compare sessions run the model in ndb-infer over a pipe, or in the
// model server at --model-server (docs/model-server.md). Logs go to stderr; in stdio
// mode stdout carries only the protocol.
func runMCP(ctx context.Context, args []string) error {
	f, err := parseMCP(args)
	if err != nil {
		return err
	}
	srv := mcp.NewServer(f.cfg)
	defer srv.Close()
	if f.listen == "" {
		done := make(chan error, 1)
		go func() { done <- srv.ServeStdio(ctx, os.Stdin, os.Stdout) }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return nil // a read of stdin may not be interruptible: leave it to the exit
		}
	}
	ln, err := listenTCP("ndb mcp", f.listen, f.allowRemote)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "ndb mcp: serving http://%s\n", ln.Addr())
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
