package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/ndb-project/ndb/session"
)

// DefaultMode is the mode of a launch that names none: recorded, which runs the
// program and so always answers right; neural and compare are asked for by name.
const DefaultMode = session.ModeRecorded

// DefaultMaxSteps caps the actions of a session whose launch sets no maxSteps.
const DefaultMaxSteps = 10000

// LaunchConfig holds the validated arguments of a launch request.
type LaunchConfig struct {
	// Program is the absolute path of the Python file to debug.
	Program string
	// Entry is a call such as `f(3, "x")`; empty debugs the whole script.
	Entry string
	Mode  session.Mode
	// Model is a checkpoint path for the neural backend; empty means its default.
	Model string
	// ModelServer is the HOST:PORT of a model server (ndb-infer --listen) that runs
	// the model; empty means the server's --model-server, else ndb-infer over a pipe.
	ModelServer string
	// Temperature of the model's sampling; 0 is greedy.
	Temperature float64
	Seed        int64
	StopOnEntry bool
	// MaxSteps caps the backend actions of the session (each step of a continue
	// that walks step by step counts).
	MaxSteps int
	// MinConfidence (0 to 1; 0 is off) flags a stop whose predicted state the model
	// is less sure of: the stopped event's description says so.
	MinConfidence float64
}

// errNoModel is the answer to a neural or compare launch in a build without the
// neural backend (the ndb binary always has it; a test server may not).
const errNoModel = "%s mode needs a model: this build has no neural backend (use \"mode\": \"recorded\")"

// launchFields are the launch arguments ndb reads; any other field is ignored (VS
// Code adds its own: type, request, name, __sessionId, ...).
var launchFields = []string{"program", "entry", "mode", "model", "modelServer", "temperature", "seed", "stopOnEntry", "maxSteps", "minConfidence", "cwd", "noDebug"}

