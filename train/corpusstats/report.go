package corpusstats

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
)

// Row is the summary of one level and direction (direction All merges both).
type Row struct {
	Level         string             `json:"level"`
	Direction     string             `json:"direction"`
	Tokens        Dist               `json:"tokens"`
	ContextTokens Dist               `json:"context_tokens"`
	Actions       Dist               `json:"actions"`
	Events        map[string]int64   `json:"events"`
	EventShares   map[string]float64 `json:"event_shares"`
	// PaperTokens and PaperActions are the paper's means for the level, on the All
	// row of a level the paper reports; zero elsewhere.
	PaperTokens  float64 `json:"paper_tokens,omitempty"`
	PaperActions float64 `json:"paper_actions,omitempty"`
}

// Summary is the whole measurement in numbers, as Report prints it and as
// WriteJSON saves it.
type Summary struct {
	*Stats
	Trajectories int   `json:"trajectories"`
	Rows         []Row `json:"rows"`
}

// Summary returns the rows of the report: for each level, its forward, inverse and
// All rows. A level with no trajectory has only an All row with N zero.
func (s *Stats) Summary() Summary {
	sum := Summary{Stats: s, Trajectories: s.Trajectories()}
	for _, level := range s.LevelNames() {
		var dirs []string
		for _, d := range Directions {
			if s.Group(level, d).N() > 0 {
				dirs = append(dirs, d)
			}
		}
		for _, g := range s.Groups {
			if g.Level == level && !slices.Contains(Directions, g.Direction) {
				dirs = append(dirs, g.Direction)
			}
		}
		for _, d := range append(dirs, All) {
			g := s.Group(level, d)
			r := Row{
				Level: level, Direction: d,
				Tokens: Summarize(g.Tokens), ContextTokens: Summarize(g.ContextTokens), Actions: Summarize(g.Actions),
				Events: map[string]int64{}, EventShares: map[string]float64{},
			}
			for i, k := range EventKinds {
				r.Events[k] = g.Events[i]
				r.EventShares[k] = g.EventShare(i)
			}
			if ref, ok := Paper[level]; ok && d == All {
				r.PaperTokens, r.PaperActions = ref.Tokens, ref.Actions
			}
			sum.Rows = append(sum.Rows, r)
		}
	}
	return sum
}

// Report prints the measurement: where the numbers come from, then tables of tokens
// and actions per trajectory (n, mean, median, p90, max, and the paper's mean beside
// ours) and of the event mix, by level and direction.
func (s *Stats) Report(w io.Writer) error {
	sum := s.Summary()
	var b strings.Builder
	var files []string
	lines := 0
	for _, f := range s.Files {
		files = append(files, fmt.Sprintf("%s %d", f.Name, f.Lines))
		lines += f.Lines
	}
	fmt.Fprintf(&b, "corpus %s: %d trajectories measured of %d lines (%s)", s.Corpus, sum.Trajectories, lines, strings.Join(files, ", "))
	if s.Limited {
		b.WriteString(", stopped at --limit")
	}
	fmt.Fprintf(&b, "\ntokens counted by %s\n", s.TokensBy)
	if s.DecodeErrors > 0 {
		fmt.Fprintf(&b, "%d lines do not decode and are left out; first: %s\n", s.DecodeErrors, s.FirstError)
	}
	if s.ActionMismatches > 0 {
		fmt.Fprintf(&b, "%d lines' \"actions\" field differs from their text (the text's count is used)\n", s.ActionMismatches)
	}

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	table := func(title string, dist func(Row) Dist, paper func(Row) float64, prec int, extra func(Row) string, extraHead string) {
		fmt.Fprintf(tw, "\n%s\n", title)
		fmt.Fprintf(tw, "level\tdirection\tn\tmean\tmedian\tp90\tmax\tpaper mean\t%s\t\n", extraHead)
		for _, r := range sum.Rows {
			d := dist(r)
			if d.N == 0 {
				fmt.Fprintf(tw, "%s\t%s\t0\t-\t-\t-\t-\t%s\t\t\n", r.Level, r.Direction, fmtPaper(paper(r), prec))
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.*f\t%.*f\t%.*f\t%d\t%s\t%s\t\n", r.Level, r.Direction, d.N,
				prec, d.Mean, prec, d.Median, prec, d.P90, d.Max, fmtPaper(paper(r), prec), extra(r))
		}
	}
	table("tokens per trajectory", func(r Row) Dist { return r.Tokens }, func(r Row) float64 { return r.PaperTokens }, 2,
		func(r Row) string {
			return fmt.Sprintf("%.2f (%.0f%%)", r.ContextTokens.Mean, 100*r.ContextTokens.Mean/max(r.Tokens.Mean, 1e-9))
		}, "context mean")
	table("actions per trajectory", func(r Row) Dist { return r.Actions }, func(r Row) float64 { return r.PaperActions }, 2,
		func(Row) string { return "" }, "")
	if err := tw.Flush(); err != nil {
		return err
	}

	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "\nevent mix (%% of states: the start state and the state after each action)\n")
	fmt.Fprintf(tw, "level\tdirection\t")
	for _, k := range EventKinds {
		fmt.Fprintf(tw, "%s\t", k)
	}
	fmt.Fprintf(tw, "states\t\n")
	for _, r := range sum.Rows {
		var total int64
		for _, n := range r.Events {
			total += n
		}
		fmt.Fprintf(tw, "%s\t%s\t", r.Level, r.Direction)
		for _, k := range EventKinds {
			if total == 0 {
				fmt.Fprintf(tw, "-\t")
			} else {
				fmt.Fprintf(tw, "%.1f\t", 100*r.EventShares[k])
			}
		}
		fmt.Fprintf(tw, "%d\t\n", total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtPaper(v float64, prec int) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf("%.*f", prec, v)
}

// WriteJSON saves the summary (see Summary) as indented JSON at path.
func (s *Stats) WriteJSON(path string) error {
	data, err := json.MarshalIndent(s.Summary(), "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}
