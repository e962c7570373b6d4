package api

import (
	"context"
	"net/http"
)

type messagesResponse struct {
	Messages  []Message `json:"Messages"`
	MessageId string    `json:"MessageId"`
}

// ListMessages reads a work order's thread (GET /api/messages?workOrderId=).
func (c *Client) ListMessages(ctx context.Context, workOrderId int64) ([]Message, error) {
	var out messagesResponse
	err := c.getJSON(ctx, "api/messages", idQuery(workOrderId), &out)
	return out.Messages, err
}

// MessageRequest creates a message (POST /api/messages).
type MessageRequest struct {
	WorkOrderId       int64             `json:"WorkOrderId"`
	Text              string            `json:"Text"`
	MessageVisibility MessageVisibility `json:"MessageVisibility,omitempty"`
	Envelope
}

func (c *Client) SendMessage(ctx context.Context, r *MessageRequest) error {
	if err := checkComment("message text", r.Text, true); err != nil {
		return err
	}
	return c.sendJSON(ctx, http.MethodPost, "api/messages", r, nil)
}
