package settings

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// ShowLive opens the live connection dialog. The secret field is never
// filled back in: a saved secret stays in the keyring. Nothing here waits
// on the keyring or the network on the main goroutine.
func (d *Dialogs) ShowLive() {
	prefs := d.win.Preferences()
	cur := LoadLive(prefs)
	base, token, client, cert := dialogs.NewEntry(), dialogs.NewEntry(), dialogs.NewEntry(), dialogs.NewEntry()
	base.SetText(cur.BaseURL)
	base.SetPlaceHolder("e.g. https://api.example.com/Direct/")
	token.SetText(cur.TokenURL)
	token.SetPlaceHolder("e.g. https://login.example.com/oauth/token (the integration tile's OAuth Server URL)")
	client.SetText(cur.ClientID)
	cert.SetText(cur.CertPath)
	cert.SetPlaceHolder("notification certificate (PEM), optional")
	secret := dialogs.NewPasswordEntry()
	secret.SetPlaceHolder("client secret")
	kept := widget.NewLabel("")
	kept.Wrapping = fyne.TextWrapWord
	kept.Importance = widget.LowImportance
	d.describeSavedSecret(&secret.Entry, cur.ClientID, kept)
	browse := widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		dialogs.OpenFile(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				cert.SetText(r.URI().Path())
				r.Close()
			}
		}, d.win.Window())
	})
	port := dialogs.NewEntry()
	port.SetPlaceHolder("any free port")
	if cur.ReceiverPort != 0 {
		port.SetText(strconv.Itoa(cur.ReceiverPort))
	}
	listenAll := widget.NewCheck("Listen on all network interfaces (the service reaches this computer directly)", nil)
	listenAll.SetChecked(cur.ListenAll)
	checkSource := widget.NewCheck("Accept notifications only from the service (130.250.135.128/25)", nil)
	checkSource.SetChecked(cur.CheckSource)
	every := dialogs.NewEntry()
	every.SetText(strconv.Itoa(int(cur.SyncEvery / time.Minute)))

	notifyURL := widget.NewLabel(cur.NotificationURL())
	notifyURL.Wrapping = fyne.TextWrapWord
	notifyURL.Selectable = true
	read := func() (Live, error) {
		p := 0 // empty: any free port
		if pt := strings.TrimSpace(port.Text); pt != "" {
			n, err := strconv.Atoi(pt)
			if err != nil {
				return Live{}, errors.New("the receiver port must be a number, or empty for any free port")
			}
			p = n
		}
		m, err := strconv.Atoi(strings.TrimSpace(every.Text))
		if err != nil {
			return Live{}, errors.New("the sync interval must be a whole number of minutes")
		}
		s := Live{BaseURL: strings.TrimSpace(base.Text), TokenURL: strings.TrimSpace(token.Text),
			ClientID: strings.TrimSpace(client.Text), CertPath: strings.TrimSpace(cert.Text),
			ReceiverPort: p, ListenAll: listenAll.Checked, CheckSource: checkSource.Checked, SyncEvery: time.Duration(m) * time.Minute}
		return s, s.Validate()
	}
	showURL := func() {
		if n, err := strconv.Atoi(strings.TrimSpace(port.Text)); err == nil || strings.TrimSpace(port.Text) == "" {
			notifyURL.SetText(Live{ReceiverPort: n, ListenAll: listenAll.Checked}.NotificationURL())
		}
	}
	port.OnChanged = func(string) { showURL() }
	listenAll.OnChanged = func(bool) { showURL() }

	checks := newCheckPanel()
	test := widget.NewButtonWithIcon("Test connection", theme.MediaPlayIcon(), nil)
	test.OnTapped = func() {
		s, err := read()
		if err != nil {
			checks.problem(format.Capital(err.Error()), widget.DangerImportance) // a mistake to fix before testing
			return
		}
		if !d.conn.CanTestConnection() {
			checks.problem("Testing is not available here.", widget.MediumImportance)
			return
		}
		checks.start()
		test.Disable()
		typed := secret.Text
		d.win.Background(func() {
			conn := s.Connection(d.secretFor(s.ClientID, typed))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ok := d.conn.TestConnection(ctx, conn, func(c api.Check) { d.win.Do(func() { checks.add(c) }) })
			d.win.Do(func() {
				test.Enable()
				checks.finish(ok)
			})
		})
	}

	form := widget.NewForm(
		widget.NewFormItem("Base URL", base),
		widget.NewFormItem("Token URL", token),
		widget.NewFormItem("Client id", client),
		widget.NewFormItem("Client secret", secret),
		widget.NewFormItem("", kept),
		widget.NewFormItem("Certificate", container.NewBorder(nil, nil, nil, browse, cert)),
		widget.NewFormItem("Receiver port", port),
		widget.NewFormItem("", notifyURL),
		widget.NewFormItem("", listenAll),
		widget.NewFormItem("", checkSource),
		widget.NewFormItem("Sync every (minutes)", every),
	)
	where := "Demo and Live keep separate local data; switching never mixes them."
	body := container.NewBorder(
		container.NewVBox(form, widget.NewLabelWithStyle(where, fyne.TextAlignLeading, fyne.TextStyle{Italic: true}), test),
		nil, nil, nil, checks.content())

	var dlg *dialog.CustomDialog
	saveBtn := dialogs.NewButton("Save", theme.DocumentSaveIcon(), nil)
	liveBtn := dialogs.NewButton("Save and connect", theme.LoginIcon(), nil)
	liveBtn.Importance = widget.HighImportance
	save := func(connect bool) {
		s, err := read()
		if err != nil {
			d.win.ShowError(err)
			return
		}
		typed := secret.Text
		saveBtn.Disable()
		liveBtn.Disable()
		if typed != "" {
			checks.problem("Saving the client secret… If your keyring asks to be unlocked, unlock it.", widget.MediumImportance)
		}
		d.win.Background(func() {
			persistent, why, err := d.storeSecret(s.ClientID, typed)
			d.win.Do(func() {
				saveBtn.Enable()
				liveBtn.Enable()
				if err != nil {
					checks.problem(format.Capital(err.Error()), widget.DangerImportance)
					d.win.ShowError(err)
					return
				}
				s.save(prefs)
				secret.SetText("")
				dlg.Hide()
				// In Live mode a save reconnects too, so that a replaced
				// certificate or address takes effect now, not next start.
				// The new window says, in a banner, when the secret is
				// kept for this session only.
				if (connect || !d.conn.Demo()) && d.conn.CanSwitchMode() {
					d.conn.SwitchMode(true)
				} else if typed != "" && !persistent {
					d.win.Info("Secret kept for this session only",
						why+" The client secret is held in memory until you quit and is never written to a file.")
				}
			})
		})
	}
	saveBtn.OnTapped = func() { save(false) }
	liveBtn.OnTapped = func() { save(true) }
	cancel := dialogs.NewButton("Cancel", nil, func() { dlg.Hide() })
	dlg = dialog.NewCustomWithoutButtons("Live connection", body, d.win.Window())
	dlg.SetButtons([]fyne.CanvasObject{cancel, saveBtn, liveBtn})
	dlg.Resize(fyne.NewSize(680, 640))
	dlg.Show()
}

