package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// Every action a person takes becomes an outbox row first: validated here,
// committed to SQLite with its request and MessageId fixed, and only then
// sent by a Sender. Whatever happens to the network or the process after the
// method returns, the action is neither lost nor applied twice (the service
// de-duplicates by MessageId, and a resend always reuses it).

// OutboxKind names the operation of an outbox row.
type OutboxKind string

const (
	KindAccept                  OutboxKind = "accept"
	KindReject                  OutboxKind = "reject"
	KindBulkAccept              OutboxKind = "bulkAccept"
	KindBulkReject              OutboxKind = "bulkReject"
	KindAppointment             OutboxKind = "appointment"
	KindCheckIn                 OutboxKind = "checkIn"
	KindPause                   OutboxKind = "pause"
	KindCheckOut                OutboxKind = "checkOut"
	KindQuote                   OutboxKind = "quoteSubmit"
	KindMessage                 OutboxKind = "message"
	KindAttachment              OutboxKind = "attachment"
	KindInvoiceSave             OutboxKind = "invoiceSave"
	KindInvoiceSubmit           OutboxKind = "invoiceSubmit"
	KindInvoiceDelete           OutboxKind = "invoiceDelete"
	KindInvoiceAttachmentAdd    OutboxKind = "invoiceAttachmentAdd"
	KindInvoiceAttachmentRemove OutboxKind = "invoiceAttachmentRemove"
	KindStepAttachmentAdd       OutboxKind = "stepAttachmentAdd"
	KindStepAttachmentRemove    OutboxKind = "stepAttachmentRemove"
)

// OutboxState is where a row is in its life.
type OutboxState string

const (
	// OutboxPending: committed, waiting to be sent (or to be retried after a
	// network failure; NextAttempt says when).
	OutboxPending OutboxState = "pending"
	// OutboxSending: handed to the service; if the app dies now, the row is
	// sent again with the same MessageId on the next start.
	OutboxSending OutboxState = "sending"
	// OutboxDone: the service accepted it and the replica shows the result.
	OutboxDone OutboxState = "done"
	// OutboxFailed: the service refused it (Error says why, in its words).
	// It blocks later actions on the same work order until Retry or Discard.
	OutboxFailed OutboxState = "failed"
	// OutboxDiscarded: the person gave up on it.
	OutboxDiscarded OutboxState = "discarded"
)

// OutboxRow is one queued action.
type OutboxRow struct {
	Id      int64
	Kind    OutboxKind
	Summary string // e.g. "Check in", "Reject: no capacity"
	// ActionDate is when a check-in, pause or check-out happened (what the
	// person back-dated to, or when they acted), for showing in local time.
	ActionDate   time.Time
	WorkOrderIds []int64 // the work orders it acts on (several for a bulk action)
	MessageId    string  // fixed at enqueue; every resend carries it
	State        OutboxState
	Attempts     int
	NextAttempt  time.Time // when a pending row is retried (zero = as soon as possible)
	Created      time.Time
	Updated      time.Time
	Error        string // failed: the service's message; pending: the last network problem
	ErrorCode    int    // the service's error code when it gave one
	// BulkResults are the per-work-order outcomes of a bulk action.
	BulkResults []api.BulkResult
	Request     json.RawMessage // the request as it will be sent
}

// Blocked reports whether the row keeps later actions on its work orders waiting.
func (r OutboxRow) Blocked() bool {
	return r.State == OutboxPending || r.State == OutboxSending || r.State == OutboxFailed
}

// InputError is a request refused locally, before anything was queued; its
// message is meant for the person who made it.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// ErrInvalid matches every InputError with errors.Is.
var ErrInvalid = errors.New("invalid request")

func (e *InputError) Is(target error) bool { return target == ErrInvalid }

func invalid(format string, args ...any) error {
	return &InputError{Msg: fmt.Sprintf(format, args...)}
}

// Payloads of the operations that have no api request struct.
type uploadPayload struct {
	WorkOrderId       int64                 `json:"WorkOrderId"`
	Step              *api.StepRef          `json:"Step,omitempty"`
	Name              string                `json:"Name"`
	MimeType          string                `json:"MimeType"`
	Size              int64                 `json:"Size"`
	MessageVisibility api.MessageVisibility `json:"MessageVisibility,omitempty"`
	DocumentType      string                `json:"DocumentType,omitempty"`
}

