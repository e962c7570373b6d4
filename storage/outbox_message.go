package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Messages on a work order's thread.

const (
	KindMessage OutboxKind = "message"
)

// FormMessage is the compose box of the work order's thread.
const FormMessage Form = "message"

var _ = register(GroupMessage, map[OutboxKind]*action{
	KindMessage: {
		rule:      api.SendMessage,
		noun:      "Message",
		route:     Route{http.MethodPost, "/api/messages"},
		colleague: Colleague{Event: "MessageSentByContractor", Verb: "sent a message", Of: "on"},
		fix:       &fix{form: FormMessage, again: "send it", draft: draftMessage},
		send: func(ctx context.Context, sc *sendCtx) (any, error) {
			var r api.MessageRequest
			if err := sc.decode(&r); err != nil {
				return nil, err
			}
			r.MessageId = sc.row.MessageId
			return nil, sc.c.SendMessage(ctx, &r)
		},
		refresh: func(ctx context.Context, sc *sendCtx, woID int64) error {
			msgs, err := sc.c.ListMessages(ctx, woID)
			if err != nil {
				return err
			}
			return putMessages(ctx, sc.s.w, woID, msgs, sc.s.now().UnixMilli())
		},
		// A message cannot be taken back: it is posted again only when the
		// thread holds fewer of our messages with its text than our rows
		// that were done with it. The thread lists only messages of
		// visibility All (service-facts §4.3): for another, nothing can
		// tell, and the person decides.
		landed: func(ctx context.Context, sc *sendCtx) (bool, any, error) {
			var r api.MessageRequest
			if err := sc.decode(&r); err != nil {
				return false, nil, err
			}
			if r.MessageVisibility != "" && r.MessageVisibility != api.VisibilityAll {
				return false, nil, &OutcomeUnknown{Why: fmt.Sprintf("its answer was lost, and the service lists only the messages everyone sees, "+
					"so it cannot tell whether this one (visible to %s) arrived", visibilityWords(r.MessageVisibility))}
			}
			msgs, err := sc.c.ListMessages(ctx, r.WorkOrderId)
			if err != nil {
				return false, nil, err
			}
			there := 0
			for _, m := range msgs {
				if m.Text == r.Text && (m.Sender == nil || m.Sender.Type != "Customer") {
					there++
				}
			}
			sent, err := sc.doneTwins(ctx, func(sc *sendCtx) bool {
				var o api.MessageRequest
				return sc.decode(&o) == nil && o.Text == r.Text
			})
			return there > sent, nil, err
		},
	},
})

func draftMessage(raw json.RawMessage, _ string) (*Draft, error) {
	var q api.MessageRequest
	err := json.Unmarshal(raw, &q)
	return &Draft{Text: q.Text, Visibility: q.MessageVisibility}, err
}

// doneTwins counts the done rows of the same kind on the same work order,
// other than row, that same says did the same thing: what the service
// already holds from us.
func (s *Store) doneTwins(ctx context.Context, row *OutboxRow, same func(*sendCtx) bool) (int, error) {
	rows, err := s.OutboxRows(ctx, row.WorkOrderIds[0])
	if err != nil {
		return 0, err
	}
	n := 0
	for i := range rows {
		r := &rows[i]
		if r.Id != row.Id && r.Kind == row.Kind && r.State == OutboxDone && same(&sendCtx{s: s, row: r}) {
			n++
		}
	}
	return n, nil
}

// SendMessage queues a message on the work order's thread.
func (s *Store) SendMessage(ctx context.Context, woID int64, text string, vis api.MessageVisibility) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := wo.Can(api.SendMessage); err != nil {
		return nil, refused(err)
	}
	if err := api.CheckText("message", text, true); err != nil {
		return nil, refused(err)
	}
	if err := checkVisibility(vis); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	r := &api.MessageRequest{WorkOrderId: woID, Text: text, MessageVisibility: vis}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindMessage, summary: "Message: " + shorten(text, 60), targets: []int64{woID}, messageID: id, request: r})
}

// visibilityWords says who sees a message of visibility v.
func visibilityWords(v api.MessageVisibility) string {
	switch v {
	case api.VisibilityCruOnly:
		return "your crew only"
	case api.VisibilityCruLeads:
		return "the customer and your crew leads"
	case api.VisibilityCruSubs:
		return "your crew and subcontractors"
	case api.VisibilityNone:
		return "nobody"
	}
	return string(v)
}

func checkVisibility(vis api.MessageVisibility) error {
	if vis == "" {
		return nil
	}
	for _, v := range api.AllVisibilities {
		if v == vis {
			return nil
		}
	}
	return invalid("%q is not a visibility the service knows", vis)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
