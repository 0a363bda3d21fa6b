package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"

	"github.com/rs/zerolog/log"

	"github.com/sugarme/gotch"

	"github.com/ndb-project/ndb/adapter"
	"github.com/ndb-project/ndb/infer/neural"
	"github.com/ndb-project/ndb/models"
	"github.com/ndb-project/ndb/session"
)

// runDAP implements `ndb dap [--listen ADDR] [--workers N]`: the Debug Adapter
// Protocol server, on stdin/stdout (one client, as VS Code starts it) or on TCP
// (several clients, each its own session). Logs go to stderr; in stdio mode stdout
// carries only the protocol.
func runDAP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("dap", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve TCP clients on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	workers := fs.Int("workers", 2, "tracer worker processes shared by all sessions")
	model := fs.String("model", "", "checkpoint `DIR` for neural and compare launches that name no \"model\" (default: the bundled model)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return badInput("usage: ndb dap [--listen ADDR] [--workers N] [--model DIR]")
	}
	if *workers <= 0 {
		return badInput("--workers must be positive")
	}
	// Neural and compare launches load the launch's "model" (else --model, else the
	// bundled default); without any, they fail with a clear error.
	srv := adapter.NewServer(adapter.Config{Workers: *workers, Log: log.Logger, Neural: neuralFactory(*model)})
	defer srv.Close()
	if *listen == "" {
		done := make(chan error, 1)
		go func() { done <- srv.ServeStdio(ctx, os.Stdin, os.Stdout) }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			// A read of stdin may not be interruptible: leave it to the exit.
			return nil
		}
	}
	addr, err := adapter.ListenAddr(*listen)
	if err != nil {
		return badInput("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "ndb dap: listening on %s\n", ln.Addr())
	log.Info().Str("addr", ln.Addr().String()).Msg("DAP server listening")
	return srv.Serve(ctx, ln)
}

// neuralFactory builds a neural backend for a launch: the checkpoint is the launch's
// "model", else def, else the bundled default. Each session loads its own model (a
// model's KV cache belongs to one session).
func neuralFactory(def string) adapter.BackendFactory {
	return func(ctx context.Context, cfg adapter.LaunchConfig, prog *adapter.Program) (session.Backend, error) {
		dir := cfg.Model
		if dir == "" {
			dir = def
		}
		dir, err := models.Resolve(dir)
		if err != nil {
			return nil, err
		}
		start, err := neural.EntryState(prog.Context, prog.Parsed, prog.Entry)
		if err != nil {
			return nil, err
		}
		m, tok, err := neural.Load(dir, gotch.CPU)
		if err != nil {
			return nil, err
		}
		b, err := neural.New(m, tok, prog.Context, start, neural.Options{
			Temperature: cfg.Temperature, TopP: 0.95, Seed: cfg.Seed, CloseModel: true,
			Program: neural.ProgramOf(prog.Context, prog.Parsed), // program facts by default (issue 12)
		})
		if err != nil {
			m.Close()
			return nil, err
		}
		return b, nil
	}
}
