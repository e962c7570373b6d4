package hub

import (
	"context"
	"strings"
	"testing"
)

// A database URL the hub cannot use is refused in words that say why,
// never quoting its password: a missing CA file is named; anything else
// gets the URL's expected shape.
func TestOpenDBRefusesAnUnusableURLWithoutItsPassword(t *testing.T) {
	for _, tc := range []struct{ url, says string }{
		{"postgres://hub:SEKRIT@db.example/workdesk?sslmode=verify-full&sslrootcert=/no/such/ca.pem", "/no/such/ca.pem"},
		{"postgres://hub:SEKRIT@db.example/workdesk?sslmode=very-secure", "sslmode is disable, allow, prefer"},
		{"postgres://hub:SEKRIT@db.example:port/workdesk", "expected postgres://"},
	} {
		_, err := OpenDB(context.Background(), tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.says) || strings.Contains(err.Error(), "SEKRIT") {
			t.Errorf("OpenDB(%q): %v; want an error saying %q without the password", tc.url, err, tc.says)
		}
	}
}
