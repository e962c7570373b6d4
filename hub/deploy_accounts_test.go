package hub

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api/sandbox"
)

// callMe is GET /api/hub/me at url with a bearer token: its status.
func callMe(t *testing.T, url, tok string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"/api/hub/me", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// streamEnds waits until the event stream ch ends, failing after 10 s.
func streamEnds(t *testing.T, ch <-chan sseEvent, whose string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-deadline:
			t.Fatalf("%s event stream still open 10 s later", whose)
		}
	}
}

// `user reset` gives Ana a new secret: at once her old secret signs in no
// more, her token is refused, and her event stream ends, on an instance
// other than the one where the secret changed; the new secret works, and
// Bo's stream goes on.
func TestResetEndsTheOldSecretsSessionsAndStreams(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a, b := o.start(nil), o.start(nil)
	ctx := context.Background()
	ana, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	_, bo := o.person(b, "Bo Chen")
	old := token(t, a, ana)
	anaStream := openStream(t, b, ana, "")
	boStream := openStream(t, b, bo, "")
	waitFor(t, 10*time.Second, "both streams on instance B", func() bool { return b.hub.streams.open() == 2 })

	p, fresh, err := a.db.ResetSecret(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Ana Ruiz" || fresh.ClientId != ana.ClientId || fresh.ClientSecret == "" || fresh.ClientSecret == ana.ClientSecret {
		t.Fatalf("reset gave %+v for %+v", fresh, p)
	}
	streamEnds(t, anaStream, "Ana's")
	if got := callMe(t, a.srv.URL, old); got != http.StatusUnauthorized {
		t.Errorf("Ana's token from before the reset: HTTP %d, want 401", got)
	}
	if got := signInFrom(t, http.DefaultClient, b.srv.URL, ana.ClientId, ana.ClientSecret); got != http.StatusUnauthorized {
		t.Errorf("a sign-in with Ana's old secret: HTTP %d, want 401", got)
	}
	if got := callMe(t, b.srv.URL, token(t, b, fresh)); got != http.StatusOK {
		t.Errorf("Ana's new secret: HTTP %d", got)
	}
	postNotificationAt(t, o, a.srv.URL, newWorkOrder(t, o))
	waitEvent(t, boStream, func(HubEvent, sseEvent) bool { return true })
}

// A disabled account enabled again signs in with its secret; the tokens it
// held before it was disabled stay refused.
func TestEnabledAccountSignsInAgainButNotWithItsOldTokens(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ctx := context.Background()
	_, ana := o.person(a, "Ana Ruiz")
	old := token(t, a, ana)
	if _, err := o.db.DisablePerson(ctx, ana.ClientId); err != nil {
		t.Fatal(err)
	}
	if got := signInFrom(t, http.DefaultClient, a.srv.URL, ana.ClientId, ana.ClientSecret); got != http.StatusUnauthorized {
		t.Fatalf("a disabled account's sign-in: HTTP %d, want 401", got)
	}
	p, err := o.db.EnablePerson(ctx, "Ana Ruiz")
	if err != nil || p.Disabled {
		t.Fatalf("enable: %+v, %v", p, err)
	}
	if got := callMe(t, a.srv.URL, old); got != http.StatusUnauthorized {
		t.Errorf("a token from before the account was disabled, after enabling it: HTTP %d, want 401", got)
	}
	if got := callMe(t, a.srv.URL, token(t, a, ana)); got != http.StatusOK {
		t.Errorf("signed in again with the same secret: HTTP %d", got)
	}
}

// An account is named by its name, client id or number; one that two
// accounts answer to (a number that is also a name) is refused, not
// guessed, and no account changes.
func TestResetRefusesANameTwoAccountsAnswerTo(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	ctx := context.Background()
	first, err := o.db.AddPerson(ctx, "Ana Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	people, _ := o.db.People(ctx)
	number := people[0].Id
	if _, err := o.db.AddPerson(ctx, strconv.FormatInt(number, 10)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.db.ResetSecret(ctx, strconv.FormatInt(number, 10)); err == nil {
		t.Fatal("reset of a name that is also another account's number went ahead")
	}
	if _, err := o.db.IssueToken(ctx, first.ClientId, first.ClientSecret); err != nil {
		t.Fatalf("Ana's secret after the refused reset: %v", err)
	}
	if _, _, err := o.db.ResetSecret(ctx, "nobody"); err == nil {
		t.Fatal("reset of an unknown person went ahead")
	}
}
