// Package models bundles the default checkpoint into the ndb binary (go:embed of
// models/default) and unpacks it to a cache folder on first use, since infer.Load
// reads a checkpoint folder.
package models

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

//go:embed default
var bundle embed.FS

// ErrNoDefault says that this build bundles no checkpoint.
var ErrNoDefault = errors.New("no default model bundled; pass --model DIR")

// files are the checkpoint files of the bundle.
var files = []string{"config.json", "model.safetensors", "tokenizer.json"}

// optional are files a bundle may carry: the temperatures of the confidences
// (infer.CalibrationFile), fitted on the bundled weights.
var optional = []string{"calibration.json"}

// present returns the files and the optional files the bundle carries.
func present() []string {
	out := append([]string(nil), files...)
	for _, f := range optional {
		if _, err := fs.Stat(bundle, "default/"+f); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// Bundled reports whether this build carries a default checkpoint.
func Bundled() bool {
	_, err := fs.Stat(bundle, "default/model.safetensors")
	return err == nil
}

// DefaultDir returns a folder holding the bundled checkpoint, unpacking it into the
// user's cache folder (ndb/models/SHA) the first time; ErrNoDefault when there is
// none.
func DefaultDir() (string, error) {
	if !Bundled() {
		return "", ErrNoDefault
	}
	h := sha256.New()
	for _, f := range present() {
		b, err := bundle.ReadFile("default/" + f)
		if err != nil {
			return "", err
		}
		h.Write(b)
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "ndb", "models", hex.EncodeToString(h.Sum(nil))[:16])
	if _, err := os.Stat(filepath.Join(dir, "model.safetensors")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "unpack-")
	if err != nil {
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return "", err
		}
		if tmp, err = os.MkdirTemp(filepath.Dir(dir), "unpack-"); err != nil {
			return "", err
		}
	}
	for _, f := range present() {
		b, _ := bundle.ReadFile("default/" + f)
		if err := os.WriteFile(filepath.Join(tmp, f), b, 0o644); err != nil {
			os.RemoveAll(tmp)
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, "model.safetensors")); serr == nil {
			return dir, nil // another process unpacked it first
		}
		return "", err
	}
	return dir, nil
}

// Resolve returns dir when it is not empty, else the bundled default.
func Resolve(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return DefaultDir()
}
