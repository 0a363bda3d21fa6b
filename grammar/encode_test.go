package grammar

import (
	"strings"
	"testing"
)

func TestEncodePromptEndsWithTheAction(t *testing.T) {
	tr := countTrajectory()
	full, err := EncodeTrajectory(tr)
	if err != nil {
		t.Fatal(err)
	}
	last := tr.Steps[len(tr.Steps)-1]
	head := tr
	head.Steps = tr.Steps[:len(tr.Steps)-1]
	prompt, err := EncodePrompt(head, last.Action)
	if err != nil {
		t.Fatal(err)
	}
	want := "<|action_sep|>" + last.Action.Kind.Token()
	if !strings.HasPrefix(full, prompt) || !strings.HasSuffix(prompt, want) {
		t.Fatalf("the prompt is not the trajectory cut right after its last action %q:\nprompt %q\nfull   %q", want, prompt, full)
	}
	if _, err := EncodePrompt(head, Action{Kind: InvStepCall}); err == nil {
		t.Fatal("a backward action in a forward trajectory was accepted")
	}
}
