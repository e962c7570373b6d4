package main

import (
	_ "embed"
	"errors"
	"fmt"

	"github.com/BurntSushi/toml"
)

// FyneApp.toml is the one place the version is written: `fyne package`
// compiles it into the packages, and embedding it here gives `go build` and
// `go run` the same version (Fyne itself reads the file at run time only
// when it lies beside the binary, and never in a release build).
//
//go:embed FyneApp.toml
var fyneAppTOML string

var appVersion = mustVersion(fyneAppTOML)

// versionOf returns the [Details] Version of a FyneApp.toml.
func versionOf(fyneApp string) (string, error) {
	var meta struct{ Details struct{ Version string } }
	if _, err := toml.Decode(fyneApp, &meta); err != nil {
		return "", fmt.Errorf("FyneApp.toml: %w", err)
	}
	if meta.Details.Version == "" {
		return "", errors.New("FyneApp.toml: [Details] has no Version")
	}
	return meta.Details.Version, nil
}

func mustVersion(fyneApp string) string {
	v, err := versionOf(fyneApp)
	if err != nil {
		panic(err) // a broken FyneApp.toml fails every test of this package
	}
	return v
}