type removePayload struct {
	WorkOrderId  int64        `json:"WorkOrderId"`
	Step         *api.StepRef `json:"Step,omitempty"`
	AttachmentId string       `json:"AttachmentId"`
}

type workOrderPayload struct {
	WorkOrderId int64 `json:"WorkOrderId"`
}

// newRow is what an enqueue method hands to enqueue.
type newRow struct {
	kind      OutboxKind
	summary   string
	targets   []int64
	messageID string
	request   any
	spool     string // base name inside the spool folder
}

// enqueue commits the row; nothing is sent before this returns.
func (s *Store) enqueue(ctx context.Context, n newRow) (*OutboxRow, error) {
	raw, err := json.Marshal(n.request)
	if err != nil {
		return nil, fmt.Errorf("storage: encoding the %s request: %w", n.kind, err)
	}
	now := s.now().UnixMilli()
	var id int64
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `INSERT INTO outbox(kind, summary, work_order_id, message_id, request, spool_file,
 state, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
			string(n.kind), n.summary, n.targets[0], n.messageID, string(raw), n.spool, string(OutboxPending), now, now)
		if err != nil {
			return fmt.Errorf("storage: queueing %s: %w", n.kind, err)
		}
		if id, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("storage: queueing %s: %w", n.kind, err)
		}
		for _, wo := range n.targets {
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO outbox_targets(outbox_id, work_order_id) VALUES (?,?)`, id, wo); err != nil {
				return fmt.Errorf("storage: queueing %s: %w", n.kind, err)
			}
		}
		return nil
	})
	if err != nil {
		if n.spool != "" {
			os.Remove(filepath.Join(s.spool, n.spool))
		}
		return nil, err
	}
	s.log.Info("action queued", "kind", n.kind, "row", id, "workOrders", n.targets)
	s.notify(n.targets)
	s.kickSenders()
	return s.OutboxRow(ctx, id)
}

