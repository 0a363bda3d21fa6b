package grammar

import "testing"

func TestPercent(t *testing.T) {
	for p, want := range map[float64]string{0: "0%", 0.004: "<1%", 0.62: "62%", 0.999: "99%", 1: "100%", 0.5: "50%"} {
		if got := Percent(p); got != want {
			t.Errorf("Percent(%v) = %q, want %q", p, got, want)
		}
	}
}

func TestConfidenceLeastAndVar(t *testing.T) {
	c := &Confidence{Event: 0.99, Line: 0.9, Value: 1, State: 0.3, Vars: []VarConfidence{{Name: "n", P: 0.4}, {Name: "s", P: 0.95}}}
	if name, p := c.Least(); name != "n" || p != 0.4 {
		t.Errorf("Least = %s %v", name, p)
	}
	if p, ok := c.Var("s"); !ok || p != 0.95 {
		t.Errorf("Var(s) = %v %v", p, ok)
	}
	if _, ok := c.Var("x"); ok {
		t.Error("Var(x) found")
	}
	d := c.Clone()
	d.Vars[0].P = 1
	if c.Vars[0].P != 0.4 {
		t.Error("Clone shares its variables")
	}
	var none *Confidence
	if _, ok := none.Var("n"); ok || none.Clone() != nil {
		t.Error("a nil confidence has parts")
	}
}
