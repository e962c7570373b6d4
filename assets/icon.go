// Package assets holds the files the app ships inside its binary, as bytes:
// no Fyne here, so that the sandbox (and anything else without a window)
// can embed them without linking a GUI toolkit.
package assets

import _ "embed"

// IconPNG is the application icon (512 px PNG rendered from icon.svg); the
// window makes its Fyne resource from these bytes.
//
//go:embed icon.png
var IconPNG []byte
