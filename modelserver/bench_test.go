package modelserver

import (
	"context"
	"os"
	"testing"
)

// BenchmarkRoundTrip is the JSON-RPC hop of one action over the pipe (to the fake
// model, which answers at once): what a served session pays per action beyond the
// prediction.
func BenchmarkRoundTrip(b *testing.B) {
	b.Setenv("NDB_FAKE_MODEL_SERVER", "1")
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	p := &Pool{Binary: exe}
	defer p.Close()
	be, err := OpenBackend(context.Background(), p, "", OpenParams{Path: "prog.py", Model: Model{Dir: "/m"}})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := be.Peek(context.Background(), stepInto); err != nil {
			b.Fatal(err)
		}
	}
}
