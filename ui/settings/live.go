package settings

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
)

// Live is the live connection a person configures. The client
// secret is not part of it: it lives only in the OS keyring.
type Live struct {
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

// LoadLive reads the live connection from the app preferences.
func LoadLive(p fyne.Preferences) Live {
	return Live{
		BaseURL: p.String(prefBaseURL), TokenURL: p.String(prefTokenURL), ClientID: p.String(prefClientID),
		CertPath: p.String(prefCertPath), ReceiverPort: p.Int(prefReceiverPort),
		ListenAll: p.Bool(prefListenAll), CheckSource: p.Bool(prefCheckSource),
		SyncEvery: time.Duration(p.IntWithFallback(prefSyncEvery, int(DefaultSyncEvery/time.Second))) * time.Second,
	}
}

func (s Live) save(p fyne.Preferences) {
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
func (s Live) Connection(secret string) api.Connection {
	return api.Connection{BaseURL: s.BaseURL, TokenURL: s.TokenURL, ClientID: s.ClientID, ClientSecret: secret, CertPath: s.CertPath}
}

// ReceiverAddr is where the notification receiver listens.
func (s Live) ReceiverAddr() string {
	if s.ListenAll {
		return fmt.Sprintf(":%d", s.ReceiverPort)
	}
	return fmt.Sprintf("127.0.0.1:%d", s.ReceiverPort)
}

// Configured reports whether a live connection can be attempted.
func (s Live) Configured() bool {
	return s.BaseURL != "" && s.TokenURL != "" && s.ClientID != ""
}

// Validate checks the settings a person typed, in plain words.
func (s Live) Validate() error {
	for _, u := range []struct{ name, v string }{{"base URL", s.BaseURL}, {"token URL", s.TokenURL}} {
		p, err := url.Parse(u.v)
		if u.v == "" || err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			return fmt.Errorf("the %s must be a full address such as https://api.example.com/Direct/", u.name)
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

// NotificationURL says where the receiver these settings describe takes
// notifications, and what to give the customer's integration tile.
func (s Live) NotificationURL() string {
	switch {
	case s.ReceiverPort == 0:
		return "With any free port the receiver's address changes at every start: set a fixed port to give the customer a notification URL."
	case s.ListenAll:
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "this-computer"
		}
		return fmt.Sprintf("Give the customer: http://%s:%d/notify (or the HTTPS address of a proxy that forwards to it).", host, s.ReceiverPort)
	}
	return fmt.Sprintf("Notifications arrive at http://127.0.0.1:%d/notify on this computer. Give the customer the HTTPS address of your tunnel or proxy that forwards to it, ending in /notify.", s.ReceiverPort)
}