// expected is the work order as the person sees it: the replica, with the
// status its queued actions will give it. Validation uses it so that, offline,
// "accept" then "check in" is allowed although the replica still says New.
func (s *Store) expected(ctx context.Context, woID int64) (*api.WorkOrder, error) {
	wo, err := s.WorkOrder(ctx, woID)
	if errors.Is(err, ErrNotFound) {
		return nil, invalid("work order %d is not in the local replica yet; sync and try again", woID)
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT o.kind, o.state, o.summary, o.error FROM outbox o JOIN outbox_targets t ON t.outbox_id = o.id
 WHERE t.work_order_id = ? AND o.state IN ('pending','sending','failed') ORDER BY o.id`, woID)
	if err != nil {
		return nil, fmt.Errorf("storage: reading queued actions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, state, summary, msg string
		if err := rows.Scan(&kind, &state, &summary, &msg); err != nil {
			return nil, fmt.Errorf("storage: reading queued actions: %w", err)
		}
		// A refused action changed nothing at the service, and it holds back
		// every later action on the work order until the person retries or
		// discards it: say so now rather than queue something that waits.
		if OutboxState(state) == OutboxFailed {
			return nil, invalid("%s was refused by the service (%s). Retry or discard it on the Activity tab first: later actions on this work order wait behind it", summary, msg)
		}
		switch OutboxKind(kind) {
		case KindAccept, KindBulkAccept:
			wo.Status = api.StatusAccepted
		case KindReject, KindBulkReject:
			wo.Status = api.StatusRejected
		case KindCheckIn:
			wo.Status = api.StatusCheckedIn
		case KindPause:
			wo.Status = api.StatusPaused
		case KindCheckOut:
			wo.Status = api.StatusCheckedOut
		case KindQuote:
			if wo.Nte.Quote == nil {
				wo.Nte.Quote = &api.Quote{}
			}
			wo.Nte.Quote.QuoteStatus = api.QuoteSubmitted
		}
	}
	return wo, rows.Err()
}

func checkText(what, text string, required bool) error {
	n := len([]rune(strings.TrimSpace(text)))
	if required && n == 0 {
		return invalid("a %s is required", what)
	}
	if len([]rune(text)) > api.MaxCommentLength {
		return invalid("the %s is %d characters long; the service accepts at most %d", what, len([]rune(text)), api.MaxCommentLength)
	}
	return nil
}

func terminal(st api.WorkOrderStatus) bool {
	return st == api.StatusRejected || st == api.StatusRecalled
}

func label(wo *api.WorkOrder) string {
	if wo.WorkOrderNumber != "" {
		return wo.WorkOrderNumber
	}
	return fmt.Sprintf("work order %d", wo.WorkOrderId)
}

func requireStatus(wo *api.WorkOrder, action string, allowed ...api.WorkOrderStatus) error {
	for _, st := range allowed {
		if wo.Status == st {
			return nil
		}
	}
	names := make([]string, len(allowed))
	for i, st := range allowed {
		names[i] = string(st)
	}
	return invalid("%s is %s; it can be %s only when %s", label(wo), wo.Status, action, strings.Join(names, " or "))
}

// Accept queues accepting a New work order.
func (s *Store) Accept(ctx context.Context, woID int64, comment string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := requireStatus(wo, "accepted", api.StatusNew); err != nil {
		return nil, err
	}
	if wo.IsPreBilled {
		return nil, invalid("%s is prebilled: it is accepted by submitting its invoice, not by accepting it", label(wo))
	}
	if err := checkText("comment", comment, false); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	r := &api.AcceptRequest{WorkOrderId: woID, Comment: comment}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindAccept, summary: "Accept", targets: []int64{woID}, messageID: id, request: r})
}

// Reject queues rejecting a New work order; the reason is required.
func (s *Store) Reject(ctx context.Context, woID int64, reason string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if err := requireStatus(wo, "rejected", api.StatusNew); err != nil {
		return nil, err
	}
	if err := checkText("reason", reason, true); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	r := &api.RejectRequest{WorkOrderId: woID, Comment: reason}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindReject, summary: "Reject: " + reason, targets: []int64{woID}, messageID: id, request: r})
}

// BulkAccept queues accepting several New work orders in one call; the row
// keeps each work order's outcome.
func (s *Store) BulkAccept(ctx context.Context, ids []int64) (*OutboxRow, error) {
	return s.bulk(ctx, KindBulkAccept, ids, "")
}

// BulkReject queues rejecting several New work orders with one reason.
func (s *Store) BulkReject(ctx context.Context, ids []int64, reason string) (*OutboxRow, error) {
	if err := checkText("reason", reason, true); err != nil {
		return nil, err
	}
	return s.bulk(ctx, KindBulkReject, ids, reason)
}

func (s *Store) bulk(ctx context.Context, kind OutboxKind, ids []int64, reason string) (*OutboxRow, error) {
	if len(ids) == 0 {
		return nil, invalid("no work orders selected")
	}
	seen := map[int64]bool{}
	var targets []int64
	var problems []string
	for _, woID := range ids {
		if seen[woID] {
			continue
		}
		seen[woID] = true
		wo, err := s.expected(ctx, woID)
		if err != nil {
			return nil, err
		}
		if wo.Status != api.StatusNew {
			problems = append(problems, fmt.Sprintf("%s is %s", label(wo), wo.Status))
		} else if kind == KindBulkAccept && wo.IsPreBilled {
			problems = append(problems, label(wo)+" is prebilled")
		}
		targets = append(targets, woID)
	}
	verb := map[OutboxKind]string{KindBulkAccept: "accepted", KindBulkReject: "rejected"}[kind]
	if len(problems) > 0 {
		return nil, invalid("only New work orders can be %s: %s", verb, strings.Join(problems, "; "))
	}
	id := uuid.NewString()
	r := &api.BulkRequest{WorkOrderIds: targets, Comment: reason}
	r.MessageId = id
	summary := fmt.Sprintf("Accept %d work orders", len(targets))
	if kind == KindBulkReject {
		summary = fmt.Sprintf("Reject %d work orders: %s", len(targets), reason)
	}
	return s.enqueue(ctx, newRow{kind: kind, summary: summary, targets: targets, messageID: id, request: r})
}

// SetAppointment queues a new scheduled start (and access type, optional).
func (s *Store) SetAppointment(ctx context.Context, woID int64, start time.Time, pte string) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if terminal(wo.Status) {
		return nil, invalid("%s is %s; it can no longer be scheduled", label(wo), wo.Status)
	}
	if start.IsZero() {
		return nil, invalid("choose a scheduled start")
	}
	id := uuid.NewString()
	r := &api.AppointmentRequest{WorkOrderId: woID, ScheduledStart: start.UTC(), Pte: pte}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindAppointment, summary: "Schedule for " + start.UTC().Format("2006-01-02 15:04 UTC"),
		targets: []int64{woID}, messageID: id, request: r})
}

// futureTolerance absorbs clocks and pickers that round up to the minute.
const futureTolerance = time.Minute

// visit queues check-in, pause or check-out. ActualActionDate is always the
// moment the person acted: what they back-dated to, or now. A visit queued
// offline and sent an hour later is therefore recorded at the true time.
func (s *Store) visit(ctx context.Context, kind OutboxKind, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	now := s.now()
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	var verb, summary string
	switch kind {
	case KindCheckIn:
		verb, summary = "checked in", "Check in"
		err = requireStatus(wo, verb, api.StatusAccepted, api.StatusPaused)
	case KindPause:
		verb, summary = "paused", "Pause"
		err = requireStatus(wo, verb, api.StatusCheckedIn)
	case KindCheckOut:
		verb, summary = "checked out", "Check out"
		err = requireStatus(wo, verb, api.StatusCheckedIn, api.StatusPaused)
	}
	if err != nil {
		return nil, err
	}
	if err := checkText("comment", comment, false); err != nil {
		return nil, err
	}
	at := now
	if actual != nil {
		if actual.After(now.Add(futureTolerance)) {
			return nil, invalid("the time %s is in the future; a visit can only be recorded for a time that has passed",
				actual.Local().Format("2006-01-02 15:04"))
		}
		if !wo.Created.IsZero() && actual.Before(wo.Created) {
			return nil, invalid("the time %s is before %s was created", actual.Local().Format("2006-01-02 15:04"), label(wo))
		}
		at = *actual
	}
	at = at.UTC()
	id := uuid.NewString()
	r := &api.VisitRequest{WorkOrderId: woID, ActualActionDate: &at, Comment: comment}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: kind, summary: summary, targets: []int64{woID}, messageID: id, request: r})
}

// CheckIn queues a check-in. actual back-dates it; nil means now (the
// moment of this call, which is what will be sent, however late).
func (s *Store) CheckIn(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckIn, woID, actual, comment)
}

// Pause queues pausing a checked-in work order (e.g. end of day).
func (s *Store) Pause(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindPause, woID, actual, comment)
}

// CheckOut queues a check-out.
func (s *Store) CheckOut(ctx context.Context, woID int64, actual *time.Time, comment string) (*OutboxRow, error) {
	return s.visit(ctx, KindCheckOut, woID, actual, comment)
}

// SubmitQuote queues a quote asking to raise the NTE to amount.
func (s *Store) SubmitQuote(ctx context.Context, woID int64, amount api.Money, reason string, lines []api.LineItem) (*OutboxRow, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if terminal(wo.Status) {
		return nil, invalid("%s is %s; quotes are no longer possible", label(wo), wo.Status)
	}
	if q := wo.Nte.Quote; q != nil {
		switch q.QuoteStatus {
		case api.QuoteSubmitted:
			return nil, invalid("a quote for %s is already waiting for the customer's answer", label(wo))
		case api.QuoteApproved:
			return nil, invalid("the customer approved a quote for %s; it must reject that quote before the NTE can be raised again", label(wo))
		}
	}
	if amount.Currency == "" {
		amount.Currency = wo.Currency
	}
	if amount.Currency != wo.Currency {
		return nil, invalid("the quote is in %s but %s is billed in %s", amount.Currency, label(wo), wo.Currency)
	}
	if !amount.Amount.IsPositive() {
		return nil, invalid("the quote amount must be greater than zero")
	}
	if err := amount.Check(); err != nil {
		return nil, invalid("the quote amount: %s", err)
	}
	if !wo.Nte.NoLimit() && amount.Amount.LessThanOrEqual(wo.Nte.Amount.Amount) {
		return nil, invalid("the quote (%s) must be above the current NTE of %s", amount.Format(), wo.Nte.Amount.In(wo.Currency).Format())
	}
	if err := checkText("reason", reason, true); err != nil {
		return nil, err
	}
	if err := checkLines(lines, wo.Currency); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	r := &api.QuoteRequest{WorkOrderId: woID, Amount: amount, Comment: reason, LineItems: lines}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindQuote, summary: "Quote " + amount.Format(), targets: []int64{woID}, messageID: id, request: r})
}

func checkLines(lines []api.LineItem, currency string) error {
	for i, l := range lines {
		n := i + 1
		if strings.TrimSpace(l.Description) == "" && l.PriceListItemId == 0 {
			return invalid("line %d needs a description", n)
		}
		if !l.Quantity.IsPositive() {
			return invalid("line %d: the quantity must be greater than zero", n)
		}
		if l.Rate.Amount.IsNegative() && l.Type != api.LineTax {
			return invalid("line %d: the rate cannot be negative", n)
		}
		if l.Rate.Currency != "" && l.Rate.Currency != currency {
			return invalid("line %d is in %s but the work order is billed in %s", n, l.Rate.Currency, currency)
		}
		if err := (api.Money{Amount: l.Rate.Amount, Currency: currency}).Check(); err != nil {
			return invalid("line %d: the rate: %s", n, err)
		}
		if err := api.CheckDigits(l.Quantity); err != nil {
			return invalid("line %d: the quantity: %s", n, err)
		}
	}
	return nil
}

// SendMessage queues a message on the work order's thread.
func (s *Store) SendMessage(ctx context.Context, woID int64, text string, vis api.MessageVisibility) (*OutboxRow, error) {
	if _, err := s.expected(ctx, woID); err != nil {
		return nil, err
	}
	if err := checkText("message", text, true); err != nil {
		return nil, err
	}
	if err := checkVisibility(vis); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	r := &api.MessageRequest{WorkOrderId: woID, Text: text, MessageVisibility: vis}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindMessage, summary: "Message: " + shorten(text, 60), targets: []int64{woID}, messageID: id, request: r})
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

// upload validates and spools a file, then queues it.
func (s *Store) upload(ctx context.Context, kind OutboxKind, woID int64, step *api.StepRef, path string, vis api.MessageVisibility, summary string) (*OutboxRow, error) {
	if err := checkVisibility(vis); err != nil {
		return nil, err
	}
	id := uuid.NewString()
	dst, name, size, err := s.spoolFile(path, id)
	if err != nil {
		return nil, err
	}
	mt := mime.TypeByExtension(strings.ToLower(filepath.Ext(name)))
	if mt == "" {
		mt = "application/octet-stream"
	}
	p := uploadPayload{WorkOrderId: woID, Step: step, Name: name, MimeType: mt, Size: size, MessageVisibility: vis}
	return s.enqueue(ctx, newRow{kind: kind, summary: summary + " " + name, targets: []int64{woID}, messageID: id,
		request: p, spool: filepath.Base(dst)})
}

// AttachFile queues uploading a file to the work order. The file is copied
// now, so it may be moved or deleted as soon as this returns. Work order
// attachments cannot be removed later.
func (s *Store) AttachFile(ctx context.Context, woID int64, path string, vis api.MessageVisibility) (*OutboxRow, error) {
	if _, err := s.expected(ctx, woID); err != nil {
		return nil, err
	}
	return s.upload(ctx, KindAttachment, woID, nil, path, vis, "Attach")
}

// invoiceAllowed checks what invoice operations need locally.
func (s *Store) invoiceAllowed(ctx context.Context, woID int64, editing bool) (*api.WorkOrder, error) {
	wo, err := s.expected(ctx, woID)
	if err != nil {
		return nil, err
	}
	if !wo.InvoiceVisible() {
		return nil, invalid("%s was created before invoicing existed (version 4.1); its invoice opens once the work is completed", label(wo))
	}
	if editing {
		if inv, err := s.Invoice(ctx, woID); err == nil && !inv.Status.Editable() {
			return nil, invalid("the invoice of %s is %s and can no longer be changed", label(wo), inv.Status)
		}
	}
	return wo, nil
}

// SaveInvoice queues replacing the invoice content. Lines keep their Id;
// new lines have Id 0.
func (s *Store) SaveInvoice(ctx context.Context, woID int64, inv api.Invoice) (*OutboxRow, error) {
	wo, err := s.invoiceAllowed(ctx, woID, true)
	if err != nil {
		return nil, err
	}
	if inv.Currency == "" {
		inv.Currency = wo.Currency
	}
	if inv.Currency != wo.Currency {
		return nil, invalid("the invoice is in %s but %s is billed in %s", inv.Currency, label(wo), wo.Currency)
	}
	if err := checkLines(inv.LineItems, inv.Currency); err != nil {
		return nil, err
	}
	if pl, err := s.PriceList(ctx, woID); err == nil {
		for i, l := range inv.LineItems {
			if l.PriceListItemId != 0 && !pl.AllowPriceListItems {
				return nil, invalid("line %d: this customer does not allow price list items", i+1)
			}
			if l.PriceListItemId == 0 && l.Type != api.LineTax && !pl.AllowProviderItems {
				return nil, invalid("line %d: this customer accepts only items from its price list", i+1)
			}
		}
	}
	if err := checkText("comment", inv.Comment, false); err != nil {
		return nil, err
	}
	inv.WorkOrderId = woID
	inv.StampCurrency()
	id := uuid.NewString()
	r := &api.SaveInvoiceRequest{WorkOrderId: woID, Invoice: inv}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindInvoiceSave, summary: "Save invoice", targets: []int64{woID}, messageID: id, request: r})
}

// SubmitInvoice queues submitting the invoice. submitAnyway overrides a tax
// disagreement the service reported (3056).
func (s *Store) SubmitInvoice(ctx context.Context, woID int64, submitAnyway bool) (*OutboxRow, error) {
	wo, err := s.invoiceAllowed(ctx, woID, true)
	if err != nil {
		return nil, err
	}
	switch wo.Status {
	case api.StatusNew, api.StatusAccepted, api.StatusCheckedIn, api.StatusPaused:
		return nil, invalid("%s is %s; check out before submitting the invoice", label(wo), wo.Status)
	case api.StatusRejected, api.StatusRecalled:
		return nil, invalid("%s is %s; it cannot be invoiced", label(wo), wo.Status)
	}
	id := uuid.NewString()
	r := &api.SubmitInvoiceRequest{WorkOrderId: woID, SubmitAnyway: submitAnyway}
	r.MessageId = id
	return s.enqueue(ctx, newRow{kind: KindInvoiceSubmit, summary: "Submit invoice", targets: []int64{woID}, messageID: id, request: r})
}

// DeleteInvoice queues deleting the invoice content.
func (s *Store) DeleteInvoice(ctx context.Context, woID int64) (*OutboxRow, error) {
	if _, err := s.invoiceAllowed(ctx, woID, true); err != nil {
		return nil, err
	}
	return s.enqueue(ctx, newRow{kind: KindInvoiceDelete, summary: "Delete invoice", targets: []int64{woID},
		messageID: uuid.NewString(), request: workOrderPayload{WorkOrderId: woID}})
}

// AddInvoiceAttachment queues uploading a file to the invoice (copied now).
func (s *Store) AddInvoiceAttachment(ctx context.Context, woID int64, path string) (*OutboxRow, error) {
	if _, err := s.invoiceAllowed(ctx, woID, false); err != nil {
		return nil, err
	}
	return s.upload(ctx, KindInvoiceAttachmentAdd, woID, nil, path, "", "Attach to invoice")
}

// RemoveInvoiceAttachment queues removing an invoice attachment.
func (s *Store) RemoveInvoiceAttachment(ctx context.Context, woID int64, attachmentID string) (*OutboxRow, error) {
	if _, err := s.invoiceAllowed(ctx, woID, false); err != nil {
		return nil, err
	}
	if attachmentID == "" {
		return nil, invalid("no attachment chosen")
	}
	return s.enqueue(ctx, newRow{kind: KindInvoiceAttachmentRemove, summary: "Remove invoice attachment", targets: []int64{woID},
		messageID: uuid.NewString(), request: removePayload{WorkOrderId: woID, AttachmentId: attachmentID}})
}

// stepEditable checks that the step exists and its procedure allows
// attachment changes (editable and not marked N/A, spec §2).
func (s *Store) stepEditable(ctx context.Context, step api.StepRef) error {
	wo, err := s.expected(ctx, step.WorkOrderId)
	if err != nil {
		return err
	}
	if !wo.ProceduresEditable() {
		return invalid("%s is %s; step attachments can change only while a work order is accepted, checked in, paused or on hold",
			label(wo), wo.Status)
	}
	for _, p := range wo.Procedures() {
		if p.Id != step.ProcedureId {
			continue
		}
		if p.IsMarkedNa {
			return invalid("the procedure %q is marked not applicable; its step attachments cannot change", p.Name)
		}
		if p.IsReadOnly {
			return invalid("the procedure %q is not editable; its step attachments cannot change", p.Name)
		}
		for _, st := range p.Steps {
			if st.Id == step.StepId {
				return nil
			}
		}
		return invalid("the procedure %q has no step %d", p.Name, step.StepId)
	}
	return invalid("%s has no procedure %d", label(wo), step.ProcedureId)
}

// AddStepAttachment queues uploading a file to a procedure step (copied now).
func (s *Store) AddStepAttachment(ctx context.Context, step api.StepRef, path string) (*OutboxRow, error) {
	if err := s.stepEditable(ctx, step); err != nil {
		return nil, err
	}
	return s.upload(ctx, KindStepAttachmentAdd, step.WorkOrderId, &step, path, "", "Attach to step")
}

// RemoveStepAttachment queues removing a file from a procedure step.
func (s *Store) RemoveStepAttachment(ctx context.Context, step api.StepRef, attachmentID string) (*OutboxRow, error) {
	if err := s.stepEditable(ctx, step); err != nil {
		return nil, err
	}
	if attachmentID == "" {
		return nil, invalid("no attachment chosen")
	}
	return s.enqueue(ctx, newRow{kind: KindStepAttachmentRemove, summary: "Remove step attachment", targets: []int64{step.WorkOrderId},
		messageID: uuid.NewString(), request: removePayload{WorkOrderId: step.WorkOrderId, Step: &step, AttachmentId: attachmentID}})
}

// Retry sends a failed row again, or a row waiting after a network error
// right now. A failed row gets a new MessageId: the service answered the old
// one with a refusal, and a changed situation (quote rejected, invoice fixed)
// is a new request. A bulk row is retried for the work orders that failed.
func (s *Store) Retry(ctx context.Context, rowID int64) (*OutboxRow, error) {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return nil, err
	}
	switch row.State {
	case OutboxPending:
		if _, err := s.w.ExecContext(ctx, `UPDATE outbox SET next_attempt_at = 0, updated_at = ? WHERE id = ? AND state = 'pending'`,
			s.now().UnixMilli(), rowID); err != nil {
			return nil, fmt.Errorf("storage: retrying row %d: %w", rowID, err)
		}
	case OutboxFailed:
		id := uuid.NewString()
		req, targets, err := retryRequest(row, id)
		if err != nil {
			return nil, err
		}
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'pending', message_id = ?, request = ?, error = '', error_code = 0,
 result = '', attempts = 0, next_attempt_at = 0, updated_at = ? WHERE id = ? AND state = 'failed'`,
				id, string(req), s.now().UnixMilli(), rowID)
			if err != nil {
				return err
			}
			if len(targets) > 0 {
				if _, err := tx.ExecContext(ctx, `DELETE FROM outbox_targets WHERE outbox_id = ?`, rowID); err != nil {
					return err
				}
				for _, wo := range targets {
					if _, err := tx.ExecContext(ctx, `INSERT INTO outbox_targets(outbox_id, work_order_id) VALUES (?,?)`, rowID, wo); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("storage: retrying row %d: %w", rowID, err)
		}
	default:
		return nil, invalid("this action is %s; only failed or waiting actions can be retried", row.State)
	}
	s.notify(row.WorkOrderIds)
	s.kickSenders()
	return s.OutboxRow(ctx, rowID)
}

