package outbox

import (
	"context"
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
		Judged: "the thread, re-read: it holds more messages of ours with this text than our writes of it the service " +
			"took. The thread lists only messages of visibility All (service-facts §4.3): for another, nothing can tell, " +
			"and the person decides.",
	}, spec[api.MessageRequest]{
		call:    noResult((*api.Client).SendMessage),
		draft:   func(r *api.MessageRequest, _ string) *Draft { return &Draft{Text: r.Text, Visibility: r.MessageVisibility} },
		subject: func(r *api.MessageRequest) Subject {
			if r.Text == "" {
				return Subject{}
			}
			return Subject{Message: &MessageSubject{r.Text, r.MessageVisibility}}
		},
		// A message cannot be taken back: it is posted again only when the
		// thread holds fewer of our messages with its text than our writes
		// that were done with it.
		landed: func(ctx context.Context, c *api.Client, r *api.MessageRequest, q *LandedQuery) (bool, any, error) {
			if r.MessageVisibility != "" && r.MessageVisibility != api.VisibilityAll {
				return false, nil, &OutcomeUnknown{Why: fmt.Sprintf("its answer was lost, and the service lists only the messages everyone sees, "+
					"so it cannot tell whether this one (visible to %s) arrived", VisibilityWords(r.MessageVisibility))}
			}
			msgs, err := c.ListMessages(ctx, r.WorkOrderId)
			if err != nil {
				return false, nil, err
			}
			there := 0
			for _, m := range msgs {
				if m.Text == r.Text && (m.Sender == nil || m.Sender.Type != "Customer") {
					there++
				}
			}
			sent, err := twins(ctx, q, func(o *api.MessageRequest) bool { return o.Text == r.Text })
			return there > sent, nil, err
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
