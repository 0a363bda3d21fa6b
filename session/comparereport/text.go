package comparereport

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/ndb-project/ndb/grammar"
)

// TextOptions shape the terminal table.
type TextOptions struct {
	// Color highlights differences with ANSI colours (predicted in red, recorded in
	// green); without it a differing row is marked with "!" in the first column.
	Color bool
	// Width is the most characters of one side's cell; longer texts are cut with
	// "…" (0 means 40).
	Width int
}

const (
	ansiReset = "\x1b[0m"
	ansiBold  = "\x1b[1m"
	ansiDim   = "\x1b[2m"
	ansiRed   = "\x1b[31m"
	ansiGreen = "\x1b[32m"
)

// WriteText writes the report as side-by-side tables, one per step, and the summary.
func WriteText(w io.Writer, r Report, opt TextOptions) error {
	if opt.Width <= 0 {
		opt.Width = 40
	}
	tw := &textWriter{w: w, opt: opt}
	tw.header(r)
	for i, s := range r.Steps {
		tw.step(r, i, s)
	}
	tw.summary(r.Summarize())
	return tw.err
}

type textWriter struct {
	w   io.Writer
	opt TextOptions
	err error
}

func (t *textWriter) printf(format string, a ...any) {
	if t.err == nil {
		_, t.err = fmt.Fprintf(t.w, format, a...)
	}
}

func (t *textWriter) style(code, s string) string {
	if !t.opt.Color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (t *textWriter) header(r Report) {
	t.printf("%s %s", t.style(ansiBold, "ndb compare"), clean(r.Program))
	if r.Entry != "" {
		t.printf(" --entry %s", clean(r.Entry))
	}
	t.printf("\n")
	if r.Model != "" {
		t.printf("model: %s\n", clean(r.Model))
	}
	if r.Actions != "" {
		t.printf("actions: %s\n", clean(r.Actions))
	}
}

func (t *textWriter) step(r Report, i int, s Step) {
	title := fmt.Sprintf("step %d  %s", i, clean(s.Title()))
	verdict := "match"
	switch {
	case s.Failed():
		verdict = "stopped"
	case !s.Exact():
		verdict = fmt.Sprintf("%d difference(s)", len(s.Diffs))
		if s.RecordedErr != "" && len(s.Diffs) == 0 {
			verdict = "recorded side did not move"
		}
	}
	v := verdict
	if t.opt.Color {
		if s.Exact() {
			v = t.style(ansiGreen, v)
		} else {
			v = t.style(ansiRed, v)
		}
	}
	if c := s.Predicted.Confidence; c != nil && !s.Failed() {
		v += "; the model's confidence " + grammar.Percent(c.State)
	}
	t.printf("\n%s  (%s)\n", t.style(ansiBold, title), v)
	if s.Failed() {
		t.printf("  the predicted side cannot take this action: %s\n", clean(s.Err))
		return
	}
	rows := s.Rows(r.Context)
	label := len("predicted") - 2
	for _, row := range rows {
		label = max(label, min(utf8.RuneCountInString(row.Label), 20))
	}
	w := t.opt.Width
	conf := false
	for _, row := range rows {
		conf = conf || row.HasConf
	}
	confCol := func(row Row) string {
		if !conf {
			return ""
		}
		if !row.HasConf {
			return pad("", 5)
		}
		return pad(grammar.Percent(row.Conf), 5)
	}
	head := ""
	if conf {
		head = t.style(ansiDim, pad("conf", 5))
	}
	t.printf("  %s %s %s%s\n", pad("", label), t.style(ansiDim, pad("predicted", w)), head, t.style(ansiDim, "recorded"))
	for _, row := range rows {
		mark := " "
		if row.Differs && !t.opt.Color {
			mark = "!"
		}
		name := pad(cut(row.Label, label), label)
		p, q := pad(cut(cell(row, row.Predicted), w), w), cut(cell(row, row.Recorded), w)
		if row.Differs && t.opt.Color {
			name = t.style(ansiBold, name)
			p, q = t.style(ansiRed, p), t.style(ansiGreen, q)
		}
		t.printf("%s %s %s %s%s\n", mark, name, p, confCol(row), q)
	}
	if s.RecordedErr != "" {
		t.printf("  (the recorded side did not move: %s)\n", clean(s.RecordedErr))
	}
}

func (t *textWriter) summary(sum Summary) {
	t.printf("\n%s %d step(s), %s exact", t.style(ansiBold, "summary:"), sum.Steps, sum.Exact)
	if sum.Exact.Total > 0 {
		t.printf(" (%.0f%%)", sum.Exact.Percent())
	}
	entry := "differs"
	if sum.Entry {
		entry = "matches"
	}
	t.printf("; entry %s\n", entry)
	var parts []string
	for _, c := range sum.Components() {
		parts = append(parts, fmt.Sprintf("%s %s", c.Name, c.Count))
	}
	t.printf("  %s\n", strings.Join(parts, ", "))
	if sum.HasConf {
		t.printf("  %s\n", ConfidenceLine(sum))
	}
	if sum.Stopped != "" {
		t.printf("  stopped at %s\n", clean(sum.Stopped))
	}
}

// cell is what a side shows: its text, or Absent for a variable or value it lacks.
func cell(row Row, s string) string {
	if s == "" && (row.Variable || row.Label == "value" || row.Label == "event" || row.Label == "line") {
		return Absent
	}
	return clean(s)
}

// clean replaces control characters (a model may write anything in a repr) so that
// nothing reaches the terminal as an escape sequence.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' {
			return ' '
		}
		if unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}

// cut shortens s to at most n characters, ending with "…" when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return string(rs[:n-1]) + "…"
}

func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}
