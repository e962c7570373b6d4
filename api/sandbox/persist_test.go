package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/workorderdesk/workdesk/api"
)

// TestDemoWorldSurvivesARestart: with a state file, what a person did in
// the demo (an accept, a message, an attachment) is there after the
// sandbox is closed and started again; without the file the world starts over.
func TestDemoWorldSurvivesARestart(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "demo-world.json")
	withState := func(o *Options) { o.StateFile = state }
	e := newEnv(t, withState)
	if e.sb.Restored() {
		t.Fatal("a first start claims to have restored a demo")
	}
	id := e.setup("Northwind Retail", api.StatusNew, nil)
	if err := e.client.Accept(e.ctx, &api.AcceptRequest{WorkOrderId: id}); err != nil {
		t.Fatal(err)
	}
	if err := e.client.SendMessage(e.ctx, &api.MessageRequest{WorkOrderId: id, Text: "On our way", MessageVisibility: api.VisibilityAll}); err != nil {
		t.Fatal(err)
	}
	content := []byte("photo bytes")
	att, err := e.client.UploadAttachment(e.ctx, id, api.Upload{Name: "site.jpg", MimeType: "image/jpeg", Size: int64(len(content)), Content: bytes.NewReader(content)})
	if err != nil {
		t.Fatal(err)
	}
	e.srv.Close()
	e.sb.Close() // writes what changed since the last save
	if _, err := os.Stat(state); err != nil {
		t.Fatalf("no state file after Close: %v", err)
	}

	again := newEnv(t, withState)
	if !again.sb.Restored() {
		t.Fatal("the second start did not restore the demo")
	}
	if got := again.read(id); got.Status != api.StatusAccepted {
		t.Fatalf("after a restart the accepted work order is %s", got.Status)
	}
	msgs, err := again.client.ListMessages(again.ctx, id)
	if err != nil || len(msgs) == 0 || msgs[len(msgs)-1].Text != "On our way" {
		t.Fatalf("after a restart the messages are %+v (%v)", msgs, err)
	}
	link, err := again.client.AttachmentDownloadURL(again.ctx, id, att.AttachmentId)
	if err != nil {
		t.Fatalf("the attachment is gone after a restart: %v", err)
	}
	var got bytes.Buffer
	if err := again.client.Download(again.ctx, link, &got, nil); err != nil || !bytes.Equal(got.Bytes(), content) {
		t.Fatalf("the attachment downloads as %q (%v)", got.Bytes(), err)
	}

	fresh := newEnv(t)
	if fresh.sb.Restored() {
		t.Fatal("a sandbox without the state file claims to have restored a demo")
	}
	if msgs, err := fresh.client.ListMessages(fresh.ctx, id); err != nil {
		t.Fatal(err)
	} else {
		for _, m := range msgs {
			if m.Text == "On our way" {
				t.Fatal("a sandbox without the state file has the old demo's message")
			}
		}
	}
}
