package comparereport

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// sure gives the predicted side of step i of r a confidence: n (which differs in
// step 2) 30%, every other part 95%.
func sure(r Report) Report {
	for i := 1; i < len(r.Steps); i++ {
		p := &r.Steps[i].Predicted
		if r.Steps[i].Failed() {
			continue
		}
		c := &grammar.Confidence{Event: 0.95, Line: 0.95, Locals: 0.95, Value: 0.95, State: 0.25}
		for _, v := range p.State.Locals {
			pv := 0.95
			if v.Name == "n" {
				pv = 0.3
			}
			c.Vars = append(c.Vars, grammar.VarConfidence{Name: v.Name, P: pv})
		}
		p.Confidence = c
	}
	return r
}

// The summary says whether low confidence predicted the differences: n under 50%
// differs; among the parts over 90%, those of the wrong return and the wrong exit.
func TestConfidenceSummary(t *testing.T) {
	sum := sure(handMade()).Summarize()
	if !sum.HasConf || sum.Unsure != (Count{1, 1}) {
		t.Fatalf("under 50%%: %v (has %v)", sum.Unsure, sum.HasConf)
	}
	// step 1: event, line, s, t (same); step 2: event, line, s, t (same); step 3:
	// event (same), line and value (differ); step 4: exit (differs).
	if sum.Sure != (Count{3, 12}) {
		t.Errorf("over 90%%: %v", sum.Sure)
	}
	if sum.Confidence != 0.25 {
		t.Errorf("mean confidence %v", sum.Confidence)
	}
	var b bytes.Buffer
	if err := WriteText(&b, sure(handMade()), TextOptions{Width: 30}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"confidence 25%", "conf", "30%", "differ from the real run: 100% of the 1 predicted parts under 50%, 25% of the 12 over 90%"} {
		if !strings.Contains(out, want) {
			t.Errorf("text lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := WriteHTML(&b, sure(handMade())); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(30%)") {
		t.Error("the HTML page shows no confidence")
	}
}

// A report without confidences (a recorded-only run) prints none.
func TestNoConfidence(t *testing.T) {
	var b bytes.Buffer
	if err := WriteText(&b, handMade(), TextOptions{Width: 30}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "conf") {
		t.Errorf("confidence without one:\n%s", b.String())
	}
}
