package infer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// CalibrationFile is the file in a checkpoint's folder that holds the fitted
// temperatures of its confidences.
const CalibrationFile = "calibration.json"

// Calibration holds one temperature per token kind: a token's probability is its
// softmax at that temperature among the tokens the grammar allows. A calibration
// belongs to the weights it was fitted on (WeightsSHA256): a checkpoint whose weights
// changed ignores it. The zero value and nil are the raw probabilities (every
// temperature 1).
type Calibration struct {
	WeightsSHA256 string             `json:"weights_sha256"`
	Temperatures  map[string]float64 `json:"temperatures"`
	// FittedOn says what the temperatures were fitted on (for people).
	FittedOn string `json:"fitted_on,omitempty"`
	// ECEBefore and ECEAfter are the expected calibration errors (whole state, in %)
	// on the held-out half the fit did not see.
	ECEBefore float64 `json:"ece_before,omitempty"`
	ECEAfter  float64 `json:"ece_after,omitempty"`
}

// Temperature returns kind k's temperature (1 when none was fitted).
func (c *Calibration) Temperature(k TokenKind) float64 {
	if c == nil {
		return 1
	}
	if t, ok := c.Temperatures[k.String()]; ok && t > 0 && !math.IsInf(t, 0) {
		return t
	}
	return 1
}

// WeightsHash returns the hex SHA-256 of a checkpoint's weights (model.safetensors,
// or the index and its shards in name order).
func WeightsHash(dir string) (string, error) {
	h := sha256.New()
	files := []string{filepath.Join(dir, WeightsFile)}
	if _, err := os.Stat(files[0]); errors.Is(err, fs.ErrNotExist) {
		shards, _ := filepath.Glob(filepath.Join(dir, "model-*.safetensors"))
		slices.Sort(shards)
		files = append([]string{filepath.Join(dir, IndexFile)}, shards...)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// LoadCalibration reads dir's calibration.json. It returns nil (raw probabilities)
// and no error when there is none; stale is set when there is one but it was fitted
// on other weights (it is then not used: a new model must be recalibrated).
func LoadCalibration(dir string) (cal *Calibration, stale bool, err error) {
	data, err := os.ReadFile(filepath.Join(dir, CalibrationFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var c Calibration
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, false, fmt.Errorf("%s: %w", CalibrationFile, err)
	}
	sum, err := WeightsHash(dir)
	if err != nil {
		return nil, false, err
	}
	if c.WeightsSHA256 != sum {
		return nil, true, nil
	}
	return &c, false, nil
}

// Save writes c as dir's calibration.json.
func (c *Calibration) Save(dir string) error {
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, CalibrationFile), append(data, '\n'), 0o644)
}

// TokenDist is a compact copy of the constrained distribution a token was chosen
// from, enough to recompute its probability at any temperature: the highest allowed
// logits exactly, the rest as a histogram of their distance below the highest (a
// count and a mean per bin: the error of treating a bin as its mean is second order).
type TokenDist struct {
	Chosen float32   // the chosen token's logit minus the highest allowed logit (≤ 0)
	Top    []float32 // the distTop highest allowed logits minus the highest, the chosen one among them or not
	Count  []uint16  // the other allowed logits: Count[b] of them lie distBin*b to distBin*(b+1) below the highest
	Mean   []float32 // their mean, minus the highest
}

const (
	distTop  = 32
	distBin  = 0.25
	distBins = 256 // 64 logits below the highest: beyond, e^-64/T is nothing at the temperatures fitted
)

// newTokenDist records the distribution of logits under mask (scratch is reused).
func newTokenDist(logits []float32, mask []bool, id int, scratch *[]float32) *TokenDist {
	vals := (*scratch)[:0]
	for i, ok := range mask {
		if ok && !math.IsNaN(float64(logits[i])) {
			vals = append(vals, logits[i])
		}
	}
	*scratch = vals
	if len(vals) == 0 {
		return &TokenDist{}
	}
	slices.SortFunc(vals, func(a, b float32) int {
		switch {
		case a > b:
			return -1
		case a < b:
			return 1
		}
		return 0
	})
	m := vals[0]
	d := &TokenDist{Chosen: logits[id] - m}
	n := min(distTop, len(vals))
	d.Top = make([]float32, n)
	for i := range n {
		d.Top[i] = vals[i] - m
	}
	for _, v := range vals[n:] {
		b := int((m - v) / distBin)
		if b >= distBins {
			break
		}
		if d.Count == nil {
			d.Count, d.Mean = make([]uint16, distBins), make([]float32, distBins)
		}
		if d.Count[b] < math.MaxUint16 {
			d.Count[b]++
			d.Mean[b] += v - m
		}
	}
	for b, n := range d.Count {
		if n > 0 {
			d.Mean[b] /= float32(n)
		}
	}
	return d
}

// LogP is the chosen token's log-probability at temperature t.
func (d *TokenDist) LogP(t float64) float64 {
	if len(d.Top) == 0 {
		return 0
	}
	inv := 1 / t
	var s float64
	for _, v := range d.Top {
		s += math.Exp(float64(v) * inv)
	}
	for b, n := range d.Count {
		if n > 0 {
			s += float64(n) * math.Exp(float64(d.Mean[b])*inv)
		}
	}
	return math.Min(float64(d.Chosen)*inv-math.Log(s), 0)
}
