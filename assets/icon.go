// Package assets holds the files the app ships inside its binary.
package assets

import (
	_ "embed"

	"fyne.io/fyne/v2"
)

//go:embed icon.png
var iconPNG []byte

// Icon is the application icon (512 px PNG rendered from icon.svg).
var Icon = fyne.NewStaticResource("icon.png", iconPNG)