// retryRequest rewrites the stored request with a new MessageId (and, for
// a bulk row, only the work orders that failed).
func retryRequest(row *OutboxRow, messageID string) (json.RawMessage, []int64, error) {
	var m map[string]any
	if err := json.Unmarshal(row.Request, &m); err != nil {
		return nil, nil, fmt.Errorf("storage: reading row %d: %w", row.Id, err)
	}
	if _, ok := m["MessageId"]; ok {
		m["MessageId"] = messageID
	}
	var targets []int64
	if row.Kind == KindBulkAccept || row.Kind == KindBulkReject {
		for _, r := range row.BulkResults {
			if !r.Succeeded() {
				targets = append(targets, r.WorkOrderId)
			}
		}
		if len(targets) > 0 {
			m["WorkOrderIds"] = targets
		}
	}
	b, err := json.Marshal(m)
	return b, targets, err
}

// Discard gives up on a failed or waiting action. Its spooled file is deleted.
func (s *Store) Discard(ctx context.Context, rowID int64) error {
	row, err := s.OutboxRow(ctx, rowID)
	if err != nil {
		return err
	}
	if row.State != OutboxFailed && row.State != OutboxPending {
		return invalid("this action is %s and can no longer be discarded", row.State)
	}
	var spool string
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT spool_file FROM outbox WHERE id = ?`, rowID).Scan(&spool); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE outbox SET state = 'discarded', updated_at = ? WHERE id = ? AND state IN ('failed','pending')`,
			s.now().UnixMilli(), rowID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return invalid("this action is being sent and can no longer be discarded")
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("storage: discarding row %d: %w", rowID, err)
	}
	if spool != "" {
		os.Remove(filepath.Join(s.spool, spool))
	}
	s.notify(row.WorkOrderIds)
	s.kickSenders()
	return nil
}

