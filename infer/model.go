package infer

import (
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"
)

// IgnoreIndex is the target id that Loss skips (PyTorch's default ignore_index).
const IgnoreIndex = -100

// Model is a Llama 2 style decoder: token embedding; Layers blocks of RMSNorm →
// causal multi-head self-attention with rotary position embeddings → residual, and
// RMSNorm → SwiGLU feed-forward → residual; a final RMSNorm; lm_head. No biases.
//
// Parameters are named exactly as in Hugging Face's LlamaForCausalLM
// (model.embed_tokens.weight, model.layers.N.self_attn.q_proj.weight, ..., lm_head.weight),
// because gotch names variables after the nn.Path they are created on and New is the
// one constructor for training and inference.
//
// Goroutines: libtorch keeps grad mode per OS thread and gotch keeps its last error in
// one process-wide variable, so a Model is not safe for concurrent use. Make all calls
// on a model (and all gotch calls around them) from one goroutine at a time; the
// inference entry points lock that goroutine to its OS thread while they run.
type Model struct {
	Config Config
	VS     *nn.VarStore // the parameters

	embed  *ts.Tensor // [vocab, dim]
	blocks []block
	norm   *ts.Tensor // [dim]
	head   linear     // weight [vocab, dim]; the embedding when tied
	params []Param

	rope   rope
	mask   *ts.Tensor // [maxSeq, maxSeq] bool: true above the diagonal (future keys)
	eps    *ts.Scalar // NormEps
	negInf *ts.Scalar // -Inf, the masked attention score
	scale  *ts.Scalar // 1/sqrt(headDim), the attention score scale
	cache  *kvCache   // allocated at the first cached forward pass
	shared bool       // a Share: Close frees only its cache
	runner *Runner    // runs the cached forward passes of a Runner's share

	zeroInit bool // while building: weights start at zero (a load fills them)
}

// Param is one named parameter of a Model.
type Param struct {
	Name   string     // Hugging Face's name, e.g. "model.layers.0.mlp.up_proj.weight"
	Tensor *ts.Tensor // the VarStore's variable
}

// linear is a bias-free projection y = x·Wᵀ.
type linear struct {
	w  *ts.Tensor // [out, in]: the parameter, in PyTorch's layout
	wt *ts.Tensor // [in, out]: a transposed view of w
}

func (l linear) forward(x *ts.Tensor) *ts.Tensor {
	return must(x.Matmul(l.wt, false)) // [..., in] → [..., out]
}

// block is one transformer layer.
type block struct {
	attnNorm       *ts.Tensor // [dim]
	q, k, v, o     linear     // q [heads·hd, dim], k and v [kvHeads·hd, dim], o [dim, heads·hd]
	ffnNorm        *ts.Tensor // [dim]
	gate, up, down linear     // gate and up [hidden, dim], down [dim, hidden]
}

// New builds a model for cfg with its parameters on vs.Root(), initialised as
// transformers does (normal with std InitStd, norms at one). Training and inference
// share this constructor; Load builds the same model uninitialised (newModel) and
// copies a checkpoint's weights in.
func New(vs *nn.VarStore, cfg Config) (*Model, error) { return newModel(vs, cfg, true) }

