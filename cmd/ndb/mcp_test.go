package main

import (
	"context"
	"testing"
)

// `ndb mcp` refuses bad flags with exit status 2 before it serves anything.
func TestMCPBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"mcp", "extra"},
		{"mcp", "--workers", "0"},
		{"mcp", "--max-sessions", "-1"},
		{"mcp", "--idle-timeout", "-1s"},
		{"mcp", "--listen", "host:port"},
		{"mcp", "--device", "tpu"},
		{"mcp", "--model", "/no/such/checkpoint"},
	} {
		if got := run(context.Background(), args); got != exitUsage {
			t.Errorf("ndb %v: exit status %d, want %d", args, got, exitUsage)
		}
	}
}
