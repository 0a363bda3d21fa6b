package main

import (
	"testing"

	"github.com/ndb-project/ndb/train"
)

// Every recipe field has its flag, under the name a refused resume quotes: a flag
// named otherwise would never be checked against the run's recipe.
func TestTrainFlagsCoverTheRecipe(t *testing.T) {
	fs, _ := trainFlags(&train.Options{})
	for _, name := range train.RecipeFlags() {
		if fs.Lookup(name) == nil {
			t.Errorf("ndb train has no --%s, a field of the recipe", name)
		}
	}
}
