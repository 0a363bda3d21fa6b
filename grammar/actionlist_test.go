package grammar

import "testing"

func TestActionList(t *testing.T) {
	actions, err := ParseActionList(" step_into, breakpoint:5+7 ,inv_step_call")
	if err != nil || len(actions) != 3 || actions[1].Kind != Breakpoint || len(actions[1].Lines) != 2 {
		t.Fatalf("parsed %+v, %v", actions, err)
	}
	if got := ActionList(actions); got != "step_into,breakpoint:5+7,inv_step_call" {
		t.Errorf("written back as %q", got)
	}
	if a, err := ParseActionList(""); a != nil || err != nil {
		t.Errorf("an empty list: %v, %v", a, err)
	}
	if _, err := ParseActionList("step_into,jump"); err == nil {
		t.Error("an unknown action parsed")
	}
	if err := CheckDirection(actions, Forward); err == nil || err.Error() != "inv_step_call is a reverse action" {
		t.Errorf("a reverse action in a forward walk: %v", err)
	}
	if err := CheckDirection(actions[:2], Forward); err != nil {
		t.Errorf("forward actions: %v", err)
	}
}
