package hub

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/hub/pgtest"
	"github.com/workorderdesk/workdesk/migrate"
)

// Opening an empty database migrates it; opening it again (a second
// instance, a restart) applies no migration twice and leaves the schema
// at the newest version.
func TestMigrationsApplyOnce(t *testing.T) {
	t.Parallel()
	url := pgtest.Require(t, cluster) // empty: not the migrated template's copy
	first, err := OpenDB(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	again, err := OpenDB(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	v, err := again.SchemaVersion(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := migrate.Read(migrationFiles)
	if v != ms[len(ms)-1].Version {
		t.Fatalf("schema version %d, want %d", v, ms[len(ms)-1].Version)
	}
}

func searchStatus(t *testing.T, in *instance, tok string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, in.srv.URL+"/api/workOrder/search", strings.NewReader(`{"Parameters":{}}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func tokenStatus(t *testing.T, in *instance, id, secret string) int {
	t.Helper()
	resp, err := http.PostForm(in.srv.URL+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A person signs in with the credentials `hub user add` printed; a wrong
// secret gets 401; disabling the person ends their token at once.
func TestSecuritySignInAndDisable(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	a := o.start(nil)
	ana, creds := o.person(a, "Ana Ruiz")
	if got := tokenStatus(t, a, creds.ClientId, creds.ClientSecret+"x"); got != http.StatusUnauthorized {
		t.Fatalf("wrong secret: HTTP %d, want 401", got)
	}
	if got := tokenStatus(t, a, "hub-unknown", creds.ClientSecret); got != http.StatusUnauthorized {
		t.Fatalf("unknown id: HTTP %d, want 401", got)
	}
	ctx := context.Background()
	if _, err := ana.SearchWorkOrders(ctx, api.SearchParameters{}); err != nil {
		t.Fatalf("signed-in search: %v", err)
	}
	people, err := o.db.People(ctx)
	if err != nil || len(people) != 1 || people[0].Name != "Ana Ruiz" || people[0].Disabled {
		t.Fatalf("people = %+v, %v", people, err)
	}
	if _, err := o.db.AddPerson(ctx, "Ana Ruiz"); err == nil || !strings.Contains(err.Error(), "already") {
		t.Fatalf("a second Ana Ruiz: %v", err)
	}
	held := token(t, a, creds)
	if got := searchStatus(t, a, held); got != http.StatusOK {
		t.Fatalf("search with a fresh token: HTTP %d", got)
	}
	if _, err := o.db.DisablePerson(ctx, "Ana Ruiz"); err != nil {
		t.Fatal(err)
	}
	// A token handed out before is refused at once, and so is the desktop's
	// attempt to get a new one.
	if got := searchStatus(t, a, held); got != http.StatusUnauthorized {
		t.Fatalf("search with the disabled person's token: HTTP %d, want 401", got)
	}
	_, err = ana.SearchWorkOrders(ctx, api.SearchParameters{})
	if !errors.Is(err, api.ErrCredentialsRejected) {
		t.Fatalf("desktop search after disabling: %v, want its credentials rejected", err)
	}
	if got := tokenStatus(t, a, creds.ClientId, creds.ClientSecret); got != http.StatusUnauthorized {
		t.Fatalf("disabled person's sign-in: HTTP %d, want 401", got)
	}
	if _, err := o.db.DisablePerson(ctx, "Nobody"); err == nil {
		t.Fatal("disabling an unknown person succeeded")
	}
}

// Each sign-in costs the hub a slow hash check: one client id guessing
// secrets from an address is answered 429 with Retry-After once it has
// used its 10 there, and may try again when Retry-After has passed; a
// flood of made-up ids is once the address's 60 at once are spent; a
// colleague still signs in beside the guesses. The limits' clock is
// stopped, so how fast the machine checks secrets does not matter.
func TestSecuritySignInsAreRateLimited(t *testing.T) {
	t.Parallel()
	o := newOffice(t, sandbox.Options{})
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	a := o.start(func(opts *Options) { opts.Now = func() time.Time { return time.Unix(0, clock.Load()) } })
	_, ana := o.person(a, "Ana Ruiz")
	_, bo := o.person(a, "Bo Chen")
	signIn := func(id, secret string) (int, string) {
		t.Helper()
		resp, err := http.PostForm(a.srv.URL+"/oauth/token", url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}})
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Retry-After")
	}
	// limited is how many sign-ins are checked before one is refused, and
	// the refusal's Retry-After.
	limited := func(tries int, id func(int) string) (int, time.Duration) {
		t.Helper()
		for i := range tries {
			status, retry := signIn(id(i), "guess")
			switch status {
			case http.StatusUnauthorized:
			case http.StatusTooManyRequests:
				n, err := strconv.Atoi(retry)
				if err != nil || n < 1 {
					t.Fatalf("429 with Retry-After %q", retry)
				}
				return i, time.Duration(n) * time.Second
			default:
				t.Fatalf("sign-in %d: HTTP %d", i, status)
			}
		}
		t.Fatalf("%d sign-ins in a row were all checked", tries)
		return 0, 0
	}
	guess := func(int) string { return ana.ClientId }
	if n, _ := limited(100, guess); n != signInsPerClient {
		t.Fatalf("one client id: limited after %d sign-ins, want %d", n, signInsPerClient)
	}
	if status, _ := signIn(bo.ClientId, bo.ClientSecret); status != http.StatusOK {
		t.Fatalf("a colleague's sign-in beside the guesses: HTTP %d", status)
	}
	// What is left of the address's burst after Ana's guesses and Bo.
	if n, _ := limited(500, func(i int) string { return "hub-made-up-" + strconv.Itoa(i) }); n != signInsPerAddr-signInsPerClient-1 {
		t.Fatalf("made-up client ids: limited after %d sign-ins, want %d", n, signInsPerAddr-signInsPerClient-1)
	}
	_, retry := limited(1, guess)
	clock.Add(int64(retry))
	if n, _ := limited(100, guess); n != 1 {
		t.Fatalf("once Retry-After (%v) had passed, %d of Ana's sign-ins were checked, want 1", retry, n)
	}
}
