package sandbox

// The control API lets a person or a test act as the customer and move the
// clock. It needs no token, so it answers loopback callers only.
//
//	POST /_sandbox/quote/approve     {"WorkOrderId": 27796401}
//	POST /_sandbox/quote/reject      {"WorkOrderId": 27796401, "Comment": "too expensive"}
//	POST /_sandbox/quote/request     {"WorkOrderId": 27796401}
//	POST /_sandbox/nte               {"WorkOrderId": 27796401, "Amount": 1500.00}
//	POST /_sandbox/dispatch          {}  → {"WorkOrder": {...}}
//	POST /_sandbox/invoice/status    {"WorkOrderId": 27796401, "Status": "Authorized"|"Paid"|"Disputed"|"Submitted", "Comment": "..."}
//	POST /_sandbox/procedure         {"WorkOrderId": 27796401, "ProcedureId": 6101, "IsMarkedNa": true, "IsReadOnly": false}
//	POST /_sandbox/note              {"WorkOrderId": 27796401, "Comment": "Gate code 4471", "By": "Dana Whitfield"}
//	POST /_sandbox/act               {"WorkOrderId": 27796401, "Action": "PutOnHold", "Comment": "..."}
//	                                 (any documented notification action: see Sandbox.Act)
//	POST /_sandbox/clock/advance     {"Seconds": 900}  → {"Now": "..."}
//	POST /_sandbox/customer/tick     {}  → {"Did": "approved the quote on WN73215"}
//	GET  /_sandbox/state                      → {"Now", "WorkOrders", "ByStatus", "Notifications"}
//	GET  /_sandbox/state?workOrderId=27796401 → adds the work order, its invoice, messages and attachments
//
// Success is 200 with {"Ok": true} unless shown otherwise; a refusal is 400
// {"Error": "<why>"}.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/serve"
)

type controlRequest struct {
	WorkOrderId int64             `json:"WorkOrderId"`
	Action      string            `json:"Action"`
	ProcedureId int64             `json:"ProcedureId"`
	Comment     string            `json:"Comment"`
	Amount      decimal.Decimal   `json:"Amount"`
	Status      api.InvoiceStatus `json:"Status"`
	IsMarkedNa  bool              `json:"IsMarkedNa"`
	IsReadOnly  bool              `json:"IsReadOnly"`
	Seconds     float64           `json:"Seconds"`
	By          string            `json:"By"`
}

func controlError(w http.ResponseWriter, status int, msg string) {
	serve.WriteJSON(w, status, map[string]string{"Error": msg})
}

func isLoopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Sandbox) serveControl(w http.ResponseWriter, r *http.Request, p string) {
	if !isLoopback(r.RemoteAddr) {
		controlError(w, http.StatusForbidden, "the control API answers loopback callers only")
		return
	}
	p = strings.TrimPrefix(p, "/_sandbox")
	if p == "/state" {
		if r.Method != http.MethodGet {
			controlError(w, http.StatusMethodNotAllowed, "use GET")
			return
		}
		s.serveState(w, r)
		return
	}
	if r.Method != http.MethodPost {
		controlError(w, http.StatusMethodNotAllowed, "use POST")
		return
	}
	var req controlRequest
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err == nil && len(bytes.TrimSpace(b)) > 0 {
		err = json.Unmarshal(b, &req)
	}
	if err != nil {
		controlError(w, http.StatusBadRequest, "the body must be JSON: "+err.Error())
		return
	}
	var out any = map[string]bool{"Ok": true}
	switch p {
	case "/quote/approve":
		err = s.ApproveQuote(req.WorkOrderId)
	case "/quote/reject":
		err = s.RejectQuote(req.WorkOrderId, req.Comment)
	case "/quote/request":
		err = s.RequestQuote(req.WorkOrderId)
	case "/nte":
		err = s.SetNte(req.WorkOrderId, req.Amount)
	case "/dispatch":
		var wo api.WorkOrder
		wo, err = s.DispatchWorkOrder()
		out = map[string]any{"WorkOrder": wo}
	case "/invoice/status":
		err = s.SetInvoiceStatus(req.WorkOrderId, req.Status, req.Comment)
	case "/procedure":
		err = s.MarkProcedure(req.WorkOrderId, req.ProcedureId, req.IsMarkedNa, req.IsReadOnly)
	case "/note":
		err = s.EditNoteInDesktop(req.WorkOrderId, req.Comment, req.By)
	case "/act":
		err = s.Act(req.WorkOrderId, req.Action, ActOptions{Comment: req.Comment, Status: req.Status, Amount: req.Amount})
	case "/clock/advance":
		if req.Seconds <= 0 {
			err = errors.New("Seconds must be positive")
			break
		}
		s.AdvanceClock(time.Duration(req.Seconds * float64(time.Second)))
		out = map[string]any{"Now": s.clock.Now()}
	case "/customer/tick":
		var did string
		did, err = s.CustomerTick()
		out = map[string]string{"Did": did}
	default:
		controlError(w, http.StatusNotFound, "no such control endpoint: /_sandbox"+p)
		return
	}
	if err != nil {
		controlError(w, http.StatusBadRequest, controlMessage(err))
		return
	}
	serve.WriteJSON(w, http.StatusOK, out)
}

