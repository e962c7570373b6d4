package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
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

// officeCredentials are the person's client id and secret: from
// WORKDESK_CLIENT_ID / WORKDESK_CLIENT_SECRET, else the saved client id and
// its secret in the keyring.
func (s *session) officeCredentials(ctx context.Context) (id, secret string, err error) {
	if id, secret = os.Getenv("WORKDESK_CLIENT_ID"), os.Getenv("WORKDESK_CLIENT_SECRET"); id != "" && secret != "" {
		return id, secret, nil
	}
	id = ui.LoadOfficeSettings(s.app.Preferences()).ClientID
	if id == "" {
		return "", "", fmt.Errorf("office mode needs your client id and secret: set WORKDESK_CLIENT_ID and WORKDESK_CLIENT_SECRET, or use File › Connect to office hub…")
	}
	if secret, err = s.secrets.Get(ctx, id); err != nil || secret == "" {
		return "", "", fmt.Errorf("the client secret for %s is not saved on this computer: use File › Connect to office hub…", id)
	}
	return id, secret, nil
}

// startOffice opens office mode: the desktop's client, sync and outbox go
// to the hub with the person's own credentials, and events come from the
// hub's stream. No receiver runs and no service secret is on the desktop.
func startOffice(ctx context.Context, dataDir, hubURL, clientID, secret string) (*backend, error) {
	if err := ui.CheckHubURL(hubURL); err != nil {
		return nil, err
	}
	hubURL = strings.TrimRight(strings.TrimSpace(hubURL), "/")
	path, err := replicaPath(dataDir, storage.OfficeProfile(hubURL, clientID))
	if err != nil {
		return nil, err
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{Hub: true, Connection: api.Connection{
		BaseURL: hubURL + "/", TokenURL: hubURL + "/oauth/token", ClientID: clientID, ClientSecret: secret}})
	if err != nil {
		return nil, err
	}
	b := &backend{Engine: eng, person: &officePerson{}}
	eng.Service = hubURL
	go func() {
		// On failure HubPerson returns the name kept from last time.
		name, _ := eng.HubPerson(context.Background())
		b.person.set(name)
	}()
	return b, nil
}

// connectOffice saves what File › Connect to office hub… was given and
// opens office mode behind a new window.
func (s *session) connectOffice(o ui.OfficeSettings, secret string) error {
	if err := s.secrets.Set(context.Background(), o.ClientID, secret); err != nil {
		return fmt.Errorf("keeping the secret in the keyring: %w", err)
	}
	o.Save(s.app.Preferences())
	s.flags.hub = o.HubURL
	return s.launch(true)
}
