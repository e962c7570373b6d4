package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// officePerson is the person's name as the hub tells it, for the status
// bar; asked once in the background, since the hub may be unreachable.
type officePerson struct {
	mu   sync.Mutex
	name string
}

func (p *officePerson) get() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.name
}

func (p *officePerson) set(n string) {
	p.mu.Lock()
	p.name = n
	p.mu.Unlock()
}

// errNoOfficeLogin: office mode was asked for (--hub) with no client id
// anywhere: the window opens asking for it.
var errNoOfficeLogin = errors.New("office mode needs your client id and secret: set WORKDESK_CLIENT_ID and WORKDESK_CLIENT_SECRET, or use File › Connect to office hub…")

// officeCredentials are the person's client id and secret: those just
// given to File › Connect to office hub…, else WORKDESK_CLIENT_ID /
// WORKDESK_CLIENT_SECRET, else the saved client id and its secret in the
// keyring. A saved client id without its secret is a *missingSecret;
// no client id at all is errNoOfficeLogin.
func (s *session) officeCredentials(ctx context.Context) (id, secret string, fromEnv bool, err error) {
	if s.officeGiven.id != "" && s.officeGiven.secret != "" {
		return s.officeGiven.id, s.officeGiven.secret, false, nil
	}
	if id, secret = os.Getenv("WORKDESK_CLIENT_ID"), os.Getenv("WORKDESK_CLIENT_SECRET"); id != "" && secret != "" {
		return id, secret, true, nil
	}
	id = settings.LoadOffice(s.app.Preferences()).ClientID
	if id == "" {
		return "", "", false, errNoOfficeLogin
	}
	if secret, err = s.secrets.Get(ctx, id); err != nil || secret == "" {
		return id, "", false, &missingSecret{clientID: id, cause: err}
	}
	return id, secret, false, nil
}

// openOffice opens office mode on hubURL. Without the person's secret it
// opens their office replica as last synced, with notice saying how to
// connect and err the *missingSecret (never the demo without a word, as for
// Live); without even a client id it opens an empty office window and
// askOffice is the hub to ask the person's client id and secret for.
func (s *session) openOffice(ctx context.Context, hubURL string) (b *backend, notice, askOffice string, err error) {
	id, secret, fromEnv, err := s.officeCredentials(ctx)
	var missing *missingSecret
	switch {
	case errors.Is(err, errNoOfficeLogin):
		if err := storage.CheckHubURL(hubURL, true); err != nil { // its form: the dialog asks about encryption
			return nil, "", "", err
		}
		notice = "Not connected: to work on the office hub at " + hubURL + ", enter the client id and secret the office gave you (File › Connect to office hub…)."
		b, err = openOfficeReplica(ctx, s.flags.dataDir, hubURL, "")
		if err != nil {
			return nil, "", "", err
		}
		return b, notice, hubURL, nil
	case errors.As(err, &missing):
		notice = missing.notice("Connect to office hub…", "the office's work orders")
		b, err = openOfficeReplica(ctx, s.flags.dataDir, hubURL, id)
		if err == nil {
			err = missing
		}
	case err == nil:
		b, err = startOffice(ctx, s.flags.dataDir, hubURL, id, secret, s.hubTLS(hubURL))
		if !fromEnv {
			notice = s.sessionOnly()
		}
	}
	if b == nil {
		return nil, "", "", err
	}
	// The next start opens the saved office again; a one-off --hub with
	// credentials from the environment leaves the settings as they were.
	if saved := settings.LoadOffice(s.app.Preferences()); saved.HubURL == strings.TrimRight(strings.TrimSpace(hubURL), "/") {
		settings.SetOfficeInUse(s.app.Preferences(), true)
	}
	return b, notice, "", err
}

// hubTLS is how the window reaches the hub at hubURL: the office's CA
// (--hub-ca, else the one saved in Connect to office hub…), and whether the
// person allowed an unencrypted connection to that address.
type hubTLS struct {
	caFile           string
	allowUnencrypted bool
}

func (s *session) hubTLS(hubURL string) hubTLS {
	saved := settings.LoadOffice(s.app.Preferences())
	t := hubTLS{caFile: saved.CAFile, allowUnencrypted: saved.AllowUnencrypted && saved.HubURL == strings.TrimRight(strings.TrimSpace(hubURL), "/")}
	if s.flags.hubCA != "" {
		t.caFile = s.flags.hubCA
	}
	return t
}

// officeReplica checks the hub's address and names the person's office
// replica there (one per hub and client id, apart from Demo's and Live's).
func officeReplica(dataDir, hubURL, clientID string) (hub, path string, err error) {
	// The replica is named whatever the address; connecting to it is
	// refused over http:// across the network unless allowed (startOffice).
	if err := storage.CheckHubURL(hubURL, true); err != nil {
		return "", "", err
	}
	hub = strings.TrimRight(strings.TrimSpace(hubURL), "/")
	path, err = replicaPath(dataDir, storage.OfficeProfile(hub, clientID))
	return hub, path, err
}

// startOffice opens office mode: the desktop's client, sync and outbox go
// to the hub with the person's own credentials, and events come from the
// hub's stream. No receiver runs and no service secret is on the desktop.
func startOffice(ctx context.Context, dataDir, hubURL, clientID, secret string, tls hubTLS) (*backend, error) {
	hubURL, path, err := officeReplica(dataDir, hubURL, clientID)
	if err != nil {
		return nil, err
	}
	if err := storage.CheckHubURL(hubURL, tls.allowUnencrypted); err != nil {
		return nil, err
	}
	hc, err := storage.HubHTTPClient(tls.caFile)
	if err != nil {
		return nil, err
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{Hub: true, AllowUnencrypted: tls.allowUnencrypted, HTTPClient: hc,
		Connection: api.Connection{BaseURL: hubURL + "/", TokenURL: hubURL + "/oauth/token", ClientID: clientID, ClientSecret: secret}})
	if err != nil {
		return nil, err
	}
	b := &backend{Engine: eng, person: &officePerson{}}
	eng.Service = hubURL
	b.person.set(eng.KeptHubPerson(ctx)) // until the hub answers
	go func() {
		// On failure HubPerson returns the name kept from last time.
		name, _ := eng.HubPerson(context.Background())
		b.person.set(name)
	}()
	return b, nil
}

// openOfficeReplica opens the person's office replica without connecting:
// their work orders as last synced, while the secret is missing.
func openOfficeReplica(ctx context.Context, dataDir, hubURL, clientID string) (*backend, error) {
	hubURL, path, err := officeReplica(dataDir, hubURL, clientID)
	if err != nil {
		return nil, err
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{})
	if err != nil {
		return nil, err
	}
	eng.Service = hubURL
	b := &backend{Engine: eng, person: &officePerson{}}
	b.person.set(eng.KeptHubPerson(ctx)) // with no hub to ask, the name from the last connection
	return b, nil
}

// connectOffice opens office mode behind a new window with what File ›
// Connect to office hub… was given (the window already keeps the secret in
// the keyring, off the main goroutine), and saves the hub and client id.
func (s *session) connectOffice(o settings.Office, secret string) error {
	prefs := s.app.Preferences()
	prev, prevHub, prevSaved := s.officeGiven, s.flags.hub, settings.LoadOffice(prefs)
	s.officeGiven.id, s.officeGiven.secret = o.ClientID, secret
	s.flags.hub = o.HubURL
	o.Save(prefs)
	if err := s.launch(true); err != nil {
		s.officeGiven, s.flags.hub = prev, prevHub
		prevSaved.Save(prefs)
		return err
	}
	return nil
}