// describeSavedSecret tells where the secret is kept, as it is: in the
// secret's placeholder for one already saved, and in kept (nil: none) for
// one typed now: the keyring, or this session only and why. The keyring
// is asked in the background; until it answers, kept says what is known.
func (d *Dialogs) describeSavedSecret(secret *widget.Entry, clientID string, kept *widget.Label) {
	if kept != nil {
		kept.SetText(secretPlace(d.conn.Secrets()))
	}
	if d.conn.Secrets() == nil {
		return
	}
	d.win.Background(func() {
		user := clientID
		if user == "" {
			user = "-" // nothing saved yet: the question is only whether the keyring answers
		}
		v, err := d.conn.Secrets().Get(context.Background(), user)
		hint := ""
		if err == nil && v != "" && clientID != "" {
			hint = "saved in the system keyring; type to replace"
			if ok, _ := d.conn.Secrets().Persistent(); !ok {
				hint = "kept for this session only (no keyring); type to replace"
			}
		}
		d.win.Do(func() {
			if hint != "" {
				secret.SetPlaceHolder(hint)
			}
			if kept != nil {
				kept.SetText(secretPlace(d.conn.Secrets()))
			}
		})
	})
}

// secretPlace says where a secret typed now will be kept: the keyring, or
// this session only, and why.
func secretPlace(s SecretStore) string {
	if s == nil {
		return "The secret will be kept for this session only."
	}
	if ok, why := s.Persistent(); !ok {
		return "The secret will be kept for this session only, never in a file. " + why
	}
	return "The secret is kept in this computer's keyring, never in a file."
}

