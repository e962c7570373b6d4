package storage

import (
	"context"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Messages on a work order's thread.

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
	return s.enqueue(ctx, newRow{kind: outbox.KindMessage, summary: "Message: " + shorten(text, 60), targets: []int64{woID}, messageID: id, request: r})
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
