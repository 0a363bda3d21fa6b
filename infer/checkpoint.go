package infer

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sugarme/gotch"
	"github.com/sugarme/gotch/nn"
	"github.com/sugarme/gotch/ts"
)

// A checkpoint is a folder that transformers' LlamaForCausalLM.from_pretrained reads:
//
//	config.json                      the Config (Hugging Face field names)
//	model.safetensors                the weights in fp32, or else
//	model.safetensors.index.json     {"weight_map": {name: file}} and its shards
//	model-0000i-of-0000n.safetensors
//	tokenizer.json                   copied from wherever the tokenizer was given
const (
	ConfigFile    = "config.json"
	WeightsFile   = "model.safetensors"
	IndexFile     = "model.safetensors.index.json"
	TokenizerFile = "tokenizer.json"
)

// SaveOptions says what Save writes besides the config and the weights.
type SaveOptions struct {
	Tokenizer     string // a tokenizer file to copy as tokenizer.json; "" for none
	MaxShardBytes int64  // split the weights into shards of at most this size; 0 for one file
}

// Save writes the model as a checkpoint folder dir (created if needed). Stale
// weight files of the other layout (one file or shards) are removed.
func (m *Model) Save(dir string, opt SaveOptions) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := SaveConfig(m.Config, filepath.Join(dir, ConfigFile)); err != nil {
		return err
	}
	tensors := map[string]f32Tensor{}
	var names []string
	func() {
		defer recoverTorch(&err, "infer.Save")
		for _, p := range m.params {
			tensors[p.Name] = toF32Tensor(p.Tensor)
			names = append(names, p.Name)
		}
	}()
	if err != nil {
		return err
	}
	if err := removeWeights(dir); err != nil {
		return err
	}
	if err := writeWeights(dir, names, tensors, opt.MaxShardBytes); err != nil {
		return err
	}
	if opt.Tokenizer != "" {
		return copyFile(opt.Tokenizer, filepath.Join(dir, TokenizerFile))
	}
	return nil
}

// writeWeights writes one model.safetensors, or shards and their index when the
// total exceeds maxShard > 0.
func writeWeights(dir string, names []string, tensors map[string]f32Tensor, maxShard int64) error {
	var total int64
	for _, n := range names {
		total += int64(len(tensors[n].data))
	}
	if maxShard <= 0 || total <= maxShard {
		return writeSafetensors(filepath.Join(dir, WeightsFile), names, tensors)
	}
	var shards [][]string
	var size int64
	for _, n := range names {
		b := int64(len(tensors[n].data))
		if len(shards) == 0 || size+b > maxShard && size > 0 {
			shards, size = append(shards, nil), 0
		}
		shards[len(shards)-1] = append(shards[len(shards)-1], n)
		size += b
	}
	weightMap := map[string]string{}
	for i, s := range shards {
		file := fmt.Sprintf("model-%05d-of-%05d.safetensors", i+1, len(shards))
		if err := writeSafetensors(filepath.Join(dir, file), s, tensors); err != nil {
			return err
		}
		for _, n := range s {
			weightMap[n] = file
		}
	}
	index, err := json.MarshalIndent(map[string]any{
		"metadata":   map[string]int64{"total_size": total},
		"weight_map": weightMap,
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, IndexFile), append(index, '\n'), 0o644)
}

// removeWeights deletes model.safetensors, the index and the shards in dir.
func removeWeights(dir string) error {
	shards, _ := filepath.Glob(filepath.Join(dir, "model-*-of-*.safetensors"))
	for _, f := range append(shards, filepath.Join(dir, WeightsFile), filepath.Join(dir, IndexFile)) {
		if err := os.Remove(f); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}

// Load reads a checkpoint folder onto device: the model of its config on a fresh
// VarStore, its weights left at zero rather than drawn at random, then the
// checkpoint's weights copied in (every parameter: LoadWeights checks).
func Load(dir string, device gotch.Device) (*Model, error) {
	cfg, err := LoadConfig(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil, err
	}
	m, err := newModel(nn.NewVarStore(device), cfg, false)
	if err != nil {
		return nil, err
	}
	if err := m.LoadWeights(dir); err != nil {
		m.Close()
		return nil, err
	}
	return m, nil
}

// LoadWeights copies the weights of checkpoint folder dir (one file or shards, in
// F32, F16, BF16 or F64) into the model's parameters. Every parameter must be there
// with its shape; tensors the model does not have are an error, except rotary
// inv_freq buffers and, for a tied model, lm_head.weight.
func (m *Model) LoadWeights(dir string) (err error) {
	tensors, err := readWeights(dir)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, p := range m.params {
		want[p.Name] = true
		t, ok := tensors[p.Name]
		if !ok {
			return fmt.Errorf("infer.LoadWeights: %s: no tensor %s", dir, p.Name)
		}
		if shape := p.Tensor.MustSize(); !slices.Equal(shape, t.shape) {
			return fmt.Errorf("infer.LoadWeights: %s: %s has shape %v, the model %v", dir, p.Name, t.shape, shape)
		}
	}
	for _, name := range sortedKeys(tensors) {
		if !want[name] && !strings.HasSuffix(name, "rotary_emb.inv_freq") && !(name == "lm_head.weight" && m.Config.TieEmbeddings) {
			return fmt.Errorf("infer.LoadWeights: %s: unexpected tensor %s", dir, name)
		}
	}
	NoGrad(func() {
		defer recoverTorch(&err, "infer.LoadWeights")
		for _, p := range m.params {
			t := tensors[p.Name]
			src := must(ts.OfDataSize(t.data, t.shape, gotch.Float))
			p.Tensor.Copy_(src)
			drop(src)
		}
	})
	return err
}

// readWeights reads model.safetensors, or the shards named by the index.
func readWeights(dir string) (map[string]f32Tensor, error) {
	data, err := os.ReadFile(filepath.Join(dir, IndexFile))
	if os.IsNotExist(err) {
		return readSafetensors(filepath.Join(dir, WeightsFile))
	}
	if err != nil {
		return nil, err
	}
	var index struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, fmt.Errorf("%s: %w", IndexFile, err)
	}
	files := map[string]bool{}
	for _, f := range index.WeightMap {
		files[f] = true
	}
	out := map[string]f32Tensor{}
	for _, f := range sortedKeys(files) {
		if filepath.Base(f) != f {
			return nil, fmt.Errorf("%s: shard %q is not a file name in the folder", IndexFile, f)
		}
		part, err := readSafetensors(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		for name, t := range part {
			if index.WeightMap[name] != f {
				return nil, fmt.Errorf("%s: %s holds %s, which the index puts in %q", IndexFile, f, name, index.WeightMap[name])
			}
			out[name] = t
		}
	}
	for name := range index.WeightMap {
		if _, ok := out[name]; !ok {
			return nil, fmt.Errorf("%s: %s is not in %s", IndexFile, name, index.WeightMap[name])
		}
	}
	return out, nil
}

// copyFile copies src to dst (nothing when they are the same file).
func copyFile(src, dst string) error {
	if a, err := os.Stat(src); err == nil {
		if b, err := os.Stat(dst); err == nil && os.SameFile(a, b) {
			return nil
		}
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
