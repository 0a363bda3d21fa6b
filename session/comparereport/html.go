package comparereport

import (
	"html/template"
	"io"
	"strconv"

	"github.com/ndb-project/ndb/grammar"
)

// WriteHTML writes the report as one self-contained HTML page: inline CSS, no script
// and no external resource; every program text, repr and value is HTML-escaped (by
// html/template). It holds the summary, the steps' side-by-side table and the
// program source with the lines the recorded run visited marked.
func WriteHTML(w io.Writer, r Report) error {
	return page.Execute(w, htmlData(r))
}

type htmlStep struct {
	N       int
	Title   string
	Exact   bool
	Rows    []Row
	Err     string
	RecErr  string
	Span    int
	First   Row
	Rest    []Row
	Stopped bool
}

type htmlLine struct {
	N            int
	ID           string
	Text         string
	Pred, Record bool
}

type htmlReport struct {
	Report
	Summary Summary
	Steps   []htmlStep
	Source  []htmlLine
}

func htmlData(r Report) htmlReport {
	d := htmlReport{Report: r, Summary: r.Summarize()}
	predLines, recLines := map[grammar.Loc]bool{}, map[grammar.Loc]bool{}
	for i, s := range r.Steps {
		hs := htmlStep{N: i, Title: s.Title(), Exact: s.Exact(), Err: s.Err, RecErr: s.RecordedErr, Stopped: s.Failed()}
		hs.Rows = s.Rows(r.Context)
		if len(hs.Rows) == 0 {
			hs.Rows = []Row{{Label: "", Predicted: "", Recorded: ""}}
		}
		hs.First, hs.Rest, hs.Span = hs.Rows[0], hs.Rows[1:], len(hs.Rows)
		if !s.Failed() {
			if !s.Predicted.Ended() {
				predLines[s.Predicted.State.Loc] = true
			}
			if !s.Recorded.Ended() {
				recLines[s.Recorded.State.Loc] = true
			}
		}
		d.Steps = append(d.Steps, hs)
	}
	for _, loc := range r.Context.Lines() {
		src, _ := SourceText(r.Context, loc)
		id := "L" + strconv.Itoa(loc.Line)
		if loc.File != "" {
			id = "L-" + loc.File + "-" + strconv.Itoa(loc.Line)
		}
		d.Source = append(d.Source, htmlLine{N: loc.Line, ID: id, Text: src, Pred: predLines[loc], Record: recLines[loc]})
	}
	return d
}

func cellHTML(row Row, s string) string {
	if s == "" && row.Label != "exit" {
		return Absent
	}
	return s
}

var page = template.Must(template.New("page").Funcs(template.FuncMap{"cell": cellHTML, "pct": grammar.Percent, "confLine": ConfidenceLine}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>ndb compare — {{.Program}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
code, pre, td.v, td.l { font-family: ui-monospace, monospace; }
table { border-collapse: collapse; margin-bottom: 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.v { white-space: pre-wrap; word-break: break-all; max-width: 40em; }
tr.diff td.v.p { background: #fdd; }
tr.diff td.v.r { background: #dfd; }
tr.diff td.l { font-weight: bold; color: #a00; }
tr.diff td.l::before { content: "! "; }
td.ok { color: #070; }
td.bad { color: #a00; }
tbody.step { border-top: 2px solid #888; }
.note { color: #555; font-style: italic; }
pre.src { border: 1px solid #ccc; padding: 0.5em; background: #fafafa; }
pre.src span.n { display: inline-block; width: 3em; color: #888; }
pre.src span.rec { background: #e6f4e6; }
pre.src span.pred { text-decoration: underline dotted #a00; }
</style>
</head>
<body>
<h1>ndb compare</h1>
<p><code>{{.Program}}</code>{{if .Entry}} — entry <code>{{.Entry}}</code>{{end}}{{if .Model}}<br>model: <code>{{.Model}}</code>{{end}}{{if .Actions}}<br>actions: {{.Actions}}{{end}}</p>

<h2>Summary</h2>
<table class="summary">
<tr><th>steps</th><td>{{.Summary.Steps}}</td></tr>
<tr><th>exact matches</th><td>{{.Summary.Exact}}{{if .Summary.Exact.Total}} ({{printf "%.0f" .Summary.Exact.Percent}}%){{end}}</td></tr>
<tr><th>entry</th><td>{{if .Summary.Entry}}matches{{else}}differs{{end}}</td></tr>
{{range .Summary.Components}}<tr><th>{{.Name}}</th><td>{{.Count}}</td></tr>
{{end}}{{if .Summary.HasConf}}<tr><th>confidence</th><td>{{confLine .Summary}}</td></tr>
{{end}}{{if .Summary.Stopped}}<tr><th>stopped</th><td>{{.Summary.Stopped}}</td></tr>
{{end}}</table>

<h2>Steps</h2>
<table class="steps">
<thead><tr><th>#</th><th>action</th><th></th><th>predicted</th><th>recorded</th></tr></thead>
{{range .Steps}}<tbody class="step" id="step-{{.N}}">
<tr{{if .First.Differs}} class="diff"{{end}}><td rowspan="{{.Span}}">{{.N}}</td><td rowspan="{{.Span}}" class="{{if .Exact}}ok{{else}}bad{{end}}"><code>{{.Title}}</code>{{if .Stopped}}<div class="note">the predicted side cannot take this action: {{.Err}}</div>{{end}}{{if .RecErr}}<div class="note">the recorded side did not move: {{.RecErr}}</div>{{end}}</td>{{with .First}}<td class="l">{{.Label}}</td><td class="v p">{{if .Label}}{{cell . .Predicted}}{{if .HasConf}} <small>({{pct .Conf}})</small>{{end}}{{end}}</td><td class="v r">{{if .Label}}{{cell . .Recorded}}{{end}}</td>{{end}}</tr>
{{range .Rest}}<tr{{if .Differs}} class="diff"{{end}}><td class="l">{{.Label}}</td><td class="v p">{{cell . .Predicted}}{{if .HasConf}} <small>({{pct .Conf}})</small>{{end}}</td><td class="v r">{{cell . .Recorded}}</td></tr>
{{end}}</tbody>
{{end}}</table>

<h2>Source</h2>
<p class="note">Shaded: lines the recorded run stopped at; dotted: lines the prediction stopped at.</p>
<pre class="src">{{range .Source}}<span id="{{.ID}}" class="{{if .Record}}rec {{end}}{{if .Pred}}pred{{end}}"><span class="n">{{.N}}</span>{{.Text}}</span>
{{end}}</pre>
</body>
</html>
`))
