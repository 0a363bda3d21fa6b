package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/adapter"
	"github.com/ndb-project/ndb/modelserver"
	"github.com/ndb-project/ndb/session"
)

// runDAP implements `ndb dap [--listen ADDR [--allow-remote]] [--workers N] [--model DIR] [--device DEV]`:
// the Debug Adapter Protocol server, on stdin/stdout (one client, as VS Code starts
// it) or on TCP (several clients, each its own session; loopback only unless
// --allow-remote, see internal/loopback). Logs go to stderr; in stdio mode stdout
// carries only the protocol.
func runDAP(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("dap", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve TCP clients on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	allowRemote := fs.Bool("allow-remote", false, "allow a --listen address beyond loopback (anyone who can connect can run code as this user)")
	workers := fs.Int("workers", 2, "tracer worker processes shared by all sessions")
	model := fs.String("model", "", "checkpoint `DIR` for neural and compare launches that name no \"model\" (default: the bundled model)")
	device := fs.String("device", "cpu", "where neural and compare launches run the model: cpu, cuda, cuda:N or auto")
	var grammarOnly bool
	fs.Var(constraintsFlag{&grammarOnly}, "constraints", constraintsUsage)
	modelServer := fs.String("model-server", "", "a model server's `ADDR` (HOST:PORT of ndb-infer --listen) for neural and compare launches that name no \"modelServer\" (default: ndb-infer started over a pipe)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return badInput("usage: ndb dap [--listen ADDR [--allow-remote]] [--workers N] [--model DIR] [--device DEV] [--constraints program|grammar] [--model-server ADDR]")
	}
	if *workers <= 0 {
		return badInput("--workers must be positive")
	}
	if err := modelserver.CheckDevice(*device); err != nil {
		return badInput("%v", err)
	}
	// Neural and compare launches load the launch's "model" (else --model, else the
	// bundled default) on --device, each session its own.
	srv := adapter.NewServer(adapter.Config{Workers: *workers, Log: log.Logger, Session: session.Options{Model: *model, Device: *device, GrammarOnly: grammarOnly, ModelServer: *modelServer}})
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
	ln, err := listenTCP("ndb dap", *listen, *allowRemote)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "ndb dap: listening on %s\n", ln.Addr())
	log.Info().Str("addr", ln.Addr().String()).Msg("DAP server listening")
	return srv.Serve(ctx, ln)
}
