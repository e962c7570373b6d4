package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// LiveSettings is the live connection a person configures. The client
// secret is not part of it: it lives only in the OS keyring.
type LiveSettings struct {
	BaseURL      string
	TokenURL     string
	ClientID     string
	CertPath     string
	ReceiverPort int // 0 = any free port
	// ListenAll opens the receiver on every network interface, for a
	// service that reaches this computer directly; otherwise it listens on
	// loopback only, behind a tunnel or reverse proxy on this computer.
	ListenAll   bool
	CheckSource bool
	SyncEvery   time.Duration
}

// DefaultSyncEvery is how often the replica is synced when nothing else is set.
const DefaultSyncEvery = 5 * time.Minute

// Preference keys. They hold no secret: Fyne writes preferences as plain JSON.
const (
	prefBaseURL      = "live.base_url"
	prefTokenURL     = "live.token_url"
	prefClientID     = "live.client_id"
	prefCertPath     = "live.cert_path"
	prefReceiverPort = "live.receiver_port"
	prefListenAll    = "live.listen_all"
	prefCheckSource  = "live.check_source"
	prefSyncEvery    = "live.sync_every_seconds"
)

// LoadLiveSettings reads the live connection from the app preferences.
func LoadLiveSettings(p fyne.Preferences) LiveSettings {
	return LiveSettings{
		BaseURL: p.String(prefBaseURL), TokenURL: p.String(prefTokenURL), ClientID: p.String(prefClientID),
		CertPath: p.String(prefCertPath), ReceiverPort: p.Int(prefReceiverPort),
		ListenAll: p.Bool(prefListenAll), CheckSource: p.Bool(prefCheckSource),
		SyncEvery: time.Duration(p.IntWithFallback(prefSyncEvery, int(DefaultSyncEvery/time.Second))) * time.Second,
	}
}

func (s LiveSettings) save(p fyne.Preferences) {
	p.SetString(prefBaseURL, s.BaseURL)
	p.SetString(prefTokenURL, s.TokenURL)
	p.SetString(prefClientID, s.ClientID)
	p.SetString(prefCertPath, s.CertPath)
	p.SetInt(prefReceiverPort, s.ReceiverPort)
	p.SetBool(prefListenAll, s.ListenAll)
	p.SetBool(prefCheckSource, s.CheckSource)
	p.SetInt(prefSyncEvery, int(s.SyncEvery/time.Second))
}

// Connection is the api view of the settings, with the secret filled in by the caller.
func (s LiveSettings) Connection(secret string) api.Connection {
	return api.Connection{BaseURL: s.BaseURL, TokenURL: s.TokenURL, ClientID: s.ClientID, ClientSecret: secret, CertPath: s.CertPath}
}

// ReceiverAddr is where the notification receiver listens.
func (s LiveSettings) ReceiverAddr() string {
	if s.ListenAll {
		return fmt.Sprintf(":%d", s.ReceiverPort)
	}
	return fmt.Sprintf("127.0.0.1:%d", s.ReceiverPort)
}

// Configured reports whether a live connection can be attempted.
func (s LiveSettings) Configured() bool {
	return s.BaseURL != "" && s.TokenURL != "" && s.ClientID != ""
}

// Validate checks the settings a person typed, in plain words.
func (s LiveSettings) Validate() error {
	for _, u := range []struct{ name, v string }{{"base URL", s.BaseURL}, {"token URL", s.TokenURL}} {
		p, err := url.Parse(u.v)
		if u.v == "" || err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			return fmt.Errorf("the %s must be a full address such as https://am-api.corrigopro.com/Direct/", u.name)
		}
	}
	if strings.TrimSpace(s.ClientID) == "" {
		return errors.New("the client id is required (from the integration tile of the customer's application)")
	}
	if s.CertPath != "" {
		if _, err := os.Stat(s.CertPath); err != nil {
			return fmt.Errorf("the certificate file %s cannot be read", s.CertPath)
		}
	}
	if s.ReceiverPort < 0 || s.ReceiverPort > 65535 {
		return errors.New("the receiver port must be between 1 and 65535, or empty for any free port")
	}
	if s.ListenAll && s.ReceiverPort == 0 {
		return errors.New("to be reached from the network the receiver needs a fixed port: the service is told its address once, in the integration tile")
	}
	if s.CheckSource && !s.ListenAll {
		return errors.New("the source check needs the receiver to listen on all network interfaces: behind a tunnel or proxy on this computer every notification seems to come from this computer itself")
	}
	if s.SyncEvery < 30*time.Second {
		return errors.New("sync at most every 30 seconds")
	}
	return nil
}

