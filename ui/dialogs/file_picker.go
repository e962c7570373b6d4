package dialogs

import (
	"os"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
)

// OpenFile is dialog.ShowFileOpen at a size where a folder's files can
// be seen, opening in the folder a file was last picked from (recentFolders).
func OpenFile(cb func(fyne.URIReadCloser, error), w fyne.Window) {
	ShowFilePicker(dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if r != nil {
			rememberFolder(r.URI())
		}
		cb(r, err)
	}, w), w)
}

// ShowFilePicker shows fd at a size where a folder's files can be seen
// (Fyne's default shows about four rows), in the folder a file was last
// picked from or saved to. Fyne 2.8.1 builds the picker only in Show, and
// its Resize reads the picker's minimum size, so a Resize before Show
// dereferences nil and ends the process. Where the platform's own picker
// takes over (a Flatpak portal, mobile) there is no Fyne picker to size:
// only one that appeared on the canvas is resized.
//
// A save picker focuses its file name, which keeps every key, Esc too; the
// name is filled in already, so the picker opens with nothing focused and
// Esc reaches the window, which closes it (a click in the name types there).
func ShowFilePicker(fd *dialog.FileDialog, w fyne.Window) {
	if at := lastFolder(); at != nil {
		fd.SetLocation(at)
	}
	overlays := w.Canvas().Overlays()
	before := overlays.Top()
	fd.Show()
	if top := overlays.Top(); top != nil && top != before {
		fd.Resize(fyne.NewSize(820, 560))
		w.Canvas().Unfocus()
	}
}

// recentFoldersKey keeps, in the preferences, the folders files were last
// picked from or saved to, newest first: a coordinator attaches files from
// the same few folders all day, and Fyne's picker otherwise opens at home,
// eight clicks away from them.
const (
	recentFoldersKey = "files.recent"
	recentFolders    = 5
)

// rememberFolder puts the folder of file first among the recent ones.
func rememberFolder(file fyne.URI) {
	dir, err := storage.Parent(file)
	if err != nil || dir.Scheme() != "file" {
		return
	}
	path := filepath.Clean(dir.Path())
	prefs := fyne.CurrentApp().Preferences()
	list := slices.DeleteFunc(prefs.StringList(recentFoldersKey), func(p string) bool { return p == path })
	list = append([]string{path}, list...)
	prefs.SetStringList(recentFoldersKey, list[:min(len(list), recentFolders)])
}

// lastFolder is the newest recent folder that still exists, nil when none.
func lastFolder() fyne.ListableURI {
	for _, p := range fyne.CurrentApp().Preferences().StringList(recentFoldersKey) {
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
			continue
		}
		if l, err := storage.ListerForURI(storage.NewFileURI(p)); err == nil {
			return l
		}
	}
	return nil
}

// SavedName is where a file was saved, as a person finds it again: its
// name, in its folder.
func SavedName(u fyne.URI) string {
	if dir := filepath.Dir(u.Path()); u.Path() != "" && dir != "." {
		return u.Name() + " in " + dir
	}
	return u.Name()
}