const outboxColumns = `o.id, o.kind, o.summary, o.message_id, o.request, o.state, o.attempts, o.next_attempt_at,
 o.created_at, o.updated_at, o.error, o.error_code, o.result,
 (SELECT group_concat(t.work_order_id) FROM outbox_targets t WHERE t.outbox_id = o.id)`

func scanOutbox(sc interface{ Scan(...any) error }) (*OutboxRow, error) {
	var r OutboxRow
	var kind, state, req, result string
	var next, created, updated int64
	var targets sql.NullString
	if err := sc.Scan(&r.Id, &kind, &r.Summary, &r.MessageId, &req, &state, &r.Attempts, &next,
		&created, &updated, &r.Error, &r.ErrorCode, &result, &targets); err != nil {
		return nil, err
	}
	r.Kind, r.State, r.Request = OutboxKind(kind), OutboxState(state), json.RawMessage(req)
	if next > 0 {
		r.NextAttempt = time.UnixMilli(next).UTC()
	}
	r.Created, r.Updated = time.UnixMilli(created).UTC(), time.UnixMilli(updated).UTC()
	if result != "" {
		_ = json.Unmarshal([]byte(result), &r.BulkResults) // other kinds keep other results
	}
	switch r.Kind {
	case KindCheckIn, KindPause, KindCheckOut:
		var v api.VisitRequest
		if json.Unmarshal(r.Request, &v) == nil && v.ActualActionDate != nil {
			r.ActionDate = v.ActualActionDate.UTC()
		}
	}
	for _, f := range strings.Split(targets.String, ",") {
		var id int64
		if _, err := fmt.Sscan(f, &id); err == nil {
			r.WorkOrderIds = append(r.WorkOrderIds, id)
		}
	}
	return &r, nil
}

