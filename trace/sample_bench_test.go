package trace

import (
	"testing"

	"github.com/ndb-project/ndb/grammar"
)

// BenchmarkSampleEncode measures trajectories sampled and encoded per second on one
// core, over the testdata programs, forward and inverse alike.
func BenchmarkSampleEncode(b *testing.B) {
	var recs []*Recording
	for _, p := range testPrograms(b) {
		if p.Name == "huge_value" {
			continue // its repr-heavy states are not typical of the corpus
		}
		recs = append(recs, record(b, p))
	}
	inverses := make([]*Tree, len(recs))
	for i, r := range recs {
		inverses[i] = r.Forward.Inverse()
	}
	s := NewSampler(1, SampleOptions{})
	bytes := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(recs)
		tree := recs[k].Forward
		if i%2 == 1 {
			tree = inverses[k]
		}
		tr := s.Sample(tree)
		tr.Context = recs[k].Context
		text, err := grammar.EncodeTrajectory(tr)
		if err != nil {
			b.Fatal(err)
		}
		bytes += len(text)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "trajectories/s")
	b.ReportMetric(float64(bytes)/float64(b.N), "bytes/trajectory")
}
