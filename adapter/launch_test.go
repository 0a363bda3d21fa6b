package adapter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ndb-project/ndb/session"
)

func TestParseLaunchDefaults(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "p.py")
	if err := os.WriteFile(prog, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, ignored, err := parseLaunch(json.RawMessage(`{"program": "p.py", "cwd": "`+dir+`", "type": "ndb", "name": "x", "seed": null}`), "")
	if err != nil {
		t.Fatal(err)
	}
	want := LaunchConfig{Program: prog, Mode: session.ModeRecorded, MaxSteps: DefaultMaxSteps}
	if cfg != want {
		t.Errorf("config %+v, want %+v", cfg, want)
	}
	if !slices.Equal(ignored, []string{"name", "type"}) {
		t.Errorf("ignored %v", ignored)
	}
	cfg, _, err = parseLaunch(json.RawMessage(`{"program": "`+prog+`", "entry": " f(1) ", "mode": "neural", "model": "`+prog+`",
		"temperature": 0.7, "seed": -3, "stopOnEntry": true, "maxSteps": 20, "noDebug": false}`), "")
	if err != nil {
		t.Fatal(err)
	}
	want = LaunchConfig{Program: prog, Entry: "f(1)", Mode: session.ModeNeural, Model: prog, Temperature: 0.7, Seed: -3, StopOnEntry: true, MaxSteps: 20}
	if cfg != want {
		t.Errorf("config %+v, want %+v", cfg, want)
	}
	for _, bad := range []string{`{"program": "` + prog + `", "seed": "5"}`, `{"program": "` + prog + `", "maxSteps": 1e12}`, `{"program": "` + prog + `", "cwd": 1}`, `{"program": ""}`, `null`} {
		if _, _, err := parseLaunch(json.RawMessage(bad), ""); err == nil {
			t.Errorf("parseLaunch(%s) succeeded", bad)
		}
	}
}

// "modelServer" names a model server elsewhere; its "model" is a path there, not
// checked here.
func TestParseLaunchModelServer(t *testing.T) {
	prog := filepath.Join(t.TempDir(), "p.py")
	if err := os.WriteFile(prog, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := parseLaunch(json.RawMessage(`{"program": "`+prog+`", "mode": "neural", "modelServer": "gpu-box:7070", "model": "/srv/models/big"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ModelServer != "gpu-box:7070" || cfg.Model != "/srv/models/big" {
		t.Errorf("config %+v", cfg)
	}
	for _, bad := range []string{`{"program": "` + prog + `", "modelServer": 7070}`, `{"program": "` + prog + `", "modelServer": "gpu-box"}`,
		`{"program": "` + prog + `", "model": "/srv/models/big"}`} {
		if _, _, err := parseLaunch(json.RawMessage(bad), ""); err == nil {
			t.Errorf("parseLaunch(%s) succeeded", bad)
		}
	}
}
