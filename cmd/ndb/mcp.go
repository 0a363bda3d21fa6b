package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
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

// runMCP implements `ndb mcp [--listen ADDR [--allow-remote]] [--max-sessions N] [--idle-timeout D]
// [--workers N] [--model DIR] [--device DEV]`: the MCP server (package adapter/mcp)
// on stdin/stdout, or on the streamable HTTP transport at ADDR (loopback unless
// --allow-remote, see internal/loopback). Logs go to stderr; in stdio mode stdout
// carries only the protocol.
func runMCP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve the streamable HTTP transport on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	allowRemote := fs.Bool("allow-remote", false, "allow a --listen address beyond loopback (anyone who can connect can run code as this user)")
	maxSessions := fs.Int("max-sessions", 16, "the most sessions open at once (0: no limit)")
	idle := fs.Duration("idle-timeout", 30*time.Minute, "close a session no tool used for this long (0: never)")
	workers := fs.Int("workers", 2, "tracer worker processes shared by all sessions")
	model := fs.String("model", "", "checkpoint `DIR` for neural and compare sessions that name no model (default: the bundled model)")
	device := fs.String("device", "cpu", "where the model runs: cpu, cuda, cuda:N or auto")
	var grammarOnly bool
	fs.Var(constraintsFlag{&grammarOnly}, "constraints", constraintsUsage)
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(rest) > 0:
		return badInput("usage: ndb mcp [--listen ADDR [--allow-remote]] [--max-sessions N] [--idle-timeout D] [--workers N] [--model DIR] [--device DEV] [--constraints program|grammar]")
	case *workers <= 0:
		return badInput("--workers must be positive")
	case *maxSessions < 0 || *idle < 0:
		return badInput("--max-sessions and --idle-timeout must not be negative")
	}
	if err := modelserver.CheckDevice(*device); err != nil {
		return badInput("%v", err)
	}
	if *model != "" {
		if st, err := os.Stat(*model); err != nil || !st.IsDir() {
			return badInput("--model %s: not a checkpoint folder", *model)
		}
	}
	srv := mcp.NewServer(mcp.Config{
		Session: session.Options{Model: *model, Device: *device, GrammarOnly: grammarOnly}, Workers: *workers,
		MaxSessions: *maxSessions, IdleTimeout: *idle, Log: log.Logger,
	})
	defer srv.Close()
	if *listen == "" {
		done := make(chan error, 1)
		go func() { done <- srv.ServeStdio(ctx, os.Stdin, os.Stdout) }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return nil // a read of stdin may not be interruptible: leave it to the exit
		}
	}
	ln, err := listenTCP("ndb mcp", *listen, *allowRemote)
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
