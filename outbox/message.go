package outbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/workorderdesk/workdesk/api"
)

// Messages on a work order's thread.

const KindMessage Kind = "message"

// FormMessage is the compose box of the work order's thread.
const FormMessage Form = "message"

var _ = register(GroupMessage,
	def(&Entry{
		Kind: KindMessage, Rule: api.SendMessage, Noun: "Message",
		Route:     Route{http.MethodPost, "/api/messages"},
		Colleague: Colleague{Event: "MessageSentByContractor", Verb: "sent a message", Of: "on"},
		Fix:       &Fix{Form: FormMessage, Again: "send it"},
		Rereads:   Messages,
		Judged: "the thread, re-read: it holds more messages with this text from our side than it held just before " +
			"ours was first sent (Before). One posted by another of the company's systems before ours is counted in " +
			"Before, so it is never taken for ours. The thread lists only messages of visibility All (service-facts " +
			"§4.3): for another, or when nothing was kept before the first send, nothing can tell, and the person decides.",
	}, spec[api.MessageRequest]{
		call: noResult((*api.Client).SendMessage),
		draft: func(r *api.MessageRequest, _ string) *Draft {
			return &Draft{Text: r.Text, Visibility: r.MessageVisibility}
		},
		subject: func(r *api.MessageRequest) Subject {
			if r.Text == "" {
				return Subject{}
			}
			return Subject{Message: &MessageSubject{r.Text, r.MessageVisibility}}
		},
		// A message cannot be taken back: it is posted again only when the
		// thread holds no more of ours with its text than it held before
		// ours was first sent.
		before: func(ctx context.Context, c *api.Client, r *api.MessageRequest) (json.RawMessage, error) {
			if !listed(r.MessageVisibility) {
				return nil, nil // the thread cannot show it: nothing to count
			}
			msgs, err := c.ListMessages(ctx, r.WorkOrderId)
			if err != nil {
				return nil, err
			}
			return countBefore(sameText(msgs, r.Text))
		},
		landed: func(ctx context.Context, c *api.Client, r *api.MessageRequest, q *LandedQuery) (bool, any, error) {
			if !listed(r.MessageVisibility) {
				return false, nil, &OutcomeUnknown{Why: fmt.Sprintf("its answer was lost, and the service lists only the messages everyone sees, "+
					"so it cannot tell whether this one (visible to %s) arrived", VisibilityWords(r.MessageVisibility))}
			}
			msgs, err := c.ListMessages(ctx, r.WorkOrderId)
			if err != nil {
				return false, nil, err
			}
			landed, err := newSince(q, sameText(msgs, r.Text), "nothing recorded how many messages with its text the thread held before it was sent")
			return landed, nil, err
		},
	}),
)

// VisibilityWords says who sees a message of visibility v.
func VisibilityWords(v api.MessageVisibility) string {
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

// listed reports whether the thread the service lists shows messages of
// visibility v (only All's: service-facts §4.3).
func listed(v api.MessageVisibility) bool { return v == "" || v == api.VisibilityAll }

// sameText counts the thread's messages with text from our side (not the
// customer's).
func sameText(msgs []api.Message, text string) int {
	n := 0
	for _, m := range msgs {
		if m.Text == text && (m.Sender == nil || m.Sender.Type != "Customer") {
			n++
		}
	}
	return n
}
