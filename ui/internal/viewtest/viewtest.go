// Package viewtest is what the tests of the views under ui/ share: the
// window as a view sees it, running work inline as the window's own tests
// do and keeping what it was asked (Host), the clock pinned (Main), and
// a view read as a person reads it (Walk, Texts, Button), and a large replica
// written straight (GeneratedReplica). A view's fake embeds Host and adds
// what is its own. Only tests import it.
package viewtest

import (
	"context"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Main runs a view package's tests in UTC with the window's clock at now,
// so what a view writes is the same on every run and machine.
func Main(m *testing.M, now func() time.Time) {
	time.Local = time.UTC
	format.Now = now
	code := m.Run()
	if demoDir != "" {
		os.RemoveAll(demoDir)
	}
	os.Exit(code)
}

// Host is the window around a view: work runs inline (Run, Write, Act,
// Background, Do), and what the view asked of it is kept.
type Host struct {
	Win      fyne.Window
	Errors   []string // the errors shown
	Said     []string // what the window was told was queued
	Replaced int      // how many actions asked for their correction context
}

func (w *Host) Window() fyne.Window     { return w.Win }
func (w *Host) ShowError(err error)     { w.Errors = append(w.Errors, err.Error()) }
func (w *Host) Queued(what string)      { w.Said = append(w.Said, what) }
func (w *Host) Background(g func())     { g() }
func (w *Host) Do(g func())             { g() }
func (w *Host) Closed() <-chan struct{} { return nil }
func (w *Host) Ticking() bool           { return false }
func (w *Host) Connected() bool         { return true }

func (w *Host) Run(work func(context.Context) error, done func(error)) {
	done(work(context.Background()))
}

func (w *Host) Write(work func(context.Context) error, done func(error)) {
	done(work(context.Background()))
}

func (w *Host) Act(_ []fyne.Disableable, write func(context.Context) error, done func(error)) {
	done(write(context.Background()))
}

func (w *Host) Busy(fyne.Disableable) bool         { return false }
func (w *Host) Enable(c fyne.Disableable, on bool) { arrange.SetEnabled(c, on) }

func (w *Host) Replacing(int64, outbox.Group) context.Context {
	w.Replaced++
	return context.Background()
}

func (w *Host) OpenURL(api.DownloadURL) error { return nil }

// Download hands over a small PDF's first bytes, and says they all came.
func (w *Host) Download(_ context.Context, _ api.DownloadURL, to io.Writer, progress func(done, total int64)) error {
	n, err := io.WriteString(to, "%PDF-1.4")
	progress(int64(n), int64(n))
	return err
}

// LastError is the last error shown ("" if none).
func (w *Host) LastError() string {
	if len(w.Errors) == 0 {
		return ""
	}
	return w.Errors[len(w.Errors)-1]
}

// Walk visits o and everything shown under it, in the order a person
// reads it.
func Walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			Walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			Walk(c, visit)
		}
	}
}

// Texts is every label's and button's text under o, a line each.
func Texts(o fyne.CanvasObject) string {
	var out []string
	Walk(o, func(c fyne.CanvasObject) {
		if l, ok := c.(*widget.Label); ok {
			out = append(out, l.Text)
		} else if b := AsButton(c); b != nil {
			out = append(out, b.Text)
		}
	})
	return strings.Join(out, "\n")
}

// AsButton is o as a button: a *widget.Button, or a widget built on one
// (a dialog's buttons that answer Enter and Esc, a final question's
// Cancel), whose Button is reached by reflection as those types are not
// exported; nil when o is no button.
func AsButton(o fyne.CanvasObject) *widget.Button {
	if b, ok := o.(*widget.Button); ok {
		return b
	}
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if f := v.Elem().FieldByName("Button"); f.IsValid() && f.Type() == reflect.TypeOf(widget.Button{}) {
		return f.Addr().Interface().(*widget.Button)
	}
	return nil
}

// Button is the first visible button reading text under o (a dialog, a
// view), whatever kind of button it is (AsButton); nil when there is none.
func Button(o fyne.CanvasObject, text string) *widget.Button {
	var found *widget.Button
	Walk(o, func(c fyne.CanvasObject) {
		if b := AsButton(c); b != nil && b.Text == text && found == nil {
			found = b
		}
	})
	return found
}
