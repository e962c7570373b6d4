package settings

import (
	"strings"
	"testing"
)

// The service's notifications come from 130.250.135.128/25; the receiver can
// only see that address when it listens on the network itself.
func TestReceiverAddressFollowsTheSettings(t *testing.T) {
	for _, c := range []struct {
		s    Live
		want string
	}{
		{Live{ReceiverPort: 8443}, "127.0.0.1:8443"},
		{Live{ReceiverPort: 8443, ListenAll: true, CheckSource: true}, ":8443"},
	} {
		if got := c.s.ReceiverAddr(); got != c.want {
			t.Errorf("ReceiverAddr(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestSettingsRefuseBadInput(t *testing.T) {
	for _, c := range []struct {
		s    Live
		want string
	}{
		{Live{BaseURL: "am-api.corrigopro.com", TokenURL: "https://o/t", ClientID: "x", SyncEvery: DefaultSyncEvery}, "full address"},
		{Live{BaseURL: "https://a/", TokenURL: "https://o/t", SyncEvery: DefaultSyncEvery}, "client id is required"},
		{Live{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", SyncEvery: 5}, "30 seconds"},
		{Live{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", CertPath: "/no/such.pem", SyncEvery: DefaultSyncEvery}, "cannot be read"},
		{Live{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", CheckSource: true, ReceiverPort: 8443, SyncEvery: DefaultSyncEvery}, "listen on all network interfaces"},
		{Live{BaseURL: "https://a/", TokenURL: "https://o/t", ClientID: "x", ListenAll: true, SyncEvery: DefaultSyncEvery}, "fixed port"},
	} {
		err := c.s.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Validate(%+v) = %v, want a message containing %q", c.s, err, c.want)
		}
	}
}

// TestTheNotificationURLIsTheOneToGiveTheCustomer: the dialog names the
// whole URL with its path, not host:port.
func TestTheNotificationURLIsTheOneToGiveTheCustomer(t *testing.T) {
	for _, c := range []struct {
		s    Live
		want string
	}{
		{Live{ReceiverPort: 8090}, "http://127.0.0.1:8090/notify"},
		{Live{ReceiverPort: 8443, ListenAll: true}, ":8443/notify"},
		{Live{}, "set a fixed port"},
	} {
		if got := c.s.NotificationURL(); !strings.Contains(got, c.want) {
			t.Errorf("%+v: %q, want it to name %q", c.s, got, c.want)
		}
	}
}