// OutboxRow reads one row.
func (s *Store) OutboxRow(ctx context.Context, rowID int64) (*OutboxRow, error) {
	r, err := scanOutbox(s.r.QueryRowContext(ctx, `SELECT `+outboxColumns+` FROM outbox o WHERE o.id = ?`, rowID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("outbox row %d: %w", rowID, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: reading outbox row %d: %w", rowID, err)
	}
	return r, nil
}

// OutboxRows lists the actions on one work order, oldest first, whatever
// their state (done rows are the history of what was sent).
func (s *Store) OutboxRows(ctx context.Context, woID int64) ([]OutboxRow, error) {
	return s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o JOIN outbox_targets x ON x.outbox_id = o.id
 WHERE x.work_order_id = ? ORDER BY o.id`, woID)
}

// UnfinishedOutbox lists every row not yet done or discarded, oldest first.
func (s *Store) UnfinishedOutbox(ctx context.Context) ([]OutboxRow, error) {
	return s.outboxQuery(ctx, `SELECT `+outboxColumns+` FROM outbox o WHERE o.state IN ('pending','sending','failed') ORDER BY o.id`)
}

func (s *Store) outboxQuery(ctx context.Context, q string, args ...any) ([]OutboxRow, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("storage: reading the outbox: %w", err)
	}
	defer rows.Close()
	var out []OutboxRow
	for rows.Next() {
		r, err := scanOutbox(rows)
		if err != nil {
			return nil, fmt.Errorf("storage: reading the outbox: %w", err)
		}
		out = append(out, *r)
	}
	return out, rows.Err()
}

// OutboxSummary counts actions waiting to be sent (pending or sending) and
// actions the service refused (failed), for the status bar. On a read error
// it logs and reports zeros.
func (s *Store) OutboxSummary(ctx context.Context) (pending, failed int) {
	err := s.r.QueryRowContext(ctx, `SELECT
 COALESCE(SUM(state IN ('pending','sending')), 0), COALESCE(SUM(state = 'failed'), 0)
 FROM outbox WHERE state IN ('pending','sending','failed')`).Scan(&pending, &failed)
	if err != nil {
		s.log.Warn("could not count the outbox", "err", err)
		return 0, 0
	}
	return pending, failed
}
