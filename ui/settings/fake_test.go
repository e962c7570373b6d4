package settings

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/internal/viewtest"
)

func TestMain(m *testing.M) {
	viewtest.Main(m, func() time.Time { return time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) })
}

// fake is the window around the dialogs (viewtest.Host: work runs inline,
// errors are kept) and what main handed it: the test app's preferences,
// a secret store, and whichever of testing, switching mode and
// connecting to an office hub a test gives it.
type fake struct {
	viewtest.Host
	t       *testing.T
	dialogs *Dialogs
	prefs   fyne.Preferences

	demo      bool
	secrets   SecretStore
	test      func(ctx context.Context, conn api.Connection, report func(api.Check)) bool
	switched  []bool // SwitchMode's calls
	canSwitch bool   // false: the window cannot switch mode
	connect   func(s Office, secret string) error
	ask       string
}

// newFake is the dialogs over a test window of a test app (its own
// preferences), in demo mode with no secret store.
func newFake(t *testing.T) *fake {
	t.Helper()
	a := test.NewTempApp(t)
	f := &fake{t: t, prefs: a.Preferences(), demo: true}
	f.Win = test.NewTempWindow(t, widget.NewLabel("the window"))
	f.Win.Resize(fyne.NewSize(1000, 800))
	f.dialogs = New(f, f)
	return f
}

// Info shows a message as the window does.
func (f *fake) Info(title, msg string)        { dialogs.Info(title, msg, f.Win) }
func (f *fake) Preferences() fyne.Preferences { return f.prefs }
func (f *fake) Demo() bool                    { return f.demo }
func (f *fake) Secrets() SecretStore          { return f.secrets }
func (f *fake) CanTestConnection() bool       { return f.test != nil }
func (f *fake) TestConnection(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
	return f.test(ctx, conn, report)
}
func (f *fake) CanSwitchMode() bool                         { return f.canSwitch }
func (f *fake) SwitchMode(live bool)                        { f.switched = append(f.switched, live) }
func (f *fake) CanConnectOffice() bool                      { return f.connect != nil }
func (f *fake) ConnectOffice(s Office, secret string) error { return f.connect(s, secret) }
func (f *fake) AskOffice() string                           { return f.ask }

// top is the dialog on top of the window (nil: none).
func (f *fake) top() fyne.CanvasObject { return f.Win.Canvas().Overlays().Top() }

// said is all the text of the dialog on top, in lower case ("" when none
// is open): Fyne capitalises some dialogs' titles.
func (f *fake) said() string {
	if f.top() == nil {
		return ""
	}
	var out []string
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *widget.RichText:
			out = append(out, w.String())
		default:
			if b := viewtest.AsButton(o); b != nil {
				out = append(out, b.Text)
			}
		}
	})
	return strings.ToLower(strings.Join(out, "\n"))
}

// dismiss closes every dialog.
func (f *fake) dismiss() {
	for f.top() != nil {
		f.Win.Canvas().Overlays().Remove(f.top())
	}
}

// entry is the entry of the form item labelled label in the dialog on top.
func (f *fake) entry(label string) *widget.Entry {
	f.t.Helper()
	var found *widget.Entry
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		form, ok := o.(*widget.Form)
		if !ok || found != nil {
			return
		}
		for _, it := range form.Items {
			if it.Text != label {
				continue
			}
			viewtest.Walk(it.Widget, func(w fyne.CanvasObject) {
				if e, ok := w.(*dialogs.Entry); ok && found == nil {
					found = &e.Entry
				}
				if e, ok := w.(*widget.Entry); ok && found == nil {
					found = e
				}
			})
		}
	})
	if found == nil {
		f.t.Fatalf("no %q field in:\n%s", label, f.said())
	}
	return found
}

// button is the button labelled text in the dialog on top.
func (f *fake) button(text string) *widget.Button {
	f.t.Helper()
	var found *widget.Button
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if b := viewtest.AsButton(o); b != nil && b.Text == text && found == nil {
			found = b
		}
	})
	if found == nil {
		f.t.Fatalf("no %q button in:\n%s", text, f.said())
	}
	return found
}

// check is the tick box labelled text in the dialog on top.
func (f *fake) check(text string) *widget.Check {
	f.t.Helper()
	var found *widget.Check
	viewtest.Walk(f.top(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widget.Check); ok && c.Text == text && found == nil {
			found = c
		}
	})
	if found == nil {
		f.t.Fatalf("no %q tick box in:\n%s", text, f.said())
	}
	return found
}

// labels are the labels under o.
func labels(o fyne.CanvasObject) []*widget.Label {
	var out []*widget.Label
	viewtest.Walk(o, func(c fyne.CanvasObject) {
		if l, ok := c.(*widget.Label); ok {
			out = append(out, l)
		}
	})
	return out
}
