package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
)

// droppedPaths keeps the local files among dropped URIs.
func droppedPaths(uris []fyne.URI) []string {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == storage.NewFileURI("/").Scheme() {
			paths = append(paths, u.Path())
		}
	}
	return paths
}
