package storage

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// settingLastEventID is the id of the newest hub event applied, so a
// restarted desktop resumes the stream where it left off.
const settingLastEventID = "hub.last_event_id"

// Stream states, as the status bar says them.
const (
	StreamOff          = "off"
	StreamConnecting   = "connecting"
	StreamConnected    = "connected"
	StreamReconnecting = "reconnecting"
	// StreamRefused: the hub refused the person's sign-in (account
	// disabled, secret changed); the stream keeps trying, slowly.
	StreamRefused = "refused"
)

// errSignInRefused: the hub answered 401 to a fresh token, or refused to
// issue one.
var errSignInRefused = errors.New("hub event stream: the hub refused the sign-in")

// hubEventData is what a hub event carries besides the service's
// envelope: who acted through the hub, and the message they wrote.
type hubEventData struct {
	PerformedBy *api.Sender `json:"PerformedBy"`
	Message     *struct {
		Text string `json:"Text"`
	} `json:"Message"`
}

// EventMessage is the text of the message the hub's event of a message
// posted through it says the person wrote (false for any other event).
func EventMessage(ev api.Event) (string, bool) {
	var d hubEventData
	if len(ev.Raw) == 0 || json.Unmarshal(ev.Raw, &d) != nil || d.Message == nil || d.PerformedBy == nil {
		return "", false
	}
	return d.Message.Text, true
}

// EventPerformer names the person who acted through the office hub, as
// the hub's event says (PerformedBy beside the envelope); "" for the
// service's own notifications.
func EventPerformer(ev api.Event) string {
	var d hubEventData
	if len(ev.Raw) > 0 && json.Unmarshal(ev.Raw, &d) == nil && d.PerformedBy != nil {
		return d.PerformedBy.Name
	}
	return ""
}

// hubWrite reports an event the office hub made of a colleague's write it
// forwarded: an action of the hub's own naming from the action table
// ("AcceptedByContractor", ...), never one of the service's notifications,
// or one that names who acted through the hub.
func hubWrite(ev api.Event) bool {
	if _, ours := outbox.ColleagueWording(ev.Header.Action); ours {
		return true
	}
	return EventPerformer(ev) != ""
}

// parseEvent decodes an event as a notification, received directly or
// from the office hub. The hub passes on none of a notification's body,
// only the facts the body alone carries, labelled under "Notification"
// (hub.HubEvent documents the shape): those fill the typed body, so the
// event reads the same in Activity and InvoiceNotice whichever way it
// came. Facts that do not decode are left out: they are words to show,
// and the event (its re-read) is applied without them.
func parseEvent(raw []byte) (api.Event, error) {
	ev, err := api.ParseEvent(raw)
	if err != nil || ev.Body == nil {
		return ev, err
	}
	var hub struct {
		Notification json.RawMessage `json:"Notification"`
	}
	if json.Unmarshal(raw, &hub) == nil && len(hub.Notification) > 0 && hub.Notification[0] == '{' {
		if body := api.NewEventBody(ev.Header.Action); json.Unmarshal(hub.Notification, body) == nil {
			ev.Body = body
		}
	}
	return ev, nil
}

// StreamStatus is the event stream's state (StreamOff when the engine does
// not talk to a hub).
func (e *Engine) StreamStatus() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.stream == "" {
		return StreamOff
	}
	return e.stream
}

func (e *Engine) setStream(state string) {
	e.mu.Lock()
	e.stream = state
	e.mu.Unlock()
}

// maxStreamWait caps the stream's back-off: the hub may come back while the
// desktop makes no other call, and a colleague's updates must not wait
// minutes for the stream to try again.
const maxStreamWait = 30 * time.Second

// runStream holds the hub's event stream until ctx ends, reconnecting with
// Last-Event-ID after a drop and backing off while the hub is unreachable
// (at most maxStreamWait), and at once when wake says a call to the hub
// was answered again.
func (e *Engine) runStream(ctx context.Context, url string, hc *http.Client, backoff func(int) time.Duration, wake <-chan struct{}) {
	attempt := 0
	for ctx.Err() == nil {
		got, err := e.streamOnce(ctx, url, hc)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errSignInRefused) {
			e.setStream(StreamRefused)
		} else {
			e.setStream(StreamReconnecting)
		}
		if got {
			attempt = 0
		}
		attempt++
		e.Store.log.Info("hub event stream dropped; reconnecting", "err", err)
		t := time.NewTimer(min(backoff(attempt), maxStreamWait))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		case <-wake:
			t.Stop()
		}
	}
}

// wakeWhenHeardAgain signals wake when the hub answers again after a
// silence: the outbox's calls may reach it before the stream's next try.
func (e *Engine) wakeWhenHeardAgain(wake chan<- struct{}) func() {
	var mu sync.Mutex
	silent := false
	return func() {
		mu.Lock()
		defer mu.Unlock()
		now := e.answers.Silent() != nil
		if silent && !now {
			select {
			case wake <- struct{}{}:
			default:
			}
		}
		silent = now
	}
}

// streamOnce reads one connection of the stream; connected reports whether
// the hub answered it, so the back-off starts over.
func (e *Engine) streamOnce(ctx context.Context, url string, hc *http.Client) (connected bool, err error) {
	resp, err := e.openStream(ctx, url, hc)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	e.setStream(StreamConnected)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 8<<20)
	var id string
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(data) > 0 {
				if err := e.applyStreamEvent(ctx, id, strings.Join(data, "\n")); err != nil {
					return true, err
				}
			}
			id, data = "", nil
		case strings.HasPrefix(line, ":"):
			// A comment: the hub's greeting or heartbeat.
		case strings.HasPrefix(line, "id:"):
			id = strings.TrimSpace(line[3:])
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(line[5:], " "))
		}
	}
	if err := sc.Err(); err != nil {
		return true, fmt.Errorf("hub event stream: %w", err)
	}
	return true, errors.New("hub event stream ended")
}

