package models

import (
	"errors"
	"testing"
)

func TestResolve(t *testing.T) {
	if d, err := Resolve("x"); d != "x" || err != nil {
		t.Errorf("Resolve(x) = %q, %v", d, err)
	}
	d, err := Resolve("")
	if !Bundled() {
		if !errors.Is(err, ErrNoDefault) {
			t.Errorf("no bundle: got %q, %v", d, err)
		}
		return
	}
	if err != nil || d == "" {
		t.Errorf("bundled: got %q, %v", d, err)
	}
}
