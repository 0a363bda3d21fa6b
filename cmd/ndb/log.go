package main

import (
	"os"

	"github.com/rs/zerolog"
	"github.com/rs/zerolog/log"
)

// setupLogging sends logs to stderr (stdout is the result, or the DAP channel), at the
// level named by NDB_LOG (debug, info, warn, error; default warn).
func setupLogging() {
	level := zerolog.WarnLevel
	if l, err := zerolog.ParseLevel(os.Getenv("NDB_LOG")); err == nil && os.Getenv("NDB_LOG") != "" {
		level = l
	}
	log.Logger = zerolog.New(zerolog.ConsoleWriter{Out: os.Stderr, TimeFormat: "15:04:05"}).Level(level).With().Timestamp().Logger()
}
