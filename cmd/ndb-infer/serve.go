package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/infer"
	"github.com/ndb-project/ndb/infer/server"
)

// runServe serves the model: on stdin/stdout (one client, the ndb that started it)
// or, with --listen, on TCP.
func runServe(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("ndb-infer", flag.ContinueOnError)
	listen := fs.String("listen", "", "serve TCP clients on `ADDR` (PORT, :PORT or HOST:PORT; the host defaults to 127.0.0.1) instead of stdin/stdout")
	allowRemote := fs.Bool("allow-remote", false, "allow --listen on an address other than loopback (the protocol has no authentication: trusted networks only)")
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
	infer.SetThreads(*threads)
	srv := server.New(server.Options{MaxSessions: *maxSessions, MaxCacheMB: *maxCache, MaxCacheTotalMB: *maxCacheTotal,
		NoBatch: *noBatch, Log: log.Logger})
	defer srv.Close()
	if *listen == "" {
		srv.ServeConn(ctx, stdio{})
		return nil
	}
	addr, err := listenAddr(*listen, *allowRemote)
	if err != nil {
		return badInput("%v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "ndb-infer: listening on %s\n", ln.Addr())
	log.Info().Str("addr", ln.Addr().String()).Msg("model server listening")
	return srv.Serve(ctx, ln)
}

// listenAddr reads PORT, :PORT or HOST:PORT (the host defaults to 127.0.0.1) and
// refuses a host other than loopback unless allowRemote.
func listenAddr(s string, allowRemote bool) (string, error) {
	if !strings.Contains(s, ":") {
		s = ":" + s
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		return "", fmt.Errorf("--listen %q: %v", s, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !allowRemote && !isLoopback(host) {
		return "", fmt.Errorf("--listen %s: not a loopback address; the model server has no authentication, so serving other machines needs --allow-remote", s)
	}
	return net.JoinHostPort(host, port), nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// stdio is stdin and stdout as one stream.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return os.Stdin.Close() }
