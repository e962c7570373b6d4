package assets

import "embed"

// Demo holds the files the sandbox attaches to its demo world: a small photo
// (demo/evaporator-coil.png) and a one-page service report
// (demo/service-report.pdf). They are real files so that "open" in the demo
// shows something a viewer can render.
//
//go:embed demo/*
var Demo embed.FS
