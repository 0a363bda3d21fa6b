package eval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Table is one result table: printed aligned on stdout and written as markdown.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	// Notes are printed under the table (what the columns mean, the counts).
	Notes []string
}

// WriteText prints the table with aligned columns.
func (t *Table) WriteText(w io.Writer) error {
	width := make([]int, len(t.Header))
	for i, h := range t.Header {
		width[i] = utf8.RuneCountInString(h)
	}
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(width) {
				width[i] = max(width[i], utf8.RuneCountInString(c))
			}
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := width[i] - utf8.RuneCountInString(c)
			if i == 0 || !numeric(c) {
				b.WriteString(c + strings.Repeat(" ", pad))
			} else {
				b.WriteString(strings.Repeat(" ", pad) + c)
			}
		}
		b.WriteString("\n")
	}
	if t.Title != "" {
		b.WriteString(t.Title + "\n\n")
	}
	line(t.Header)
	sep := make([]string, len(t.Header))
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range t.Rows {
		line(r)
	}
	for _, n := range t.Notes {
		b.WriteString(n + "\n")
	}
	_, err := io.WriteString(w, strings.TrimRight(b.String(), " ")+"\n")
	return err
}

// numeric reports whether a cell is a number or n/a (right-aligned).
func numeric(c string) bool {
	if c == "n/a" || c == "" {
		return true
	}
	for _, r := range c {
		if !strings.ContainsRune("0123456789.-+% ()/", r) {
			return false
		}
	}
	return true
}

// Markdown returns the table in GitHub markdown, title as a heading.
func (t *Table) Markdown() string {
	var b strings.Builder
	if t.Title != "" {
		fmt.Fprintf(&b, "### %s\n\n", t.Title)
	}
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	sep := make([]string, len(t.Header))
	for i := range sep {
		sep[i] = "---"
		if i > 0 {
			sep[i] = "---:"
		}
	}
	row(sep)
	for _, r := range t.Rows {
		row(r)
	}
	if len(t.Notes) > 0 {
		b.WriteString("\n")
		for _, n := range t.Notes {
			b.WriteString(n + "\n")
		}
	}
	return b.String()
}

// WriteMarkdown writes the tables into dir/name (dir created if needed), under a
// heading and the command line that made them, and returns the path.
func WriteMarkdown(dir, name, heading, command string, tables ...*Table) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", heading)
	if command != "" {
		fmt.Fprintf(&b, "Regenerate with:\n\n```\n%s\n```\n\n", command)
	}
	for _, t := range tables {
		b.WriteString(t.Markdown())
		b.WriteString("\n")
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, []byte(b.String()), 0o644)
}

// WriteJSONL writes rows to dir/name, one JSON object a line, and returns the path.
func WriteJSONL[T any](dir, name string, rows []T) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, r := range rows {
		if err := enc.Encode(r); err != nil {
			return "", err
		}
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, b.Bytes(), 0o644)
}
