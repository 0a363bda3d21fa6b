// Command ndb-datagen is `ndb data gen` without the model: the corpus pipeline alone,
// pure Go, so it builds with CGO_ENABLED=0 into a static binary that runs where there
// is no Go and no libtorch (the GPU bundle, docs/gpu-training.md).
//
//	ndb-datagen gen --out DIR [--programs N] [--seed S] [--tokenizer FILE] [--repo-share 0] ...
//
// The leading "gen" may be left out. Exit status 2 means bad arguments.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/rs/zerolog"
	"github.com/rs/zerolog/log"

	"github.com/ndb-project/ndb/train/corpus/gencli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	level := zerolog.WarnLevel
	if l, err := zerolog.ParseLevel(os.Getenv("NDB_LOG")); err == nil && os.Getenv("NDB_LOG") != "" {
		level = l
	}
	log.Logger = zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05"}).Level(level).With().Timestamp().Logger()
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "gen" {
		args = args[1:]
	}
	err := gencli.Run(ctx, args, os.Stdout, os.Stderr)
	if err == nil {
		return
	}
	fmt.Fprintf(os.Stderr, "ndb-datagen: %v\n", err)
	var ue gencli.UsageError
	if errors.As(err, &ue) {
		os.Exit(2)
	}
	os.Exit(1)
}
