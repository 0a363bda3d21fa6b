package adapter

import (
	"context"
	"errors"

	"github.com/ndb-project/ndb/session"
)

// defaultTopP is the nucleus mass of a launch's sampling (when its temperature is
// not 0).
const defaultTopP = 0.95

// launch reads the program and opens its session (session.Open: parsed only in
// neural mode, recorded once in recorded and compare modes). The session is started:
// it stands at the entry state.
func (s *Server) launch(ctx context.Context, cfg LaunchConfig) (*launched, error) {
	opt := s.cfg.Session
	opt.Tracer = s.tracer()
	opt.MaxSteps, opt.Temperature, opt.Seed = cfg.MaxSteps, cfg.Temperature, cfg.Seed
	if opt.TopP == 0 {
		opt.TopP = defaultTopP
	}
	if cfg.Model != "" {
		opt.Model = cfg.Model
	}
	if cfg.ModelServer != "" {
		opt.ModelServer = cfg.ModelServer
	}
	if cfg.Mode != session.ModeRecorded && opt.Neural == nil && !session.NeuralAvailable() {
		return nil, errorf(ErrBackend, errNoModel, cfg.Mode)
	}
	src, err := session.ReadSource(cfg.Program) // decoded as Python reads it (# coding:)
	if pe := (*session.ProgramError)(nil); errors.As(err, &pe) {
		return nil, errorf(ErrProgram, "%v", pe)
	} else if err != nil {
		return nil, errorf(ErrLaunchArguments, "launch: program %s: %v", cfg.Program, unwrapPathError(err))
	}
	prog := session.Program{Path: cfg.Program, Source: src, Entry: cfg.Entry}
	sess, err := session.Open(ctx, prog, cfg.Mode, opt)
	if err != nil {
		return nil, backendError(err)
	}
	return &launched{cfg: cfg, sess: sess}, nil
}

// backendError classifies a launch failure: a problem with the program (ErrProgram)
// or with ndb's machinery (ErrBackend).
func backendError(err error) error {
	var pe *session.ProgramError
	if errors.As(err, &pe) {
		return errorf(ErrProgram, "%v", pe)
	}
	var re *requestError
	if errors.As(err, &re) {
		return re
	}
	return errorf(ErrBackend, "launch: %v", err)
}
