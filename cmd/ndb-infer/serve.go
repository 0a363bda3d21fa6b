package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/server"
	"github.com/ndb-project/ndb/internal/loopback"
)

// runServe serves the model: on stdin/stdout (one client, the ndb that started it)
// or, with --listen, on TCP: loopback unless --allow-remote, which warns
// (internal/loopback, the rule ndb dap and ndb mcp follow).
func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ndb-infer", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve TCP clients on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	allowRemote := fs.Bool("allow-remote", false, "allow a --listen address beyond loopback (anyone who can connect can use the model server: it has no authentication)")
	maxSessions := fs.Int("max-sessions", 16, "the most sessions open at once, over all clients (each holds a KV cache that grows with its prompt)")
	maxCache := fs.Int("max-cache-mb", 0, "the most KV cache memory of one session in `MB` (0: the model's whole context; less: its history starts again sooner, and a prediction that does not fit is refused)")
	maxCacheTotal := fs.Int("max-cache-total-mb", 0, "the most KV cache memory of all sessions together in `MB` (0: a quarter of the machine's memory); idle sessions' caches are freed first and rebuilt on their next request")
	noBatch := fs.Bool("no-batch", false, "run one prediction at a time to its end instead of batching the forward passes of sessions predicting at the same time (for comparing)")
	threads := fs.Int("threads", 0, "libtorch's threads (0: NDB_THREADS, else the cores)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return badInput("usage: ndb-infer [--listen ADDR [--allow-remote]] [--max-sessions N] [--max-cache-mb MB] [--max-cache-total-mb MB] [--threads N] | ndb-infer train ...")
	}
	if *maxSessions <= 0 {
		return badInput("--max-sessions must be positive")
	}
	if *maxCache < 0 || *maxCacheTotal < 0 {
		return badInput("--max-cache-mb and --max-cache-total-mb must not be negative")
	}
	var addr string
	if *listen != "" { // the rule of every ndb listener (internal/loopback), before anything loads
		if addr, err = loopback.Addr(*listen); err != nil {
			return badInput("%v", err)
		}
		if err := loopback.CheckRisk("ndb-infer", addr, *allowRemote, loopback.RiskModelServer, os.Stderr); err != nil {
			return badInput("%v", err)
		}
	}
	infer.SetThreads(*threads)
	srv := server.New(server.Options{MaxSessions: *maxSessions, MaxCacheMB: *maxCache, MaxCacheTotalMB: *maxCacheTotal,
		NoBatch: *noBatch, Log: log.Logger})
	defer srv.Close()
	if *listen == "" {
		srv.ServeConn(ctx, stdio{})
		return nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "ndb-infer: listening on %s\n", ln.Addr())
	log.Info().Str("addr", ln.Addr().String()).Msg("model server listening")
	return srv.Serve(ctx, ln)
}

// stdio is stdin and stdout as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
