package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ndb-project/ndb/session"
)

// openArgs is what a session is opened on.
type openArgs struct {
	program, entry string
	mode           session.Mode
	model          string
	temperature    float64
	seed           int64
}

// open reads the program and opens its session (session.Open): parsed only in
// neural mode, recorded once in recorded and compare modes. Every failure is a
// message that says what to fix.
func (s *Server) open(ctx context.Context, a openArgs) (*session.Session, error) {
	opt := s.cfg.Session
	opt.Temperature, opt.Seed = a.temperature, a.seed
	if opt.TopP == 0 {
		opt.TopP = defaultTopP
	}
	if a.temperature < 0 {
		return nil, fmt.Errorf(`"temperature" must be 0 (greedy) or more, not %g`, a.temperature)
	}
	path, err := s.programPath(a.program)
	if err != nil {
		return nil, err
	}
	switch {
	case a.model != "" && opt.ModelServer != "": // a folder on the model server's machine
		opt.Model = a.model
	case a.model != "":
		m := s.abs(a.model)
		if st, err := os.Stat(m); err != nil || !st.IsDir() {
			return nil, fmt.Errorf(`"model" %s is not a checkpoint folder: leave it out to use the server's model`, m)
		}
		opt.Model = m
	}
	if a.mode != session.ModeRecorded && opt.Neural == nil && !session.NeuralAvailable() {
		return nil, fmt.Errorf("%s mode needs the model, and this build of ndb has none: use mode recorded", a.mode)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read program %s: %v", path, unwrapPath(err))
	}
	prog := session.Program{Path: path, Source: string(src), Entry: strings.TrimSpace(a.entry)}
	sess, err := session.Open(ctx, prog, a.mode, opt)
	if err != nil {
		return nil, openError(ctx, err)
	}
	return sess, nil
}

// openError explains a failed session.Open.
func openError(ctx context.Context, err error) error {
	var pe *session.ProgramError
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.As(err, &pe):
		return fmt.Errorf("the program cannot be debugged: %v (fix the program, or the entry call)", pe)
	case errors.Is(err, session.ErrNoNeural):
		return fmt.Errorf("%v", err)
	}
	return fmt.Errorf("could not open the session: %v", err)
}

// programPath resolves and checks a program argument.
func (s *Server) programPath(p string) (string, error) {
	if strings.TrimSpace(p) == "" {
		return "", fmt.Errorf(`"program" is required: the path of the Python file to debug`)
	}
	path := s.abs(p)
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("program %s does not exist: give an absolute path, or one relative to %s", path, s.cfg.Dir)
	case err != nil:
		return "", fmt.Errorf("program %s: %v", path, unwrapPath(err))
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("program %s is not a file: give the path of a .py file", path)
	}
	return path, nil
}

func (s *Server) abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(s.cfg.Dir, p)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkLines checks that every line is one where a line event can happen, and
// names the nearest lines with code for one that is not.
func checkLines(sess *session.Session, lines []int, what string) error {
	for i, n := range lines {
		if slices.Contains(lines[:i], n) {
			return fmt.Errorf("%s: line %d is given twice", what, n)
		}
		if !sess.Executable(n) {
			return fmt.Errorf("%s: line %d has no code to stop at (blank, a comment, a continuation or past the end)%s", what, n, nearest(sess, n))
		}
	}
	return nil
}

// nearest names the executable lines nearest to n.
func nearest(sess *session.Session, n int) string {
	var before, after int
	for d := 1; d <= 200 && (before == 0 || after == 0); d++ {
		if before == 0 && n-d > 0 && sess.Executable(n-d) {
			before = n - d
		}
		if after == 0 && sess.Executable(n+d) {
			after = n + d
		}
	}
	switch {
	case before > 0 && after > 0:
		return fmt.Sprintf(": try line %d or %d", before, after)
	case before > 0:
		return fmt.Sprintf(": try line %d", before)
	case after > 0:
		return fmt.Sprintf(": try line %d", after)
	}
	return ""
}
