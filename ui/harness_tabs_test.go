package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/workorderdesk/workdesk/storage"
)

// tabOf returns the detail view's tab of type T.
func tabOf[T tab](h *harness) T {
	h.t.Helper()
	for _, tb := range h.desk.detail.tabs {
		if x, ok := tb.(T); ok {
			return x
		}
	}
	h.t.Fatalf("no %T tab", *new(T))
	return *new(T)
}

// replicaRows is every work order of the replica, in the list's default
// order (read from storage, so the search does not depend on how the list
// pages its rows).
func replicaRows(h *harness) []storage.Row {
	h.t.Helper()
	rows, err := h.store.List(context.Background(), storage.ListQuery{})
	if err != nil {
		h.t.Fatal(err)
	}
	return rows
}

// positionIn is target's position relative to root, found through
// containers and widget renderers; false when it is not shown under root.
func positionIn(root, target fyne.CanvasObject) (fyne.Position, bool) {
	if root == target {
		return fyne.Position{}, true
	}
	if !root.Visible() {
		return fyne.Position{}, false
	}
	var kids []fyne.CanvasObject
	switch c := root.(type) {
	case *fyne.Container:
		kids = c.Objects
	case fyne.Widget:
		kids = test.WidgetRenderer(c).Objects()
	}
	for _, k := range kids {
		if p, ok := positionIn(k, target); ok {
			return k.Position().Add(p), true
		}
	}
	return fyne.Position{}, false
}