// openStream asks for the stream with the cached token. A 401 may only
// mean the hub forgot the token before its time (its tokens were cleared, a
// new instance): the token is fetched again, once; a second refusal, or a
// refusal to issue one, is errSignInRefused.
func (e *Engine) openStream(ctx context.Context, url string, hc *http.Client) (*http.Response, error) {
	for try := 0; ; try++ {
		tok, err := e.Tokens.Token(ctx)
		if errors.Is(err, api.ErrCredentialsRejected) {
			return nil, fmt.Errorf("%w: %w", errSignInRefused, err)
		}
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "text/event-stream")
		if last, ok, _ := e.Store.Setting(ctx, settingLastEventID); ok && last != "" {
			req.Header.Set("Last-Event-ID", last)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return nil, fmt.Errorf("hub event stream: %w", err)
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			return resp, nil
		case resp.StatusCode == http.StatusUnauthorized && try == 0:
			resp.Body.Close()
			e.Tokens.Invalidate(tok)
		case resp.StatusCode == http.StatusUnauthorized:
			resp.Body.Close()
			return nil, errSignInRefused
		default:
			resp.Body.Close()
			return nil, fmt.Errorf("hub event stream: HTTP %d", resp.StatusCode)
		}
	}
}

// applyStreamEvent applies one hub event as a received notification would
// be, then remembers its id. An event carrying its re-read record (the hub
// re-read once: see Reread) is applied as it is, without a call; one
// without is re-read through the hub. The hub's own events for writes a
// colleague made through it (hubWrite: an action of the hub's naming,
// "AcceptedByContractor", ..., and PerformedBy beside the envelope) re-read
// everything about the work order when they carry no re-read, so those
// told of the event see the new state.
func (e *Engine) applyStreamEvent(ctx context.Context, id, data string) error {
	ev, err := parseEvent([]byte(data))
	if err != nil {
		// One malformed event must not stall the stream for good.
		e.Store.log.Warn("hub event that is not a notification; skipped", "id", id, "err", err)
	} else {
		colleague := hubWrite(ev)
		if ev.Header.MessageId != "" && colleague && ev.Body == nil {
			// A bulk write's events share its MessageId, one per work order.
			ev.Header.MessageId += "/" + strconv.FormatInt(ev.Header.WorkOrderId, 10)
		}
		logged, err := e.Store.EventLogged(ctx, ev)
		if err != nil {
			return err
		}
		if !logged {
			rr, err := RereadOf([]byte(data))
			if err != nil {
				e.Store.log.Warn("hub event with an unreadable re-read; reading again", "id", id, "err", err)
			}
			if rr == nil {
				touches := api.Touches(ev.Header.Action)
				if colleague && ev.Header.WorkOrderId > 0 {
					touches = api.TouchWorkOrder | api.TouchInvoice | api.TouchMessages | api.TouchAttachments | api.TouchNote
				}
				rr = e.reread(ctx, ev, touches)
			}
			if err := e.apply(ctx, ev, rr); err != nil {
				return err
			}
			if colleague && ev.Header.WorkOrderId > 0 {
				// Told once the event is logged too: the window shows who
				// did it (list mark, header, Activity) from the log.
				e.Store.notify([]int64{ev.Header.WorkOrderId})
			}
		}
	}
	if id != "" {
		if err := e.Store.SetSetting(ctx, settingLastEventID, id); err != nil {
			return err
		}
	}
	return nil
}

// settingHubPerson is the name the hub knows the person by, kept so an
// office window opened offline still says whose it is.
const settingHubPerson = "hub.person_name"

// KeptHubPerson is the name the hub gave last time, without asking it: the
// window knows whose it is (and which hub events are the person's own)
// before the hub answers, or when it cannot.
func (e *Engine) KeptHubPerson(ctx context.Context) string {
	kept, _, _ := e.Store.Setting(ctx, settingHubPerson)
	return kept
}

// HubPerson asks the hub whom the engine's credentials belong to
// (GET /api/hub/me) and keeps the answer; while the hub is unreachable it
// returns the name kept last time.
func (e *Engine) HubPerson(ctx context.Context) (string, error) {
	kept := e.KeptHubPerson(ctx)
	if e.hubURL == "" {
		return kept, nil
	}
	me, err := e.askHubMe(ctx)
	if err != nil {
		return kept, fmt.Errorf("asking the hub who is signed in: %w", err)
	}
	if me.Name != "" && e.Client != nil {
		e.Client.SetPerformedBy(me.Name)
	}
	if me.Name != "" && me.Name != kept {
		if err := e.Store.SetSetting(ctx, settingHubPerson, me.Name); err != nil {
			return me.Name, err
		}
	}
	return me.Name, nil
}

func (e *Engine) askHubMe(ctx context.Context) (me struct{ Name string }, err error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	tok, err := e.Tokens.Token(ctx)
	if err != nil {
		return me, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.hubURL+"/api/hub/me", nil)
	if err != nil {
		return me, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := e.hubHTTP.Do(req)
	if err != nil {
		return me, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return me, fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	err = json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&me)
	return me, err
}

// OfficeProfile names the replica of a person at an office hub: apart from
// Demo's and Live's, and from a colleague's on the same computer.
func OfficeProfile(hubURL, clientID string) string {
	return "office_" + ProfileForBaseURL(hubURL) + "_" + strings.Trim(profileUnsafe.ReplaceAllString(clientID, "_"), "_.")
}
