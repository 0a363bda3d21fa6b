package main

import (
	"context"
	"errors"
	"os"

	"github.com/ndb-project/ndb/train/corpus/gencli"
)

// runData implements `ndb data gen` (package gencli, shared with cmd/ndb-datagen) and
// `ndb data stats`.
func runData(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == "stats" {
		return runDataStats(ctx, args[1:])
	}
	if len(args) == 0 || args[0] != "gen" {
		return badInput("usage: ndb data %s", gencli.Usage)
	}
	err := gencli.Run(ctx, args[1:], os.Stdout, os.Stderr)
	var ue gencli.UsageError
	if errors.As(err, &ue) {
		return badInput("%s", ue.Msg)
	}
	return err
}
