package status

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The bar's parts as a person sees them, for the window's tests that read
// what the bar says after a whole flow (an action queued, a sync failed).
// Nothing outside tests changes them.

func (s *Bar) ModeLabel() *widget.Label     { return s.mode }
func (s *Bar) TokenLabel() *widget.Label    { return s.token }
func (s *Bar) ReceiverLabel() *widget.Label { return s.receiver }
func (s *Bar) OutboxLabel() *widget.Label   { return s.outbox }
func (s *Bar) SyncLabel() *widget.Label     { return s.sync }
func (s *Bar) NoteLabel() *widget.Label     { return s.note }
func (s *Bar) ProblemLabel() *widget.Label  { return s.problem }

// ProgressLabel says what the progress bar (ProgressBar) or the upload's
// (UploadBar) is about.
func (s *Bar) ProgressLabel() *widget.Label           { return s.barLabel }
func (s *Bar) ProgressBar() *widget.ProgressBar       { return s.bar }
func (s *Bar) UploadBar() *widget.ProgressBarInfinite { return s.uploading }

// Row is the bar's row: the connection's facts, the note, the progress.
func (s *Bar) Row() *fyne.Container { return s.row }
