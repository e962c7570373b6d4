package api

import (
	"context"
	"net/http"
)

// ListMessages reads a work order's thread (GET /api/messages?workOrderId=):
// only messages of visibility All are listed (service-facts §4.3). The
// list's key, Messages, is our guess; items under another key are an error.
func (c *Client) ListMessages(ctx context.Context, workOrderId int64) ([]Message, error) {
	return getList[Message](ctx, c, "api/messages", idQuery(workOrderId), "Messages")
}

// MessageRequest creates a message (POST /api/messages).
type MessageRequest struct {
	WorkOrderId       int64             `json:"WorkOrderId"`
	Text              string            `json:"Text"`
	MessageVisibility MessageVisibility `json:"MessageVisibility,omitempty"`
	Envelope
	Performer
}

func (c *Client) SendMessage(ctx context.Context, r *MessageRequest) error {
	if err := checkComment("message text", r.Text, true); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPost, "api/messages", r, nil)
}
