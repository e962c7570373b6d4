// Package jobsheetview is the job sheet dialog (the Summary tab's Job
// sheet…): the open work order as a one- or two-page PDF to take on
// site, on the paper the person chose and with the internal note when
// ticked, opened in the system's PDF viewer to print or saved where the
// person picks. It depends only on the small interfaces below, never on
// the window that shows it, so it is tested against a fake
// (fake_test.go).
package jobsheetview

import (
	"context"
	"net/url"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/storage"
)

// Replica is what the sheet reads of the local replica (a
// *storage.Store), off the main goroutine.
type Replica interface {
	// AssigneesOf is who each of ids is assigned to: the sheet names the
	// technician as the window does.
	AssigneesOf(ctx context.Context, ids []int64) (map[int64]storage.Assignees, error)
	// Note is the work order's internal note, printed when ticked.
	Note(ctx context.Context, woID int64) (*storage.Note, error)
}

// Window is what the dialog needs of the window around it.
type Window interface {
	// Window is the window the dialog is shown over.
	Window() fyne.Window
	// Preferences keep the paper the person chose, for every sheet.
	Preferences() fyne.Preferences
	// Run runs work off the main goroutine and hands done its error back
	// on it.
	Run(work func(ctx context.Context) error, done func(error))
	// OpenFile opens the sheet's file in the system's PDF viewer.
	OpenFile(u *url.URL) error
}
