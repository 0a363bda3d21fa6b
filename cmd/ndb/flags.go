package main

import (
	"flag"
	"io"
)

// parseInterspersed parses flags that may come before or after the positional
// arguments (`ndb trace FILE --entry EXPR`), returning the positionals.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, badInput("%v", err)
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