// newModel builds the model; with randomInit false its weight matrices start at
// zero rather than drawn at random: a load overwrites every parameter, so the
// draws (the bundled model's 5M numbers, in parallel regions whose idle threads
// spin) were work thrown away at every launch.
func newModel(vs *nn.VarStore, cfg Config, randomInit bool) (m *Model, err error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	defer recoverTorch(&err, "infer.New")
	// gotch's initialisers switch grad mode off and on around each variable; on one
	// locked thread the pair cannot straddle two threads and leave one without grad.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	device := vs.Device()
	m = &Model{Config: cfg, VS: vs, zeroInit: !randomInit}
	d, hd := int64(cfg.Dim), int64(cfg.HeadDim())
	h, kvh, ff := int64(cfg.Heads), int64(cfg.KVHeads), int64(cfg.Hidden)

	// Each path is built from the root in one chain: gotch's Path.Sub appends to its
	// parent's slice, so two Subs of one parent can overwrite each other's last element.
	path := func(parts ...string) *nn.Path {
		p := vs.Root()
		for _, s := range parts {
			p = p.Sub(s)
		}
		return p
	}
	m.embed = m.newVar(path("model", "embed_tokens"), []int64{int64(cfg.VocabSize), d}, false)
	for i := 0; i < cfg.Layers; i++ {
		l := func(parts ...string) *nn.Path {
			return path(append([]string{"model", "layers", strconv.Itoa(i)}, parts...)...)
		}
		m.blocks = append(m.blocks, block{
			attnNorm: m.newVar(l("input_layernorm"), []int64{d}, true),
			q:        m.newLinear(l("self_attn", "q_proj"), d, h*hd),
			k:        m.newLinear(l("self_attn", "k_proj"), d, kvh*hd),
			v:        m.newLinear(l("self_attn", "v_proj"), d, kvh*hd),
			o:        m.newLinear(l("self_attn", "o_proj"), h*hd, d),
			ffnNorm:  m.newVar(l("post_attention_layernorm"), []int64{d}, true),
			gate:     m.newLinear(l("mlp", "gate_proj"), d, ff),
			up:       m.newLinear(l("mlp", "up_proj"), d, ff),
			down:     m.newLinear(l("mlp", "down_proj"), ff, d),
		})
	}
	m.norm = m.newVar(path("model", "norm"), []int64{d}, true)
	if cfg.TieEmbeddings {
		m.head = linear{w: m.embed, wt: must(m.embed.T(false))}
	} else {
		m.head = m.newLinear(path("lm_head"), d, int64(cfg.VocabSize))
	}

	m.rope = newRope(cfg.MaxSeqLen, cfg.HeadDim(), cfg.RopeTheta, device)
	n := int64(cfg.MaxSeqLen)
	ones := must(ts.Ones([]int64{n, n}, gotch.Bool, device)) // [maxSeq, maxSeq]
	m.mask = must(ones.Triu(1, true))                        // [maxSeq, maxSeq]
	m.eps = ts.FloatScalar(cfg.NormEps)
	m.negInf = ts.FloatScalar(math.Inf(-1))
	m.scale = ts.FloatScalar(1 / math.Sqrt(float64(hd)))
	return m, nil
}

// newVar adds the parameter "weight" [dims] under p: ones for a norm, else normal
// (zero under zeroInit).
func (m *Model) newVar(p *nn.Path, dims []int64, norm bool) *ts.Tensor {
	var t *ts.Tensor
	var err error
	switch {
	case norm:
		t, err = p.Ones("weight", dims)
	case m.zeroInit:
		t, err = p.Zeros("weight", dims)
	default:
		t, err = p.Randn("weight", dims, 0, m.Config.InitStd)
	}
	check(err)
	name := strings.Join(append(append([]string(nil), p.Paths()...), "weight"), nn.SEP)
	m.params = append(m.params, Param{Name: name, Tensor: t})
	return t
}

// newLinear adds a bias-free projection from in to out features under p.
func (m *Model) newLinear(p *nn.Path, in, out int64) linear {
	w := m.newVar(p, []int64{out, in}, false) // [out, in]
	return linear{w: w, wt: must(w.T(false))} // wt [in, out]
}

// Params lists the parameters in Hugging Face's order and names (lm_head.weight
// absent when tied).
func (m *Model) Params() []Param { return append([]Param(nil), m.params...) }

// Device is where the parameters live.
func (m *Model) Device() gotch.Device { return m.VS.Device() }

// forward runs tokens [B, T] (int64) at positions [pos, pos+T) and returns logits
// [B, T, vocab], or [B, 1, vocab] for the last position only when lastOnly. With a
// cache (B must be 1) keys and values are written to it and attention covers
// [0, pos+T); without one it covers the T tokens themselves.
func (m *Model) forward(tokens *ts.Tensor, pos int, cache *kvCache, lastOnly bool) *ts.Tensor {
	t := tokens.MustSize()[1]
	x := must(ts.Embedding(m.embed, tokens, -1, false, false)) // [B, T, dim]
	rp := m.rope.at(pos, int(t))                               // [T, headDim] tables
	for l := range m.blocks {
		x = m.block(l, x, pos, rp, cache) // [B, T, dim]
	}
	rp.free()
	if lastOnly && t > 1 {
		x = must(x.Narrow(1, t-1, 1, true)) // [B, 1, dim]
	}
	xn := m.rmsnorm(x, m.norm) // [B, T, dim]
	drop(x)
	logits := m.head.forward(xn) // [B, T, vocab]
	drop(xn)
	return logits
}