// parseLaunch validates the arguments of a launch request. Relative program and
// model paths are resolved against cwd (the launch's "cwd" when set).
func parseLaunch(raw json.RawMessage, cwd string) (LaunchConfig, []string, error) {
	cfg := LaunchConfig{Mode: DefaultMode, MaxSteps: DefaultMaxSteps}
	args := map[string]json.RawMessage{}
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return cfg, nil, errorf(ErrLaunchArguments, "launch: the arguments must be a JSON object")
		}
	}
	for k, v := range args {
		if string(bytes.TrimSpace(v)) == "null" {
			delete(args, k) // null is the same as absent
		}
	}
	var ignored []string
	for k := range args {
		if !slices.Contains(launchFields, k) {
			ignored = append(ignored, k)
		}
	}
	sort.Strings(ignored)

	if v, ok := args["cwd"]; ok {
		if err := decodeString(v, &cwd); err != nil {
			return cfg, ignored, badLaunch("cwd", "a directory path", v)
		}
	}
	var program string
	if v, ok := args["program"]; !ok {
		return cfg, ignored, errorf(ErrLaunchArguments, `launch: "program" is required: the path of the Python file to debug`)
	} else if err := decodeString(v, &program); err != nil || strings.TrimSpace(program) == "" {
		return cfg, ignored, badLaunch("program", "a file path", v)
	}
	cfg.Program = absPath(program, cwd)
	if st, err := os.Stat(cfg.Program); err != nil {
		return cfg, ignored, errorf(ErrLaunchArguments, "launch: program %s: %v", cfg.Program, unwrapPathError(err))
	} else if !st.Mode().IsRegular() {
		return cfg, ignored, errorf(ErrLaunchArguments, "launch: program %s is not a file", cfg.Program)
	}
	if v, ok := args["entry"]; ok {
		if err := decodeString(v, &cfg.Entry); err != nil {
			return cfg, ignored, badLaunch("entry", `a call such as "f(3, 'x')"`, v)
		}
		cfg.Entry = strings.TrimSpace(cfg.Entry)
	}
	if v, ok := args["mode"]; ok {
		var m string
		if err := decodeString(v, &m); err != nil {
			return cfg, ignored, badLaunch("mode", `"neural", "recorded" or "compare"`, v)
		}
		mode, err := session.ParseMode(m)
		if err != nil {
			return cfg, ignored, errorf(ErrLaunchArguments, `launch: unknown "mode" %q: want "neural", "recorded" or "compare"`, m)
		}
		cfg.Mode = mode
	}
	if v, ok := args["modelServer"]; ok {
		if err := decodeString(v, &cfg.ModelServer); err != nil || !strings.Contains(cfg.ModelServer, ":") {
			return cfg, ignored, badLaunch("modelServer", "a model server's HOST:PORT", v)
		}
	}
	if v, ok := args["model"]; ok {
		if err := decodeString(v, &cfg.Model); err != nil || cfg.Model == "" {
			return cfg, ignored, badLaunch("model", "a checkpoint path", v)
		}
		if cfg.ModelServer == "" { // else a path on the server's machine
			cfg.Model = absPath(cfg.Model, cwd)
			if _, err := os.Stat(cfg.Model); err != nil {
				return cfg, ignored, errorf(ErrLaunchArguments, "launch: model %s: %v", cfg.Model, unwrapPathError(err))
			}
		}
	}
	if v, ok := args["temperature"]; ok {
		f, err := decodeNumber(v)
		if err == nil {
			cfg.Temperature, err = f.Float64()
		}
		if err != nil || cfg.Temperature < 0 || math.IsInf(cfg.Temperature, 0) {
			return cfg, ignored, badLaunch("temperature", "a number >= 0", v)
		}
	}
	if v, ok := args["seed"]; ok {
		if err := decodeInt(v, &cfg.Seed); err != nil {
			return cfg, ignored, badLaunch("seed", "an integer", v)
		}
	}
	if v, ok := args["stopOnEntry"]; ok {
		if err := json.Unmarshal(v, &cfg.StopOnEntry); err != nil {
			return cfg, ignored, badLaunch("stopOnEntry", "true or false", v)
		}
	}
	if v, ok := args["maxSteps"]; ok {
		var n int64
		if err := decodeInt(v, &n); err != nil || n <= 0 || n > math.MaxInt32 {
			return cfg, ignored, badLaunch("maxSteps", "a positive integer", v)
		}
		cfg.MaxSteps = int(n)
	}
	if v, ok := args["minConfidence"]; ok {
		f, err := decodeNumber(v)
		if err == nil {
			cfg.MinConfidence, err = f.Float64()
		}
		if err != nil || cfg.MinConfidence < 0 || cfg.MinConfidence > 100 || math.IsNaN(cfg.MinConfidence) {
			return cfg, ignored, badLaunch("minConfidence", "a probability from 0 to 1 (or a percentage up to 100)", v)
		}
		if cfg.MinConfidence > 1 {
			cfg.MinConfidence /= 100 // a percentage
		}
	}
	if v, ok := args["noDebug"]; ok {
		var b bool
		if err := json.Unmarshal(v, &b); err != nil {
			return cfg, ignored, badLaunch("noDebug", "true or false", v)
		}
	}
	return cfg, ignored, nil
}

func badLaunch(field, want string, got json.RawMessage) error {
	g := string(got)
	if len(g) > 60 {
		g = g[:60] + "..."
	}
	return errorf(ErrLaunchArguments, "launch: %q must be %s, got %s", field, want, g)
}

// decodeString decodes a JSON string (and nothing else).
func decodeString(v json.RawMessage, s *string) error {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '"' {
		return fmt.Errorf("not a string")
	}
	return json.Unmarshal(v, s)
}

// decodeNumber decodes a JSON number (not a string holding one).
func decodeNumber(v json.RawMessage) (json.Number, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] == '"' {
		return "", fmt.Errorf("not a number")
	}
	var f json.Number
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if err := d.Decode(&f); err != nil {
		return "", err
	}
	return f, nil
}

// decodeInt decodes a JSON number with no fractional part that fits an int64.
func decodeInt(v json.RawMessage, n *int64) error {
	f, err := decodeNumber(v)
	if err != nil {
		return err
	}
	i, err := f.Int64()
	if err != nil {
		return err
	}
	*n = i
	return nil
}

func absPath(p, cwd string) string {
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	if a, err := filepath.Abs(p); err == nil {
		p = a
	}
	return filepath.Clean(p)
}

// unwrapPathError drops the path from an *os.PathError (the message names it).
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