// showSettings is the live connection dialog. The secret field is never
// filled back in: a saved secret stays in the keyring.
func (d *Desk) showSettings() {
	prefs := d.app.Preferences()
	cur := LoadLiveSettings(prefs)
	base, token, client, cert := widget.NewEntry(), widget.NewEntry(), widget.NewEntry(), widget.NewEntry()
	base.SetText(cur.BaseURL)
	base.SetPlaceHolder("https://am-api.corrigopro.com/Direct/")
	token.SetText(cur.TokenURL)
	token.SetPlaceHolder("the OAuth Server URL from the integration tile")
	client.SetText(cur.ClientID)
	cert.SetText(cur.CertPath)
	cert.SetPlaceHolder("notification certificate (PEM), optional")
	secret := widget.NewPasswordEntry()
	secret.SetPlaceHolder("client secret")
	if d.deps.Secrets != nil && cur.ClientID != "" {
		if s, err := d.deps.Secrets.Get(context.Background(), cur.ClientID); err == nil && s != "" {
			secret.SetPlaceHolder("saved in the system keyring; type to replace")
		}
	}
	browse := widget.NewButtonWithIcon("", theme.FolderOpenIcon(), func() {
		openFileDialog(func(r fyne.URIReadCloser, err error) {
			if err == nil && r != nil {
				cert.SetText(r.URI().Path())
				r.Close()
			}
		}, d.win)
	})
	port := widget.NewEntry()
	port.SetPlaceHolder("any free port")
	if cur.ReceiverPort != 0 {
		port.SetText(strconv.Itoa(cur.ReceiverPort))
	}
	listenAll := widget.NewCheck("Listen on all network interfaces (the service reaches this computer directly)", nil)
	listenAll.SetChecked(cur.ListenAll)
	checkSource := widget.NewCheck("Accept notifications only from the service (130.250.135.128/25)", nil)
	checkSource.SetChecked(cur.CheckSource)
	every := widget.NewEntry()
	every.SetText(strconv.Itoa(int(cur.SyncEvery / time.Minute)))

	results := widget.NewLabel("")
	results.Wrapping = fyne.TextWrapWord
	read := func() (LiveSettings, error) {
		p := 0 // empty: any free port
		if pt := strings.TrimSpace(port.Text); pt != "" {
			n, err := strconv.Atoi(pt)
			if err != nil {
				return LiveSettings{}, errors.New("the receiver port must be a number, or empty for any free port")
			}
			p = n
		}
		m, err := strconv.Atoi(strings.TrimSpace(every.Text))
		if err != nil {
			return LiveSettings{}, errors.New("the sync interval must be a whole number of minutes")
		}
		s := LiveSettings{BaseURL: strings.TrimSpace(base.Text), TokenURL: strings.TrimSpace(token.Text),
			ClientID: strings.TrimSpace(client.Text), CertPath: strings.TrimSpace(cert.Text),
			ReceiverPort: p, ListenAll: listenAll.Checked, CheckSource: checkSource.Checked, SyncEvery: time.Duration(m) * time.Minute}
		return s, s.Validate()
	}
	secretFor := func(s LiveSettings) string {
		if secret.Text != "" {
			return secret.Text
		}
		if d.deps.Secrets != nil {
			v, _ := d.deps.Secrets.Get(context.Background(), s.ClientID)
			return v
		}
		return ""
	}
	test := widget.NewButtonWithIcon("Test connection", theme.MediaPlayIcon(), nil)
	test.OnTapped = func() {
		s, err := read()
		if err != nil {
			results.Importance = widget.DangerImportance // a mistake to fix before testing
			results.SetText(sentence(err.Error()))
			return
		}
		results.Importance = widget.MediumImportance
		if d.deps.TestConnection == nil {
			results.SetText("Testing is not available here.")
			return
		}
		conn := s.Connection(secretFor(s))
		results.SetText("Testing…")
		test.Disable()
		d.deps.Background(func() {
			var lines []string
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			ok := d.deps.TestConnection(ctx, conn, func(c api.Check) {
				mark := "✔"
				if !c.OK {
					mark = "✘"
				}
				lines = append(lines, fmt.Sprintf("%s %s — %s", mark, c.Name, c.Detail))
				text := strings.Join(lines, "\n")
				d.do(func() { results.SetText(text) })
			})
			d.do(func() {
				test.Enable()
				if ok {
					results.SetText(strings.Join(lines, "\n") + "\n\nAll checks passed.")
				}
			})
		})
	}

	form := widget.NewForm(
		widget.NewFormItem("Base URL", base),
		widget.NewFormItem("Token URL", token),
		widget.NewFormItem("Client id", client),
		widget.NewFormItem("Client secret", secret),
		widget.NewFormItem("Certificate", container.NewBorder(nil, nil, nil, browse, cert)),
		widget.NewFormItem("Receiver port", port),
		widget.NewFormItem("", listenAll),
		widget.NewFormItem("", checkSource),
		widget.NewFormItem("Sync every (minutes)", every),
	)
	where := "Demo and Live keep separate local data; switching never mixes them."
	body := container.NewVBox(form, widget.NewLabelWithStyle(where, fyne.TextAlignLeading, fyne.TextStyle{Italic: true}),
		test, container.NewVScroll(results))

	var dlg *dialog.CustomDialog
	save := func(switchLive bool) {
		s, err := read()
		if err != nil {
			d.showError(err)
			return
		}
		if err := d.saveSettings(s, secret.Text); err != nil {
			d.showError(err)
			return
		}
		secret.SetText("")
		dlg.Hide()
		if switchLive && d.deps.SwitchMode != nil {
			d.deps.SwitchMode(true)
		}
	}
	saveBtn := widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), func() { save(false) })
	liveBtn := widget.NewButtonWithIcon("Save and connect", theme.LoginIcon(), func() { save(true) })
	liveBtn.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { dlg.Hide() })
	dlg = dialog.NewCustomWithoutButtons("Live connection", body, d.win)
	dlg.SetButtons([]fyne.CanvasObject{cancel, saveBtn, liveBtn})
	dlg.Resize(fyne.NewSize(640, 560))
	dlg.Show()
}

// saveSettings stores the settings in the preferences and the secret (when
// typed) in the keyring only. Without a keyring the secret is kept for this
// session and the person is told why.
func (d *Desk) saveSettings(s LiveSettings, secret string) error {
	if secret != "" {
		if d.deps.Secrets == nil {
			return errors.New("no secret store is available")
		}
		if err := d.deps.Secrets.Set(context.Background(), s.ClientID, secret); err != nil {
			return fmt.Errorf("saving the client secret: %w", err)
		}
		if ok, why := d.deps.Secrets.Persistent(); !ok {
			d.info("Secret kept for this session only",
				"The system keyring is not available ("+why+"), so the client secret is held in memory until you quit. It is never written to a file.")
		}
	}
	s.save(d.app.Preferences())
	return nil
}
