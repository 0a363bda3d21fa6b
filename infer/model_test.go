package infer

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"
)

func TestMain(m *testing.M) {
	SetThreads(0)
	os.Exit(m.Run())
}

// tinyConfig is a model small enough for tests: 2 layers, grouped-query attention.
func tinyConfig() Config {
	return Config{VocabSize: 61, Dim: 32, Layers: 2, Heads: 4, KVHeads: 2, Hidden: 80, MaxSeqLen: 48,
		RopeTheta: 10000, NormEps: 1e-5, BOS: 1, EOS: 2}
}

// newTestModel builds a model on the CPU with a fixed seed.
func newTestModel(t testing.TB, cfg Config) *Model {
	t.Helper()
	Seed(1)
	m, err := New(nn.NewVarStore(gotch.CPU), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func randomTokens(n, vocab int, seed int64) []int {
	r := rand.New(rand.NewSource(seed))
	out := make([]int, n)
	for i := range out {
		out[i] = r.Intn(vocab)
	}
	return out
}

// maxDiff is the largest |a-b| over two logit matrices of the same shape.
func maxDiff(t *testing.T, a, b [][]float32) float64 {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d rows against %d", len(a), len(b))
	}
	d := 0.0
	for i := range a {
		if len(a[i]) != len(b[i]) {
			t.Fatalf("row %d: %d columns against %d", i, len(a[i]), len(b[i]))
		}
		for j := range a[i] {
			d = math.Max(d, math.Abs(float64(a[i][j]-b[i][j])))
		}
	}
	return d
}

func TestParamNamesAreHuggingFaces(t *testing.T) {
	for _, tied := range []bool{false, true} {
		cfg := tinyConfig()
		cfg.Layers, cfg.TieEmbeddings = 1, tied
		m := newTestModel(t, cfg)
		want := []string{"model.embed_tokens.weight",
			"model.layers.0.input_layernorm.weight",
			"model.layers.0.self_attn.q_proj.weight", "model.layers.0.self_attn.k_proj.weight",
			"model.layers.0.self_attn.v_proj.weight", "model.layers.0.self_attn.o_proj.weight",
			"model.layers.0.post_attention_layernorm.weight",
			"model.layers.0.mlp.gate_proj.weight", "model.layers.0.mlp.up_proj.weight", "model.layers.0.mlp.down_proj.weight",
			"model.norm.weight"}
		if !tied {
			want = append(want, "lm_head.weight")
		}
		var got []string
		var n int64
		for _, p := range m.Params() {
			got = append(got, p.Name)
			n += int64(p.Tensor.Numel())
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("tied=%v: params\n%v\nwant\n%v", tied, got, want)
		}
		vars := m.VS.Variables()
		if len(vars) != len(want) {
			t.Errorf("tied=%v: VarStore has %d variables, want %d", tied, len(vars), len(want))
		}
		for _, name := range want {
			if _, ok := vars[name]; !ok {
				t.Errorf("tied=%v: VarStore lacks %s", tied, name)
			}
		}
		if n != cfg.NumParams() {
			t.Errorf("tied=%v: %d parameters, NumParams says %d", tied, n, cfg.NumParams())
		}
	}
}

func TestCachedMatchesUncached(t *testing.T) {
	for _, kv := range []int{4, 2, 1} {
		t.Run(fmt.Sprintf("kvheads=%d", kv), func(t *testing.T) {
			cfg := tinyConfig()
			cfg.KVHeads = kv
			m := newTestModel(t, cfg)
			tokens := randomTokens(40, cfg.VocabSize, 7)
			full, err := m.Logits(tokens)
			if err != nil {
				t.Fatal(err)
			}
			// Feed the sequence in chunks of 5, 1, 13, 1, 1 and 19 tokens through the cache.
			var chunked [][]float32
			pos := 0
			for _, n := range []int{5, 1, 13, 1, 1, 19} {
				rows, err := m.ForwardAll(tokens[pos:pos+n], pos)
				if err != nil {
					t.Fatal(err)
				}
				chunked = append(chunked, rows...)
				pos += n
			}
			if d := maxDiff(t, chunked, full); d > 1e-4 {
				t.Errorf("cached and uncached logits differ by %g", d)
			}
			if m.CacheLen() != len(tokens) {
				t.Errorf("CacheLen %d, want %d", m.CacheLen(), len(tokens))
			}
			// Roll back to position 20 and feed a different continuation: it must match
			// the uncached pass of the spliced sequence.
			alt := append(append([]int(nil), tokens[:20]...), randomTokens(6, cfg.VocabSize, 8)...)
			last, err := m.Forward(alt[20:], 20)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Logits(alt)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxDiff(t, [][]float32{last}, want[len(want)-1:]); d > 1e-4 {
				t.Errorf("after rolling back, logits differ by %g", d)
			}
			if m.CacheLen() != 26 {
				t.Errorf("CacheLen %d after rolling back, want 26", m.CacheLen())
			}
		})
	}
}

func TestForwardErrors(t *testing.T) {
	cfg := tinyConfig()
	m := newTestModel(t, cfg)
	if _, err := m.Forward([]int{1, 2}, 1); err == nil {
		t.Error("a gap after the cached prefix was accepted")
	}
	if _, err := m.Forward([]int{cfg.VocabSize}, 0); err == nil {
		t.Error("a token outside the vocabulary was accepted")
	}
	if _, err := m.Forward(make([]int, cfg.MaxSeqLen+1), 0); err == nil {
		t.Error("more tokens than the context were accepted")
	}
	if _, err := m.Forward([]int{3, 4, 5}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Forward([]int{3}, 4); err == nil {
		t.Error("position 4 with 3 cached was accepted")
	}
}

func TestForwardFreesItsTensors(t *testing.T) {
	m := newTestModel(t, tinyConfig())
	tokens := randomTokens(10, m.Config.VocabSize, 3)
	if _, err := m.Forward(tokens, 0); err != nil { // allocates the cache
		t.Fatal(err)
	}
	// gotch also frees tensors in finalizers: let pending ones run, then keep the GC
	// off so that a leak cannot be hidden by a collection.
	runtime.GC()
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := len(ts.ExistingTensors)
	for i := 0; i < 5; i++ {
		if _, err := m.Forward(tokens[:4], 3); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Logits(tokens); err != nil {
			t.Fatal(err)
		}
	}
	if after := len(ts.ExistingTensors); after != before {
		t.Errorf("%d live gotch tensors before, %d after: the forward pass leaks", before, after)
	}
}

func TestSaveLoadGivesIdenticalLogits(t *testing.T) {
	for _, c := range []struct {
		name  string
		tied  bool
		shard int64
	}{{"single", false, 0}, {"tied", true, 0}, {"sharded", false, 20_000}} {
		t.Run(c.name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.TieEmbeddings = c.tied
			m := newTestModel(t, cfg)
			dir := t.TempDir()
			tok := filepath.Join(t.TempDir(), "tok.json")
			if err := os.WriteFile(tok, []byte(`{"model":{"type":"placeholder"}}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := m.Save(dir, SaveOptions{Tokenizer: tok, MaxShardBytes: c.shard}); err != nil {
				t.Fatal(err)
			}
			_, errIndex := os.Stat(filepath.Join(dir, IndexFile))
			if sharded := errIndex == nil; sharded != (c.shard > 0) {
				t.Errorf("index file present = %v", sharded)
			}
			if _, err := os.Stat(filepath.Join(dir, TokenizerFile)); err != nil {
				t.Error(err)
			}
			m2, err := Load(dir, gotch.CPU)
			if err != nil {
				t.Fatal(err)
			}
			defer m2.Close()
			if m2.Config != m.Config {
				t.Errorf("config %+v, want %+v", m2.Config, m.Config)
			}
			tokens := randomTokens(30, cfg.VocabSize, 11)
			a, err := m.Logits(tokens)
			if err != nil {
				t.Fatal(err)
			}
			b, err := m2.Logits(tokens)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxDiff(t, a, b); d != 0 {
				t.Errorf("logits after save and load differ by %g", d)
			}
		})
	}
}

func TestLoadRejectsMismatchedWeights(t *testing.T) {
	cfg := tinyConfig()
	m := newTestModel(t, cfg)
	dir := t.TempDir()
	if err := m.Save(dir, SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	cfg.Hidden = 96
	if err := SaveConfig(cfg, filepath.Join(dir, ConfigFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir, gotch.CPU); err == nil {
		t.Error("weights of another shape were loaded")
	}
}

// TestOverfitOneBatch proves training works: AdamW (weight decay 0.1) drives the loss
// on one fixed batch to nearly zero.
func TestOverfitOneBatch(t *testing.T) {
	cfg := tinyConfig()
	m := newTestModel(t, cfg)
	const B, T = 2, 24
	seq := randomTokens(B*(T+1), cfg.VocabSize, 5)
	in, tgt := make([]int64, 0, B*T), make([]int64, 0, B*T)
	for b := 0; b < B; b++ {
		for i := 0; i < T; i++ {
			in = append(in, int64(seq[b*(T+1)+i]))
			tgt = append(tgt, int64(seq[b*(T+1)+i+1]))
		}
	}
	x := ts.MustOfSlice(in).MustView([]int64{B, T}, true)
	y := ts.MustOfSlice(tgt).MustView([]int64{B, T}, true)
	defer drop(x, y)
	opt, err := nn.NewAdamWConfig(0.9, 0.95, 0.1).Build(m.VS, 1e-2)
	if err != nil {
		t.Fatal(err)
	}
	var first, last float64
	for step := 0; step < 150; step++ {
		logits, err := m.ForwardTrain(x)
		if err != nil {
			t.Fatal(err)
		}
		loss, err := Loss(logits, y)
		if err != nil {
			t.Fatal(err)
		}
		last = loss.Float64Values()[0]
		if step == 0 {
			first = last
		}
		if err := opt.BackwardStep(loss); err != nil {
			t.Fatal(err)
		}
		drop(logits, loss)
		if last < 0.01 {
			break
		}
	}
	t.Logf("loss %.4f → %.4f", first, last)
	if first < 3 || last > 0.05 {
		t.Errorf("loss went from %.4f to %.4f; want from about ln(%d) = %.2f to below 0.05", first, last, cfg.VocabSize, math.Log(float64(cfg.VocabSize)))
	}
}