// block runs layer l on x [B, T, dim], which it frees, and returns [B, T, dim].
func (m *Model) block(l int, x *ts.Tensor, pos int, rp ropeAt, cache *kvCache) *ts.Tensor {
	b := &m.blocks[l]
	a := m.attention(b, l, x, pos, rp, cache) // [B, T, dim]
	x = must(x.Add(a, true))                  // [B, T, dim]: residual
	drop(a)
	return m.feedForward(b, x)
}

// feedForward adds block b's SwiGLU feed-forward of x [B, T, dim], which it frees,
// to x and returns [B, T, dim].
func (m *Model) feedForward(b *block, x *ts.Tensor) *ts.Tensor {
	h := m.rmsnorm(x, b.ffnNorm) // [B, T, dim]
	g := b.gate.forward(h)       // [B, T, hidden]
	u := b.up.forward(h)         // [B, T, hidden]
	drop(h)
	g = must(g.Silu(true))     // [B, T, hidden]
	gu := must(g.Mul(u, true)) // [B, T, hidden]: SwiGLU
	drop(u)
	f := b.down.forward(gu) // [B, T, dim]
	drop(gu)
	x = must(x.Add(f, true)) // [B, T, dim]: residual
	drop(f)
	return x
}

// attention is causal self-attention of block b (layer l) on x [B, T, dim] at
// positions [pos, pos+T), whose rope tables are rp; it returns the output projection
// [B, T, dim].
func (m *Model) attention(b *block, l int, x *ts.Tensor, pos int, rp ropeAt, cache *kvCache) *ts.Tensor {
	nh, nkv, hd := int64(m.Config.Heads), int64(m.Config.KVHeads), int64(m.Config.HeadDim())

	h := m.rmsnorm(x, b.attnNorm)       // [B, T, dim]
	q := heads(b.q.forward(h), nh, hd)  // [B, heads, T, hd]
	k := heads(b.k.forward(h), nkv, hd) // [B, kvHeads, T, hd]
	v := heads(b.v.forward(h), nkv, hd) // [B, kvHeads, T, hd]
	drop(h)
	y := m.attend(l, q, k, v, pos, rp, cache) // [B, T, heads·hd]
	out := b.o.forward(y)                     // [B, T, dim]
	drop(y)
	return out
}

// attend is the attention of layer l of the heads q [B, heads, T, hd], k and v
// [B, kvHeads, T, hd] (which it frees) at positions [pos, pos+T), whose rope tables
// are rp: rotary embeddings, the cache, the causal mask. It returns the heads'
// outputs side by side, [B, T, heads·hd], before the output projection.
func (m *Model) attend(l int, q, k, v *ts.Tensor, pos int, rp ropeAt, cache *kvCache) *ts.Tensor {
	size := q.MustSize()
	bs, t := size[0], size[2]
	nh, nkv, hd := int64(m.Config.Heads), int64(m.Config.KVHeads), int64(m.Config.HeadDim())
	qr := rp.apply(q) // [B, heads, T, hd]
	kr := rp.apply(k) // [B, kvHeads, T, hd]
	drop(q, k)

	s := t // number of keys
	if cache != nil {
		keys, values := cache.update(l, pos, kr, v) // [1, kvHeads, pos+T, hd] each
		drop(kr, v)
		kr, v, s = keys, values, int64(pos)+t
	}
	if nkv < nh {
		kr = repeatKV(kr, nh/nkv) // [B, heads, S, hd]
		v = repeatKV(v, nh/nkv)   // [B, heads, S, hd]
	}
	kt := must(kr.Transpose(2, 3, true)) // [B, heads, hd, S]
	att := must(qr.Matmul(kt, true))     // [B, heads, T, S]
	drop(kt)
	att = must(att.MulScalar(m.scale, true)) // [B, heads, T, S]
	if t > 1 {
		rows := must(m.mask.Narrow(0, int64(pos), t, false)) // [T, maxSeq]
		mask := must(rows.Narrow(1, 0, s, true))             // [T, S]: key j > query position
		att = must(att.MaskedFill(mask, m.negInf, true))     // [B, heads, T, S]
		drop(mask)
	}
	att = must(att.Softmax(-1, gotch.Float, true)) // [B, heads, T, S]
	y := must(att.Matmul(v, true))                 // [B, heads, T, hd]
	drop(v)
	y = must(y.Transpose(1, 2, true))                     // [B, T, heads, hd]
	return must(y.Reshape([]int64{bs, t, nh * hd}, true)) // [B, T, heads·hd]
}