// secretFor is the secret typed, or else the one saved for clientID.
// It may wait on the keyring: call it off the main goroutine.
func (d *Dialogs) secretFor(clientID, typed string) string {
	if typed != "" || d.conn.Secrets() == nil {
		return typed
	}
	v, _ := d.conn.Secrets().Get(context.Background(), clientID)
	return v
}

// storeSecret saves a typed secret, waiting long enough for the person to
// answer a keyring unlock prompt; persistent is false (with why) when the
// keyring could not keep it. It runs off the main goroutine.
func (d *Dialogs) storeSecret(clientID, typed string) (persistent bool, why string, err error) {
	if typed == "" {
		return true, "", nil
	}
	if d.conn.Secrets() == nil {
		return false, "", errors.New("no secret store is available")
	}
	ctx, cancel := context.WithTimeout(context.Background(), storage.PatientTimeout)
	defer cancel()
	if err := d.conn.Secrets().Set(ctx, clientID, typed); err != nil {
		return false, "", fmt.Errorf("saving the client secret: %w", err)
	}
	persistent, why = d.conn.Secrets().Persistent()
	return persistent, why, nil
}

// checkPanel lists Test connection's steps one per row, each with a mark
// a person reads at a glance: passed, warning, failed.
type checkPanel struct {
	rows   *fyne.Container
	scroll *container.Scroll
	passed int
	warned int
	failed int
}

func newCheckPanel() *checkPanel {
	p := &checkPanel{rows: container.NewVBox()}
	p.scroll = container.NewVScroll(p.rows)
	p.scroll.SetMinSize(fyne.NewSize(0, 180))
	return p
}

func (p *checkPanel) content() fyne.CanvasObject { return p.scroll }

func (p *checkPanel) start() {
	p.passed, p.warned, p.failed = 0, 0, 0
	p.rows.RemoveAll()
	p.line(theme.NewThemedResource(theme.ViewRefreshIcon()), "Testing…", widget.MediumImportance)
}

func (p *checkPanel) add(c api.Check) {
	if len(p.rows.Objects) == 1 && p.passed+p.warned+p.failed == 0 {
		p.rows.RemoveAll() // the "Testing…" line
	}
	var icon fyne.Resource = theme.NewSuccessThemedResource(theme.ConfirmIcon())
	imp := widget.MediumImportance
	switch {
	case !c.OK:
		icon, imp = theme.NewErrorThemedResource(theme.ErrorIcon()), widget.DangerImportance
		p.failed++
	case c.Warning:
		icon, imp = theme.NewWarningThemedResource(theme.WarningIcon()), widget.WarningImportance
		p.warned++
	default:
		p.passed++
	}
	p.line(icon, c.Name+": "+c.Detail, imp)
}

func (p *checkPanel) finish(ok bool) {
	switch {
	case !ok:
		p.line(theme.NewErrorThemedResource(theme.ErrorIcon()), fmt.Sprintf("%d of %d checks failed.", p.failed, p.passed+p.warned+p.failed), widget.DangerImportance)
	case p.warned > 0:
		p.line(theme.NewWarningThemedResource(theme.WarningIcon()), "The connection works; read the warning above.", widget.WarningImportance)
	default:
		p.line(theme.NewSuccessThemedResource(theme.ConfirmIcon()), "All checks passed.", widget.SuccessImportance)
	}
}

// problem replaces the list with one message (a typing mistake, saving).
func (p *checkPanel) problem(msg string, imp widget.Importance) {
	p.rows.RemoveAll()
	icon := fyne.Resource(theme.NewThemedResource(theme.InfoIcon()))
	if imp == widget.DangerImportance {
		icon = theme.NewErrorThemedResource(theme.ErrorIcon())
	}
	p.line(icon, msg, imp)
}

func (p *checkPanel) line(icon fyne.Resource, text string, imp widget.Importance) {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Importance = imp
	p.rows.Add(container.NewBorder(nil, nil, container.NewCenter(widget.NewIcon(icon)), nil, l))
	p.scroll.ScrollToBottom()
}