// controlMessage is the human text of an error, without the api.Error decoration.
func controlMessage(err error) string {
	var e *api.Error
	if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}

// serveState is a debugging view; download links and secrets never appear in it.
func (s *Sandbox) serveState(w http.ResponseWriter, r *http.Request) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := map[string]any{"Now": s.clock.Now(), "WorkOrders": len(s.st.orders), "Notifications": s.NotifyStats()}
	by := map[api.WorkOrderStatus]int{}
	for _, o := range s.st.orders {
		by[o.wo.Status]++
	}
	out["ByStatus"] = by
	if v := r.URL.Query().Get("workOrderId"); v != "" {
		id, _ := strconv.ParseInt(v, 10, 64)
		o, ok := s.st.orders[id]
		if !ok {
			controlError(w, http.StatusNotFound, "no work order "+v)
			return
		}
		steps := []api.StepAttachment{}
		for _, p := range o.wo.Procedures() {
			for _, st := range p.Steps {
				for _, f := range s.st.steps[st.Id] {
					steps = append(steps, stepMeta(f))
				}
			}
		}
		out["WorkOrder"] = &o.wo
		out["Invoice"] = invoiceView(o)
		out["Messages"] = o.messages
		out["Attachments"] = metas(o.files)
		out["InvoiceAttachments"] = metas(o.invFiles)
		out["StepAttachments"] = steps
		out["Policy"] = o.cust
	}
	serve.WriteJSON(w, http.StatusOK, out)
}

// Control drives a sandbox's control API over HTTP: the same customer
// actions as *Sandbox, for a sandbox running in another process.
type Control struct {
	BaseURL    string       // the sandbox's base URL, e.g. http://127.0.0.1:8089/
	HTTPClient *http.Client // nil = a client with a 10 s timeout
}

// NewControl returns a Control for the sandbox at baseURL.
func NewControl(baseURL string) *Control { return &Control{BaseURL: baseURL} }

func (c *Control) post(path string, in, out any) error {
	hc := c.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	b, err := json.Marshal(in)
	if err != nil {
		return err
	}
	u, err := url.JoinPath(c.BaseURL, "_sandbox", path)
	if err != nil {
		return fmt.Errorf("sandbox control: %w", err)
	}
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("sandbox control: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("sandbox control: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("sandbox control: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		if json.Unmarshal(body, &e) == nil && e.Error != "" {
			return errors.New(e.Error)
		}
		return fmt.Errorf("sandbox control: HTTP %d", resp.StatusCode)
	}
	if out != nil {
		return json.Unmarshal(body, out)
	}
	return nil
}

func (c *Control) ApproveQuote(id int64) error {
	return c.post("quote/approve", controlRequest{WorkOrderId: id}, nil)
}

func (c *Control) RejectQuote(id int64, reason string) error {
	return c.post("quote/reject", controlRequest{WorkOrderId: id, Comment: reason}, nil)
}

func (c *Control) RequestQuote(id int64) error {
	return c.post("quote/request", controlRequest{WorkOrderId: id}, nil)
}

func (c *Control) SetNte(id int64, amount decimal.Decimal) error {
	return c.post("nte", controlRequest{WorkOrderId: id, Amount: amount}, nil)
}

func (c *Control) DispatchWorkOrder() (api.WorkOrder, error) {
	var out struct{ WorkOrder api.WorkOrder }
	err := c.post("dispatch", struct{}{}, &out)
	return out.WorkOrder, err
}

func (c *Control) SetInvoiceStatus(id int64, status api.InvoiceStatus, comment string) error {
	return c.post("invoice/status", controlRequest{WorkOrderId: id, Status: status, Comment: comment}, nil)
}

func (c *Control) MarkProcedure(woID, procID int64, na bool, readOnly bool) error {
	return c.post("procedure", controlRequest{WorkOrderId: woID, ProcedureId: procID, IsMarkedNa: na, IsReadOnly: readOnly}, nil)
}

// EditNoteInDesktop changes the internal note as a colleague in CorrigoPro
// Desktop does (see Sandbox.EditNoteInDesktop).
func (c *Control) EditNoteInDesktop(id int64, text, by string) error {
	return c.post("note", controlRequest{WorkOrderId: id, Comment: text, By: by}, nil)
}

// Act makes a documented action happen to work order id (Sandbox.Act).
func (c *Control) Act(id int64, action string, a ActOptions) error {
	return c.post("act", controlRequest{WorkOrderId: id, Action: action, Comment: a.Comment, Status: a.Status, Amount: a.Amount}, nil)
}

// Do is Act with a comment only (the demo's Customer menu).
func (c *Control) Do(id int64, action, comment string) error {
	return c.Act(id, action, ActOptions{Comment: comment})
}

// AdvanceClock moves the sandbox clock forward and returns its new time.
// (Unlike Sandbox.AdvanceClock it can fail: it crosses a process boundary.)
func (c *Control) AdvanceClock(d time.Duration) (time.Time, error) {
	var out struct{ Now time.Time }
	err := c.post("clock/advance", controlRequest{Seconds: d.Seconds()}, &out)
	return out.Now, err
}

// CustomerTick makes the scripted customer act once.
func (c *Control) CustomerTick() (string, error) {
	var out struct{ Did string }
	err := c.post("customer/tick", struct{}{}, &out)
	return out.Did, err
}