// heads splits x [B, T, n·hd], which it frees, into [B, n, T, hd].
func heads(x *ts.Tensor, n, hd int64) *ts.Tensor {
	size := x.MustSize()
	v := must(x.View([]int64{size[0], size[1], n, hd}, true)) // [B, T, n, hd]
	return must(v.Transpose(1, 2, true))                      // [B, n, T, hd]
}

// repeatKV repeats each of the kvHeads of x [B, kvHeads, S, hd], which it frees,
// rep times in a row (Hugging Face's repeat_kv), giving [B, kvHeads·rep, S, hd].
func repeatKV(x *ts.Tensor, rep int64) *ts.Tensor {
	size := x.MustSize()
	bs, nkv, s, hd := size[0], size[1], size[2], size[3]
	u := must(x.Unsqueeze(2, true))                                // [B, kvHeads, 1, S, hd]
	e := must(u.Expand([]int64{bs, nkv, rep, s, hd}, false, true)) // [B, kvHeads, rep, S, hd]
	return must(e.Reshape([]int64{bs, nkv * rep, s, hd}, true))    // [B, kvHeads·rep, S, hd]
}

// rmsnorm returns w · x / sqrt(mean(x²) + eps) over the last axis of x [..., dim].
func (m *Model) rmsnorm(x, w *ts.Tensor) *ts.Tensor {
	sq := must(x.Square(false))                                  // [..., dim]
	ms := must(sq.MeanDim([]int64{-1}, true, gotch.Float, true)) // [..., 1]
	check(ms.AddScalar_(m.eps))                                  // [..., 1]
	check(ms.Rsqrt_())                                           // [..., 1]
	y := must(x.Mul(ms, false))                                  // [..., dim]
	drop(ms)
	return must(y.Mul(w, true)) // [..., dim]
}

// ForwardTrain is the uncached full forward pass for training: tokens [B, T] (int64,
// on the model's device, T ≤ MaxSeqLen) give logits [B, T, vocab], with the autograd
// graph recorded (grad mode is switched on for the call, on a locked OS thread,
// whatever the thread's mode was). The caller frees the result.
func (m *Model) ForwardTrain(tokens *ts.Tensor) (*ts.Tensor, error) {
	return m.forwardBatch(tokens, true)
}

// ForwardEval is ForwardTrain without the autograd graph, for evaluation batches.
func (m *Model) ForwardEval(tokens *ts.Tensor) (*ts.Tensor, error) {
	return m.forwardBatch(tokens, false)
}

func (m *Model) forwardBatch(tokens *ts.Tensor, grad bool) (logits *ts.Tensor, err error) {
	size := tokens.MustSize()
	if len(size) != 2 || size[1] < 1 || size[1] > int64(m.Config.MaxSeqLen) {
		return nil, fmt.Errorf("infer.ForwardTrain: tokens of shape %v, want [B, T] with 1 ≤ T ≤ %d", size, m.Config.MaxSeqLen)
	}
	withGrad(grad, func() {
		defer recoverTorch(&err, "infer.ForwardTrain")
		logits = m.forward(tokens, 0, nil, false) // [B, T, vocab]
	})
	return logits, err
}

// Loss is the mean cross-entropy of logits [B, T, vocab] against targets [B, T]
// (int64), skipping targets equal to IgnoreIndex. Like ForwardTrain it records the
// graph (when logits have one) whatever the thread's grad mode. The caller frees the
// result.
func Loss(logits, targets *ts.Tensor) (loss *ts.Tensor, err error) {
	withGrad(true, func() {
		defer recoverTorch(&err, "infer.Loss")
		v := logits.MustSize()[2]
		flat := must(logits.View([]int64{-1, v}, false))              // [B·T, vocab]
		tgt := must(targets.View([]int64{-1}, false))                 // [B·T]
		logp := must(flat.LogSoftmax(-1, gotch.Float, true))          // [B·T, vocab]
		loss = must(logp.NllLoss(tgt, ts.None, 1, IgnoreIndex, true)) // []: the mean; ts.None: no class weights
		drop(tgt)
	})
	return loss, err
}
