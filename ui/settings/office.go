package settings

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Office is the office hub a person connects to. The secret is not
// part of it: it lives only in the OS keyring.
type Office struct {
	HubURL   string
	ClientID string
	// InUse: the person last used office mode, so the next start opens it
	// again (SetOfficeInUse).
	InUse bool
	// AllowUnencrypted: the person allowed an http:// HubURL that is not
	// on this computer (storage.CheckHubURL).
	AllowUnencrypted bool
	// CAFile is the office's certificate authority (PEM), trusted beside
	// the system's for the hub's certificate; "" = the system's alone.
	CAFile string
}

// Preference keys of the office connection (no secret: plain JSON).
const (
	prefHubURL      = "office.hub_url"
	prefHubClientID = "office.client_id"
	prefOfficeInUse = "office.in_use"
	prefUnencrypted = "office.allow_unencrypted"
	prefHubCA       = "office.ca_file"
)

// LoadOffice reads the office connection from the app preferences.
func LoadOffice(p fyne.Preferences) Office {
	return Office{HubURL: p.String(prefHubURL), ClientID: p.String(prefHubClientID), InUse: p.Bool(prefOfficeInUse),
		AllowUnencrypted: p.Bool(prefUnencrypted), CAFile: p.String(prefHubCA)}
}

// Save keeps the office hub and client id in the app preferences.
func (s Office) Save(p fyne.Preferences) {
	p.SetString(prefHubURL, s.HubURL)
	p.SetString(prefHubClientID, s.ClientID)
	p.SetBool(prefUnencrypted, s.AllowUnencrypted)
	p.SetString(prefHubCA, s.CAFile)
}

// SetOfficeInUse remembers whether the person is in office mode: the next
// start opens the mode they left.
func SetOfficeInUse(p fyne.Preferences, on bool) {
	p.SetBool(prefOfficeInUse, on)
}

// ShowOffice asks for the hub's address and the person's client id
// and secret, keeps the secret in the keyring (off the main goroutine, as
// the Live dialog does) and hands them to Connecting.ConnectOffice; bad input
// changes nothing and says why. A secret already saved for the client id
// is used when none is typed.
func (d *Dialogs) ShowOffice() {
	saved := LoadOffice(d.win.Preferences())
	if ask := d.conn.AskOffice(); ask != "" && strings.TrimRight(ask, "/") != saved.HubURL {
		saved = Office{HubURL: strings.TrimRight(ask, "/")} // the hub asked for, not another one's id
	}
	hub := dialogs.NewEntry()
	hub.SetPlaceHolder("e.g. https://hub.office.example")
	hub.SetText(saved.HubURL)
	id := dialogs.NewEntry()
	id.SetText(saved.ClientID)
	secret := dialogs.NewPasswordEntry()
	secret.SetPlaceHolder("given to you with your client id")
	kept := widget.NewLabel("")
	kept.Wrapping = fyne.TextWrapWord
	d.describeSavedSecret(&secret.Entry, saved.ClientID, kept)
	plain := widget.NewCheck("Allow an unencrypted connection (http://)", nil)
	plain.SetChecked(saved.AllowUnencrypted)
	ca := dialogs.NewEntry()
	ca.SetPlaceHolder("optional: the office's CA certificate file (PEM)")
	ca.SetText(saved.CAFile)
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	problem.Wrapping = fyne.TextWrapWord
	problem.Hide()
	form := widget.NewForm(
		widget.NewFormItem("Hub address", hub),
		widget.NewFormItem("Your client id", id),
		widget.NewFormItem("Your client secret", secret),
		widget.NewFormItem("Office CA file", ca),
		widget.NewFormItem("", plain),
	)
	var dlg dialog.Dialog
	var connect *dialogs.Button
	say := func(err error) {
		problem.SetText(format.Sentence(err.Error()))
		problem.Show()
	}
	connect = dialogs.NewButton("Connect", nil, func() {
		s := Office{HubURL: strings.TrimRight(strings.TrimSpace(hub.Text), "/"), ClientID: strings.TrimSpace(id.Text),
			AllowUnencrypted: plain.Checked, CAFile: strings.TrimSpace(ca.Text)}
		switch {
		case storage.CheckHubURL(s.HubURL, s.AllowUnencrypted) != nil:
			say(storage.CheckHubURL(s.HubURL, s.AllowUnencrypted))
			return
		case s.ClientID == "":
			say(fmt.Errorf("enter the client id the office gave you"))
			return
		case !d.conn.CanConnectOffice():
			say(fmt.Errorf("this window cannot switch to an office hub"))
			return
		}
		typed := secret.Text
		connect.Disable()
		d.win.Background(func() {
			use := d.secretFor(s.ClientID, typed)
			var err error
			if use != "" {
				_, _, err = d.storeSecret(s.ClientID, typed)
			}
			d.win.Do(func() {
				connect.Enable()
				switch {
				case use == "":
					say(fmt.Errorf("enter your client secret"))
				case err != nil:
					say(err)
				default:
					if err := d.conn.ConnectOffice(s, use); err != nil {
						say(err)
						return
					}
					dlg.Hide() // the new window's banner says when the secret is kept for this session only
				}
			})
		})
	})
	connect.Importance = widget.HighImportance
	body := widget.NewLabel("The office hub keeps one connection to the service for everyone; you sign in with your own client id and secret.")
	body.Wrapping = fyne.TextWrapWord
	dlg = dialog.NewCustomWithoutButtons("Connect to office hub", container.NewVBox(body, kept, form, problem,
		container.NewHBox(layout.NewSpacer(), dialogs.NewButton("Cancel", nil, func() { dlg.Hide() }), connect)), d.win.Window())
	dlg.Resize(fyne.NewSize(520, 320))
	dlg.Show()
}
