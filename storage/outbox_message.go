package storage

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
)

// Messages on a work order's thread.

// doneTwins counts, for a landed check, the done rows of row's kind on its
// work order, other than row, whose request same says did the same thing:
// what the service already holds from us.
func (s *Store) doneTwins(row *OutboxRow) func(context.Context, func(json.RawMessage) bool) (int, error) {
	return func(ctx context.Context, same func(json.RawMessage) bool) (int, error) {
		rows, err := s.OutboxRows(ctx, row.WorkOrderIds[0])
		if err != nil {
			return 0, err
		}
		n := 0
		for i := range rows {
			r := &rows[i]
			if r.Id != row.Id && r.Kind == row.Kind && r.State == OutboxDone && same(r.Request) {
				n++
			}
		}
		return n, nil
	}
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
