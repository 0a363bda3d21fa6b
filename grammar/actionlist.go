package grammar

import (
	"fmt"
	"strings"
)

// ParseActionList parses a comma-separated list of actions in the command-line form
// of ParseActionSpec, e.g. "step_into,step_over,breakpoint:5+7". An empty list gives
// no actions.
func ParseActionList(list string) ([]Action, error) {
	if strings.TrimSpace(list) == "" {
		return nil, nil
	}
	var actions []Action
	for _, spec := range strings.Split(list, ",") {
		a, err := ParseActionSpec(spec)
		if err != nil {
			return nil, err
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// ActionList writes actions as ParseActionList reads them.
func ActionList(actions []Action) string {
	specs := make([]string, len(actions))
	for i, a := range actions {
		specs[i] = a.Spec()
	}
	return strings.Join(specs, ",")
}

// direction names the direction of an action kind, for messages.
func (k ActionKind) direction() string {
	if k.Inverse() {
		return "reverse"
	}
	return "forward"
}

// CheckDirection reports an error naming the first action that does not go in
// direction dir.
func CheckDirection(actions []Action, dir Direction) error {
	for _, a := range actions {
		if a.Kind.Inverse() != (dir == Inverse) {
			return fmt.Errorf("%s is a %s action", a.Kind, a.Kind.direction())
		}
	}
	return nil
}
