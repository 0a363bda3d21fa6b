package corpusstats

import (
	"fmt"
	"io"
	"path/filepath"
)

// WriteAll is `ndb data stats`'s output: the report on w, then the plots and the
// numbers (figure5.json) written to dir, and a listing of the files on w.
func (s *Stats) WriteAll(w io.Writer, dir string) error {
	if err := s.Report(w); err != nil {
		return err
	}
	paths, err := s.Plot(dir)
	if err != nil {
		return err
	}
	summary := filepath.Join(dir, "figure5.json")
	if err := s.WriteJSON(summary); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nwrote %d plots and %s to %s\n", len(paths), filepath.Base(summary), dir)
	for _, p := range paths {
		fmt.Fprintf(w, "  %s\n", p)
	}
	return nil
}
