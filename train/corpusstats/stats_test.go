package corpusstats

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
	"github.com/ndb-project/ndb/grammar/tokenizer"
	"github.com/ndb-project/ndb/train/corpus"
)

const testSource = "def f(x):\n    y = x + 1\n    return y\n"

// testTrajectories returns encoded trajectories of testSource: two forward ones (4
// and 1 actions) and an inverse one (2 actions).
func testTrajectories(t *testing.T) (fwd4, fwd1, inv2 string) {
	t.Helper()
	ctx := grammar.NewContext("", testSource)
	x := grammar.Locals{{Name: "x", Repr: "1"}}
	xy := grammar.Locals{{Name: "x", Repr: "1"}, {Name: "y", Repr: "2"}}
	call := grammar.State{Event: grammar.EventCall, Loc: grammar.Loc{Line: 1}, Locals: x}
	line2 := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 2}, Locals: x}
	line3 := grammar.State{Event: grammar.EventLine, Loc: grammar.Loc{Line: 3}, Locals: xy}
	ret := grammar.State{Event: grammar.EventReturn, Loc: grammar.Loc{Line: 3}, Value: "2"}
	step := func(k grammar.ActionKind, s grammar.State) grammar.Step {
		return grammar.Step{Action: grammar.Action{Kind: k}, State: s}
	}
	enc := func(tr grammar.Trajectory) string {
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			t.Fatal(err)
		}
		return text
	}
	fwd4 = enc(grammar.Trajectory{Context: ctx, Direction: grammar.Forward, Start: call, Steps: []grammar.Step{
		step(grammar.StepInto, line2), step(grammar.StepInto, line3), step(grammar.StepInto, ret),
		{Action: grammar.Action{Kind: grammar.Continue}, Exit: grammar.ExitNormal},
	}})
	fwd1 = enc(grammar.Trajectory{Context: ctx, Direction: grammar.Forward, Start: call, Steps: []grammar.Step{
		step(grammar.StepReturn, ret),
	}})
	inv2 = enc(grammar.Trajectory{Context: ctx, Direction: grammar.Inverse, Start: ret, Steps: []grammar.Step{
		step(grammar.InvStepInto, line3), step(grammar.InvStepCall, call),
	}})
	return fwd4, fwd1, inv2
}

