package sandbox

import (
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"GET", "/api/messages", kindRead, (*call).listMessages},
	endpoint{"POST", "/api/messages", kindMutate, (*call).postMessage},
)

// listMessages answers GET /api/messages with the messages of visibility
// All only, as documented (service-facts §4.3, §15): the others were posted
// but are not listed, so nobody can check through this list whether one
// of them arrived.
func (c *call) listMessages() (any, error) {
	o, err := c.queryOrder()
	if err != nil {
		return nil, err
	}
	msgs := []api.Message{}
	for _, m := range o.messages {
		if m.MessageVisibility == "" || m.MessageVisibility == api.VisibilityAll {
			msgs = append(msgs, m)
		}
	}
	return c.envelope("Messages", msgs), nil
}

func validVisibility(v api.MessageVisibility) bool {
	// CruLead appears only on the attachment form (service-facts §4.4); accepted everywhere.
	if v == "CruLead" {
		return true
	}
	for _, a := range api.AllVisibilities {
		if a == v {
			return true
		}
	}
	return false
}

// postMessage adds a message; default visibility All (service-facts §4.3);
// refused on rejected work orders.
func (c *call) postMessage() (any, error) {
	var req api.MessageRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Text", req.Text, true); err != nil {
		return nil, err
	}
	if req.MessageVisibility == "" {
		req.MessageVisibility = api.VisibilityAll
	}
	if !validVisibility(req.MessageVisibility) {
		return nil, serve.Invalid("MessageVisibility", "%q is not a message visibility", req.MessageVisibility)
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if o.wo.Status == api.StatusRejected {
		return nil, business(api.CodeWrongStatus, "Work order %s was rejected; messages are no longer possible.", o.wo.WorkOrderNumber)
	}
	c.s.st.nextMsgID++
	m := api.Message{
		Id: c.s.st.nextMsgID, WorkOrderId: o.wo.WorkOrderId, Text: req.Text,
		MessageVisibility: req.MessageVisibility, Sender: apiSender, Created: c.now,
	}
	o.messages = append(o.messages, m)
	c.s.st.touch(o, c.now)
	return c.envelope("Message", m), nil
}
