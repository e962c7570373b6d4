package hub

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
)

// TestEachOfficeMessageNamesItsAuthor: the service signs every message sent
// through its API alike, so in an office every one read "Our team". The
// hub's event of a message posted through it now carries what the person
// wrote, and each desktop's thread names the colleague who wrote a
// message, and the person's own as theirs.
func TestEachOfficeMessageNamesItsAuthor(t *testing.T) {
	o := newOffice(t, sandbox.Options{})
	in := o.start(nil)
	_, anaCreds := o.person(in, "Ana Ruiz")
	_, boCreds := o.person(in, "Bo Chen")
	id := newWorkOrder(t, o)
	ctx := context.Background()
	if err := in.hub.SyncNow(ctx); err != nil {
		t.Fatal(err)
	}
	ana := openOfficeDesktop(t, in.srv.URL, filepath.Join(t.TempDir(), "ana.db"), anaCreds, nil)
	bo := openOfficeDesktop(t, in.srv.URL, filepath.Join(t.TempDir(), "bo.db"), boCreds, nil)
	for _, d := range []*storage.Engine{ana, bo} {
		syncDesktop(t, d)
		waitStream(t, d, storage.StreamConnected)
		if _, err := d.HubPerson(ctx); err != nil {
			t.Fatal(err)
		}
	}
	anaHears, boHears := heard(ana), heard(bo)

	send := func(d *storage.Engine, text string) {
		t.Helper()
		if _, err := d.Store.SendMessage(ctx, id, text, api.VisibilityAll); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Sender.SendReady(ctx); err != nil {
			t.Fatal(err)
		}
	}
	send(ana, "Parts are on the van.")
	waitHeard(t, boHears, id, "MessageSentByContractor", 5*time.Second)
	send(bo, "I'll send Carlos at 05:00.")
	waitHeard(t, anaHears, id, "MessageSentByContractor", 5*time.Second)

	for _, c := range []struct {
		who          string
		d            *storage.Engine
		mine, theirs string
		colleague    string
	}{
		{"Ana", ana, "Parts are on the van.", "I'll send Carlos at 05:00.", "Bo Chen"},
		{"Bo", bo, "I'll send Carlos at 05:00.", "Parts are on the van.", "Ana Ruiz"},
	} {
		if err := c.d.Refresh(ctx, id); err != nil {
			t.Fatal(err)
		}
		thread, err := c.d.Store.Thread(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, m := range thread {
			switch m.Text {
			case c.mine:
				found++
				if !m.Own || m.Row != nil {
					t.Errorf("%s's own message, read from the service, is not theirs: %+v", c.who, m)
				}
			case c.theirs:
				found++
				if m.Own || m.Author != c.colleague {
					t.Errorf("%s sees %q written by %q (own %v), want %s", c.who, m.Text, m.Author, m.Own, c.colleague)
				}
			}
		}
		if found != 2 {
			t.Fatalf("%s's thread holds %d of the two messages: %+v", c.who, found, thread)
		}
	}
}