// writeCorpus writes a corpus folder: train.jsonl with function-level trajectories
// (forward 4 and 1 actions, inverse 2), a repository-level one (forward, 4) and a line
// that does not decode; eval.jsonl with one more function-level inverse trajectory.
func writeCorpus(t *testing.T) (dir string, texts []string) {
	t.Helper()
	dir = t.TempDir()
	fwd4, fwd1, inv2 := testTrajectories(t)
	write := func(name string, lines ...corpus.Trajectory) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		for _, l := range lines {
			if err := enc.Encode(l); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(corpus.TrainText,
		corpus.Trajectory{Program: "a", Level: "function", Direction: "forward", Actions: 4, Text: fwd4},
		corpus.Trajectory{Program: "a", Level: "function", Direction: "inverse", Actions: 2, Text: inv2},
		corpus.Trajectory{Program: "b", Level: "function", Direction: "forward", Actions: 1, Text: fwd1},
		corpus.Trajectory{Program: "c", Level: "repository", Direction: "forward", Actions: 3, Text: fwd4}, // wrong count on purpose
		corpus.Trajectory{Program: "d", Level: "function", Direction: "forward", Actions: 1, Text: fwd1[:len(fwd1)-5]},
	)
	write(corpus.EvalText,
		corpus.Trajectory{Program: "e", Level: "function", Direction: "inverse", Actions: 2, Text: inv2},
	)
	return dir, []string{fwd4, fwd1, inv2}
}

func TestSummarize(t *testing.T) {
	d := Summarize([]int{4, 1, 3, 2})
	want := Dist{N: 4, Mean: 2.5, Median: 2.5, P90: 3.7, Min: 1, Max: 4}
	if math.Abs(d.P90-want.P90) > 1e-9 {
		t.Fatalf("p90 = %v, want %v", d.P90, want.P90)
	}
	d.P90 = want.P90
	if d != want {
		t.Fatalf("Summarize = %+v, want %+v", d, want)
	}
	if d := Summarize([]int{7}); d.Mean != 7 || d.Median != 7 || d.P90 != 7 {
		t.Fatalf("Summarize(7) = %+v", d)
	}
	if d := Summarize(nil); d.N != 0 {
		t.Fatalf("Summarize(nil) = %+v", d)
	}
}

func TestCollect(t *testing.T) {
	for _, withTok := range []bool{false, true} {
		dir, texts := writeCorpus(t)
		fwd4, fwd1, inv2 := texts[0], texts[1], texts[2]
		count := func(s string) int { return (len(s) + 3) / 4 }
		if withTok {
			tok, err := tokenizer.TrainStrings(texts, tokenizer.TrainOptions{VocabSize: 320, Special: grammar.SpecialTokens})
			if err != nil {
				t.Fatal(err)
			}
			if err := tok.SaveFile(filepath.Join(dir, TokenizerFile)); err != nil {
				t.Fatal(err)
			}
			count = func(s string) int { return len(tok.Encode(s)) }
		}
		tok, err := LoadTokenizer(dir)
		if err != nil || (tok != nil) != withTok {
			t.Fatalf("LoadTokenizer = %v, %v", tok, err)
		}
		st, err := Collect(context.Background(), Options{Corpus: dir, Tokenizer: tok, Workers: 3})
		if err != nil {
			t.Fatal(err)
		}
		if st.Estimated == withTok || st.Trajectories() != 5 || st.DecodeErrors != 1 || st.ActionMismatches != 1 || st.Limited {
			t.Fatalf("stats: %+v", st)
		}
		if len(st.Files) != 2 || st.Files[0] != (FileCount{corpus.TrainText, 5}) || st.Files[1] != (FileCount{corpus.EvalText, 1}) {
			t.Fatalf("files: %+v", st.Files)
		}
		var order []string
		for _, g := range st.Groups {
			order = append(order, g.Level+"/"+g.Direction)
		}
		if got := strings.Join(order, " "); got != "function/forward function/inverse repository/forward" {
			t.Fatalf("groups: %s", got)
		}

		ff := st.Group("function", "forward")
		if d := Summarize(ff.Actions); d.N != 2 || d.Mean != 2.5 || d.Min != 1 || d.Max != 4 {
			t.Fatalf("function forward actions: %+v", d)
		}
		if d, want := Summarize(ff.Tokens), float64(count(fwd4)+count(fwd1))/2; d.Mean != want {
			t.Fatalf("function forward tokens mean %v, want %v", d.Mean, want)
		}
		// The header's tokens are those of the context and the direction token.
		_, _, header, _ := grammar.DecodeHeader(fwd4)
		if ff.ContextTokens[0] != count(fwd4[:header]) || count(fwd4[:header])+count(fwd4[header:]) != count(fwd4) {
			t.Fatalf("context tokens %v, header %d", ff.ContextTokens, count(fwd4[:header]))
		}
		// call, line, line, return, exit + call, return.
		if ff.Events != [6]int64{2, 2, 2, 0, 0, 1} {
			t.Fatalf("function forward events %v", ff.Events)
		}
		fi := st.Group("function", "inverse")
		if d := Summarize(fi.Tokens); d.N != 2 || d.Mean != float64(count(inv2)) || d.P90 != float64(count(inv2)) {
			t.Fatalf("function inverse tokens: %+v", d)
		}
		if fi.Events != [6]int64{2, 2, 2, 0, 0, 0} {
			t.Fatalf("function inverse events %v", fi.Events)
		}
		fa := st.Group("function", All)
		if d := Summarize(fa.Actions); d.N != 4 || d.Mean != 2.25 || d.Median != 2 {
			t.Fatalf("function actions: %+v", d)
		}
		if got, want := fa.EventShare(1), 4.0/13; math.Abs(got-want) > 1e-12 {
			t.Fatalf("line share %v, want %v", got, want)
		}
		rf := st.Group("repository", All)
		if rf.N() != 1 || rf.Actions[0] != 4 || rf.Tokens[0] != count(fwd4) {
			t.Fatalf("repository: %+v", rf)
		}

		var out bytes.Buffer
		if err := st.Report(&out); err != nil {
			t.Fatal(err)
		}
		report := out.String()
		for _, want := range []string{"368.72", "3049.30", "8.40", "8.79", "1 lines do not decode", "event mix", "inv_line_call"} {
			if !strings.Contains(report, want) {
				t.Errorf("report lacks %q:\n%s", want, report)
			}
		}
		if strings.Contains(report, "bytes/4") == withTok {
			t.Errorf("report does not say how tokens are counted:\n%s", report)
		}
		t.Logf("\n%s", report)

		plots := filepath.Join(dir, "stats")
		paths, err := st.Plot(plots)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range paths {
			names = append(names, filepath.Base(p))
			checkPNG(t, p)
		}
		if got := strings.Join(names, " "); got != "tokens_function.png actions_function.png tokens_repository.png actions_repository.png events.png" {
			t.Fatalf("plots: %s", got)
		}

		js := filepath.Join(plots, "figure5.json")
		if err := st.WriteJSON(js); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Trajectories int   `json:"trajectories"`
			Rows         []Row `json:"rows"`
		}
		if err := json.Unmarshal(data, &sum); err != nil {
			t.Fatal(err)
		}
		if sum.Trajectories != 5 || len(sum.Rows) != 5 { // function: forward, inverse, all; repository: forward, all
			t.Fatalf("figure5.json: %d trajectories, %d rows", sum.Trajectories, len(sum.Rows))
		}
		if r := sum.Rows[2]; r.Direction != All || r.PaperTokens != 368.72 || r.Actions.Mean != 2.25 || r.Events["line"] != 4 {
			t.Fatalf("function row: %+v", r)
		}
	}
}

func TestLimit(t *testing.T) {
	dir, _ := writeCorpus(t)
	st, err := Collect(context.Background(), Options{Corpus: dir, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Limited || st.Trajectories() != 2 || len(st.Files) != 1 || st.Files[0].Lines != 2 {
		t.Fatalf("limit 2: %+v", st)
	}
}

func TestNotACorpus(t *testing.T) {
	if _, err := Collect(context.Background(), Options{Corpus: t.TempDir()}); err == nil {
		t.Fatal("no error for an empty folder")
	}
}

// checkPNG checks that path is a PNG image of the plot's size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 400 {
		t.Fatalf("%s: %v", path, b)
	}
}
