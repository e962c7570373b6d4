package api

import (
	"encoding/json"
	"log/slog"
	"slices"
	"time"

	"github.com/shopspring/decimal"
)

// Field names follow the service's PascalCase JSON (service-facts §5). Go's
// decoder matches names case-insensitively and ignores unknown fields, so
// "ID"/"Id" variants and fields added by later service versions are tolerated.

// WorkOrderStatus values the service returns and accepts in search filters.
type WorkOrderStatus string

const (
	StatusNew                    WorkOrderStatus = "New"
	StatusAccepted               WorkOrderStatus = "Accepted"
	StatusRejected               WorkOrderStatus = "Rejected"
	StatusRecalled               WorkOrderStatus = "Recalled"
	StatusCheckedIn              WorkOrderStatus = "CheckedIn"
	StatusPaused                 WorkOrderStatus = "Paused"
	StatusCheckedOut             WorkOrderStatus = "CheckedOut"
	StatusOnHold                 WorkOrderStatus = "OnHold"
	StatusVerified               WorkOrderStatus = "Verified"
	StatusNeedsCompletionDetails WorkOrderStatus = "NeedsCompletionDetails"
)

// AllStatuses lists every work order status in life-cycle order.
var AllStatuses = []WorkOrderStatus{
	StatusNew, StatusAccepted, StatusCheckedIn, StatusPaused, StatusCheckedOut,
	StatusNeedsCompletionDetails, StatusVerified, StatusOnHold, StatusRejected, StatusRecalled,
}

// Closed reports whether nothing more can be done on the work order: the
// contractor rejected it or the customer recalled it.
func (s WorkOrderStatus) Closed() bool {
	return s == StatusRejected || s == StatusRecalled
}

// Completed reports whether the work is done on site (the spec's "Completed").
func (s WorkOrderStatus) Completed() bool {
	return s == StatusCheckedOut || s == StatusVerified
}

// QuoteStatus is WorkOrder.Nte.Quote.QuoteStatus (spec §3).
type QuoteStatus string

const (
	QuoteRequested QuoteStatus = "Requested"
	QuoteSubmitted QuoteStatus = "Submitted"
	QuoteApproved  QuoteStatus = "Approved"
	QuoteRejected  QuoteStatus = "Rejected"
)

// AllQuoteStatuses in the order a quote moves through them.
var AllQuoteStatuses = []QuoteStatus{QuoteRequested, QuoteSubmitted, QuoteApproved, QuoteRejected}

// Version41Date is when service version 4.1 shipped: work orders created before it
// are invisible to invoice operations until Completed (spec §9.2).
var Version41Date = time.Date(2018, 9, 13, 0, 0, 0, 0, time.UTC)

type WorkOrder struct {
	WorkOrderId         int64            `json:"WorkOrderId"`
	WorkOrderNumber     string           `json:"WorkOrderNumber"`
	Status              WorkOrderStatus  `json:"Status"`
	Type                string           `json:"Type,omitempty"` // PMRM or Request
	WorkType            *WorkType        `json:"WorkType,omitempty"`
	Created             time.Time        `json:"Created"`
	LastUpdate          time.Time        `json:"LastUpdate"` // assumption: name of the modified stamp the LastUpdate search range filters on
	AccompanyingMessage string           `json:"AccompanyingMessage,omitempty"`
	Schedule            *Schedule        `json:"Schedule,omitempty"`
	Nte                 Nte              `json:"Nte"`
	Currency            string           `json:"Currency"`
	Sla                 *Sla             `json:"Sla,omitempty"`
	WorkDetails         *WorkDetails     `json:"WorkDetails,omitempty"`
	Contact             *Contact         `json:"Contact,omitempty"`
	Customer            Customer         `json:"Customer"`
	ServiceLocation     *ServiceLocation `json:"ServiceLocation,omitempty"`
	IsPreBilled         bool             `json:"IsPreBilled,omitempty"`
	IvrInfo             *IvrInfo         `json:"IvrInfo,omitempty"` // since 4.1
	// BranchId is the contractor branch the work order was dispatched to
	// (search results carry it [CODE]; the full record is assumed to).
	BranchId int64 `json:"BranchId,omitempty"`
	// Associates are who the work order is assigned to. Where a work order
	// lists them is not published (service-facts §5): this name and shape
	// are our guess. nil = the service did not say (unknown, never
	// "nobody"); see Assigned.
	Associates *[]Associate `json:"Associates,omitempty" contract:"guess"`
	// InternalNote is the contractor's internal note as it stands: a
	// property of the work order in GET /api/workOrder and in search
	// results (/docs/working-with-internal-notes, service-facts §16). nil:
	// the answer did not carry it (an older service, another name): the
	// note is then taken from its history (NoteOf).
	InternalNote *string `json:"InternalNote,omitempty"`

	raw []byte // see RawJSON
}

// UnmarshalJSON stamps the work order's currency onto its NTE and quote
// amounts, and keeps a copy of b for RawJSON.
func (w *WorkOrder) UnmarshalJSON(b []byte) error {
	type plain WorkOrder
	if err := json.Unmarshal(b, (*plain)(w)); err != nil {
		return err
	}
	w.StampCurrency()
	// The decoder owns b and reuses it after we return.
	w.raw = append([]byte(nil), b...)
	return nil
}

// RawJSON is the JSON this work order was decoded from, or nil when it was
// built in code. A replica can store it as it came instead of encoding the
// struct again, which costs as much as decoding did. It does not follow
// later changes to the fields: only a record used as decoded may be stored
// from it.
func (w *WorkOrder) RawJSON() []byte { return w.raw }

// StampCurrency labels every amount of the work order with WorkOrder.Currency.
func (w *WorkOrder) StampCurrency() {
	w.Nte.Amount.Currency = w.Currency
	if w.Nte.Quote != nil {
		w.Nte.Quote.Amount.Currency = w.Currency
		for i := range w.Nte.Quote.LineItems {
			w.Nte.Quote.LineItems[i].stamp(w.Currency)
		}
	}
}

// ScheduledStart is Schedule.ScheduledStart, or the zero time when unscheduled.
func (w *WorkOrder) ScheduledStart() time.Time {
	if w.Schedule == nil || w.Schedule.ScheduledStart == nil {
		return time.Time{}
	}
	return *w.Schedule.ScheduledStart
}

// SiteName is the human name of where the work happens.
func (w *WorkOrder) SiteName() string {
	if w.ServiceLocation == nil {
		return ""
	}
	return w.ServiceLocation.SpaceName
}

// InvoiceVisible reports whether invoice operations can see this work order:
// orders created before version 4.1 only once Completed (spec §9.2).
func (w *WorkOrder) InvoiceVisible() bool {
	return !w.Created.Before(Version41Date) || w.Status.Completed()
}

// Procedures returns the work order's procedures (nil when it has none).
func (w *WorkOrder) Procedures() []Procedure {
	if w.WorkDetails == nil {
		return nil
	}
	return w.WorkDetails.Procedures
}

type WorkType struct {
	Name string `json:"Name"`
}

type Schedule struct {
	ScheduledStart *time.Time `json:"ScheduledStart,omitempty"`
	Pte            string     `json:"Pte,omitempty"` // access type: Appointment, CallFirst, ...
}

// Nte is the not-to-exceed data. Amount 0 means no limit.
type Nte struct {
	Amount Money  `json:"Amount"`
	Quote  *Quote `json:"Quote,omitempty"`
}

// NoLimit reports whether the NTE imposes no limit (Amount 0, spec §2).
func (n Nte) NoLimit() bool { return n.Amount.IsZero() }

type Quote struct {
	Amount      Money       `json:"Amount"`
	Comment     string      `json:"Comment,omitempty"`
	QuoteStatus QuoteStatus `json:"QuoteStatus"`
	// LineItems: quote line items chosen from the price list; the property
	// name is not published (service-facts §4.1), this one is our assumption.
	LineItems []LineItem `json:"LineItems,omitempty"`
}

type Sla struct {
	AcknowledgeBy *time.Time `json:"AcknowledgeBy,omitempty"`
	OnSiteBy      *time.Time `json:"OnSiteBy,omitempty"`
	DueDate       *time.Time `json:"DueDate,omitempty"`
	PriorityId    int        `json:"PriorityId,omitempty"`
	PriorityName  string     `json:"PriorityName,omitempty"`
	IsEmergency   bool       `json:"IsEmergency,omitempty"`
}

type WorkDetails struct {
	CheckList  []CheckListItem `json:"CheckList,omitempty"` // legacy, before procedures
	Procedures []Procedure     `json:"Procedures,omitempty"`
	Assets     []Asset         `json:"Assets,omitempty"`
}

type Asset struct {
	Id        int64  `json:"Id"`
	Path      string `json:"Path,omitempty"`
	Task      string `json:"Task,omitempty"`
	AssetName string `json:"AssetName,omitempty"`
	Comment   string `json:"Comment,omitempty"`
}

type Procedure struct {
	Id     int64  `json:"Id"`
	Order  int    `json:"Order"`
	Name   string `json:"Name"`
	Status string `json:"Status,omitempty"`
	// AllowMarkNotApplicable: whether the customer lets the procedure be
	// marked N/A (GET /api/procedure returns it, /docs/completing-procedures).
	// nil: the answer did not say (the work order's WorkDetails may not
	// carry it): unknown, and unknown locks nothing (MarkNAAllowed).
	AllowMarkNotApplicable *bool `json:"AllowMarkNotApplicable,omitempty"`
	IsMarkedNa             bool  `json:"IsMarkedNa,omitempty"` // as in the ProcedureMarked notification
	// IsReadOnly: the service names no field for "not editable"; this name is our assumption.
	IsReadOnly bool   `json:"IsReadOnly,omitempty"`
	Asset      *Asset `json:"Asset,omitempty"`
	Steps      []Step `json:"Steps,omitempty"`
}

// ProcedureEditStates are the work order statuses in which its procedures,
// step attachments included, can change. Assumption: spec.md says step
// attachments change only while the procedure is "editable" without defining
// it; service-facts §7 allows procedure and check-list edits only in these.
var ProcedureEditStates = []WorkOrderStatus{StatusAccepted, StatusCheckedIn, StatusPaused, StatusOnHold}

// ProceduresEditable reports whether the work order's status lets its
// procedures change; StepAttachmentsEditable adds the per-procedure checks.
func (w *WorkOrder) ProceduresEditable() bool { return slices.Contains(ProcedureEditStates, w.Status) }

// StepAttachmentsEditable reports whether p's step attachments can change:
// the one rule (spec §2) so callers do not each re-spell it.
func (w *WorkOrder) StepAttachmentsEditable(p Procedure) bool {
	return w.CanChangeProcedure(p) == nil
}

type Step struct {
	Id          int64  `json:"Id"`
	Order       int    `json:"Order"`
	Status      string `json:"Status,omitempty"` // Unknown, Open, NA, Done
	IsRequired  bool   `json:"IsRequired,omitempty"`
	Description string `json:"Description,omitempty"`
	StepType    string `json:"StepType,omitempty"`
	Label       string `json:"Label,omitempty"`
	DataType    string `json:"DataType,omitempty"`
	Value       string `json:"Value,omitempty"`
	Comment     string `json:"Comment,omitempty"`
	Currency    string `json:"Currency,omitempty"`
}

type Contact struct {
	FullName  string   `json:"FullName,omitempty"`
	ContactAt string   `json:"ContactAt,omitempty"`
	Phones    []string `json:"Phones,omitempty"`
	Emails    []string `json:"Emails,omitempty"`
}

type Customer struct {
	Id   int64  `json:"Id"`
	Name string `json:"Name"`
}

type ServiceLocation struct {
	SpaceName string   `json:"SpaceName,omitempty"`
	SpaceId   int64    `json:"SpaceId,omitempty"`
	Address   *Address `json:"Address,omitempty"`
}

type Address struct {
	Street1    string `json:"Street1,omitempty"`
	Street2    string `json:"Street2,omitempty"`
	City       string `json:"City,omitempty"`
	State      string `json:"State,omitempty"`
	Country    string `json:"Country,omitempty"`
	PostalCode string `json:"PostalCode,omitempty"`
}

// IvrInfo: present since 4.1 when IVR data exists; its fields are not
// published, these are our assumption of what a technician dials.
type IvrInfo struct {
	PhoneNumber   string `json:"PhoneNumber,omitempty"`
	Pin           string `json:"Pin,omitempty"`
	ReferenceCode string `json:"ReferenceCode,omitempty"`
}

type GeoLocation struct {
	Latitude  float64 `json:"Latitude"` // degrees, not money: float is fine here
	Longitude float64 `json:"Longitude"`
}

// InvoiceStatus: PendingVerification, Authorized and Paid are documented; the
// draft, submitted and disputed names are the simulator suggestion of
// service-facts §8, an assumption until the real enumeration is known.
type InvoiceStatus string

const (
	InvoiceDraft               InvoiceStatus = "Draft"
	InvoicePendingVerification InvoiceStatus = "PendingVerification"
	InvoiceSubmitted           InvoiceStatus = "Submitted"
	InvoiceDisputed            InvoiceStatus = "Disputed"
	InvoiceAuthorized          InvoiceStatus = "Authorized"
	InvoicePaid                InvoiceStatus = "Paid"
)

// AllInvoiceStatuses lists every invoice status this client knows, in the
// order an invoice usually moves through them.
var AllInvoiceStatuses = []InvoiceStatus{
	InvoiceDraft, InvoicePendingVerification, InvoiceSubmitted, InvoiceDisputed, InvoiceAuthorized, InvoicePaid,
}

// Editable reports whether the client offers to change the invoice in this
// status. Only the statuses known to be out of the contractor's hands lock
// it: the names of the draft and submitted statuses are guesses (service-facts
// §14), so a status we do not know must not lock the invoice. The service
// judges, and refuses with 3036 when it is not editable after all.
// PendingVerification is not one of them: at customers that verify the
// work first, the invoice waits there before it can be submitted (§15),
// and its lines can be prepared meanwhile.
func (s InvoiceStatus) Editable() bool {
	switch s {
	case InvoiceSubmitted, InvoiceAuthorized, InvoicePaid:
		return false
	}
	return true
}

// AwaitsVerification reports an invoice that cannot be submitted until the
// customer has verified the work (PendingVerification): not submitted yet.
func (s InvoiceStatus) AwaitsVerification() bool { return s == InvoicePendingVerification }

type Invoice struct {
	WorkOrderId int64 `json:"WorkOrderId"`
	// InvoiceNumber and InvoiceDate are guessed names (service-facts §4.6
	// documents a number and a date, §16 not their names). Wrong, the
	// service's answer does not carry them: then submit does not require
	// them (SubmitChecks), the service judges (3052) and its refusal is
	// shown; doctor --contract lists them "not sent (we do without)".
	InvoiceNumber      string        `json:"InvoiceNumber,omitempty" contract:"guess"`
	InvoiceDate        *time.Time    `json:"InvoiceDate,omitempty" contract:"guess"`
	Status             InvoiceStatus `json:"Status,omitempty"`
	Currency           string        `json:"Currency,omitempty"`
	LineItems          []LineItem    `json:"LineItems"`
	DiscountAmount     Money         `json:"DiscountAmount"`
	TotalAmount        Money         `json:"TotalAmount"`
	SubmissionDeadline *time.Time    `json:"SubmissionDeadline,omitempty"`
	IsPreBilled        bool          `json:"IsPreBilled,omitempty"`
	Comment            string        `json:"Comment,omitempty"` // dispute reason
	AuthNumber         string        `json:"AuthNumber,omitempty"`
	CheckNumber        string        `json:"CheckNumber,omitempty"`
	PaidDate           *time.Time    `json:"PaidDate,omitempty"`

	// Whether the answer this invoice was decoded from carried the
	// guessed names (see Unsent).
	number, date carried
}

// carried is whether an answer carried a guessed name: built in code (the
// zero value, written as any other field), carried (written even when
// empty, so that the replica's copy still carries it), or not carried
// (written only once it has a value).
type carried int8

const (
	builtInCode carried = iota
	wasCarried
	notCarried
)

func carriedIf(present bool) carried {
	if present {
		return wasCarried
	}
	return notCarried
}

// invoicePresence is what an answer carried of the guessed names.
type invoicePresence struct {
	InvoiceNumber json.RawMessage
	InvoiceDate   json.RawMessage
	LineItems     []struct{ Type json.RawMessage }
}

func (inv *Invoice) UnmarshalJSON(b []byte) error {
	type plain Invoice
	if err := json.Unmarshal(b, (*plain)(inv)); err != nil {
		return err
	}
	var p invoicePresence
	if err := json.Unmarshal(b, &p); err == nil {
		inv.number, inv.date = carriedIf(len(p.InvoiceNumber) > 0), carriedIf(len(p.InvoiceDate) > 0)
		for i := range min(len(p.LineItems), len(inv.LineItems)) {
			inv.LineItems[i].typ = carriedIf(len(p.LineItems[i].Type) > 0)
		}
	}
	inv.StampCurrency()
	return nil
}

// MarshalJSON writes InvoiceNumber and InvoiceDate whenever the answer
// they came from carried them, empty too ("" and null), so a copy read
// back still says the service carries them; when it did not, only once
// they have a value, as before.
func (inv Invoice) MarshalJSON() ([]byte, error) {
	type plain Invoice
	w := struct {
		plain
		InvoiceNumber *string         `json:"InvoiceNumber,omitempty"`
		InvoiceDate   json.RawMessage `json:"InvoiceDate,omitempty"`
	}{plain: plain(inv)}
	if inv.InvoiceNumber != "" || inv.number != notCarried {
		w.InvoiceNumber = &inv.InvoiceNumber
	}
	switch {
	case inv.InvoiceDate != nil:
		d, err := json.Marshal(inv.InvoiceDate)
		if err != nil {
			return nil, err
		}
		w.InvoiceDate = d
	case inv.date != notCarried:
		w.InvoiceDate = json.RawMessage("null")
	}
	return json.Marshal(w)
}

// Unsent lists the guessed names the service's answer did not carry
// ("InvoiceNumber", "InvoiceDate", "LineItems[].Type" when a line lacked
// it): submit does not require them (SubmitChecks), as we cannot know
// what the service calls them. Nil for an invoice built in code.
func (inv *Invoice) Unsent() []string {
	var out []string
	if inv.number == notCarried {
		out = append(out, "InvoiceNumber")
	}
	if inv.date == notCarried {
		out = append(out, "InvoiceDate")
	}
	if slices.ContainsFunc(inv.LineItems, func(l LineItem) bool { return l.typ == notCarried }) {
		out = append(out, "LineItems[].Type")
	}
	return out
}

// StampCurrency labels every amount of the invoice with Invoice.Currency.
func (inv *Invoice) StampCurrency() {
	inv.DiscountAmount.Currency = inv.Currency
	inv.TotalAmount.Currency = inv.Currency
	for i := range inv.LineItems {
		inv.LineItems[i].stamp(inv.Currency)
	}
}

// LineItemType: Labor, Tax and PriceList are documented; Material, Travel and
// Other are our assumption for the remaining provider categories.
type LineItemType string

const (
	LineLabor     LineItemType = "Labor"
	LineMaterial  LineItemType = "Material"
	LineTravel    LineItemType = "Travel"
	LineOther     LineItemType = "Other"
	LineTax       LineItemType = "Tax"
	LinePriceList LineItemType = "PriceList"
)

type LineItem struct {
	Id int64 `json:"Id,omitempty"` // 0 = new line
	// Type is a guessed name (service-facts §4.6: "every line has a valid
	// category"; §16). A line whose answer did not carry it is not
	// required to have one at submit: the service judges.
	Type            LineItemType    `json:"Type,omitempty" contract:"guess"`
	Description     string          `json:"Description"`
	Quantity        decimal.Decimal `json:"Quantity"`
	Rate            Money           `json:"Rate"`
	Subtotal        Money           `json:"Subtotal"`
	PriceListItemId int64           `json:"PriceListItemId,omitempty"`

	typ carried // whether the answer carried Type (see Invoice.Unsent)
}

// MarshalJSON writes Quantity as a JSON number, as the service's decimal
// properties are (a decimal.Decimal alone marshals as a quoted string),
// and Type always, but where the answer the line came from did not carry
// it (then once it has a value).
func (l LineItem) MarshalJSON() ([]byte, error) {
	type plain LineItem
	w := struct {
		plain
		Type     *LineItemType   `json:"Type,omitempty"`
		Quantity json.RawMessage `json:"Quantity"`
	}{plain: plain(l), Quantity: json.RawMessage(l.Quantity.String())}
	if l.Type != "" || l.typ != notCarried {
		w.Type = &l.Type
	}
	return json.Marshal(w)
}

// TypeRequired reports whether submit requires the line to have a Type:
// not when the service's answer did not carry one.
func (l LineItem) TypeRequired() bool { return l.typ != notCarried }

func (l *LineItem) stamp(currency string) {
	l.Rate.Currency = currency
	l.Subtotal.Currency = currency
}

// ComputedSubtotal is Quantity × Rate rounded to the currency's minor units.
func (l LineItem) ComputedSubtotal() Money {
	return Money{Amount: l.Quantity.Mul(l.Rate.Amount), Currency: l.Rate.Currency}.Round()
}

// PriceList is the answer of GET /api/invoice/pricelist: which line modes the
// customer allows and its predefined items.
//
// Its schema is not published: the two modes are Flags, and a mode the
// answer does not state is not "forbidden": the service judges the line.
type PriceList struct {
	AllowProviderItems  Flag            `json:"AllowProviderItems"`  // free lines allowed
	AllowPriceListItems Flag            `json:"AllowPriceListItems"` // price-list lines allowed
	Currency            string          `json:"Currency,omitempty"`
	Items               []PriceListItem `json:"Items"`
}

func (p *PriceList) UnmarshalJSON(b []byte) error {
	type plain PriceList
	if err := json.Unmarshal(b, (*plain)(p)); err != nil {
		return err
	}
	if len(p.Items) == 0 {
		// Items under a key we do not know are not "no items".
		var fields map[string]json.RawMessage
		if json.Unmarshal(b, &fields) == nil {
			if _, err := fieldList(fields, "GET /api/invoice/pricelist", "Items"); err != nil {
				return err
			}
		}
	}
	for i := range p.Items {
		p.Items[i].Rate.Currency = p.Currency
	}
	return nil
}

type PriceListItem struct {
	Id             int64        `json:"Id"`
	Description    string       `json:"Description"`
	Type           LineItemType `json:"Type,omitempty"` // category the line takes
	Unit           string       `json:"Unit,omitempty"`
	Rate           Money        `json:"Rate"`
	IsRateReadOnly bool         `json:"IsRateReadOnly,omitempty"`
}

// MessageVisibility values (service-facts §4.3, §4.4).
type MessageVisibility string

const (
	VisibilityAll      MessageVisibility = "All"
	VisibilityCruOnly  MessageVisibility = "CruOnly"
	VisibilityCruLeads MessageVisibility = "CruLeads"
	VisibilityCruSubs  MessageVisibility = "CruSubs"
	VisibilityNone     MessageVisibility = "None"
)

var AllVisibilities = []MessageVisibility{VisibilityAll, VisibilityCruOnly, VisibilityCruLeads, VisibilityCruSubs, VisibilityNone}

// CustomerSees reports whether the customer reads a message of visibility
// v: All and CruLeads reach them; the others stay on our side. A value the
// service does not document (or none, a customer's own message) is taken
// as seen: a note never looks private when it may not be.
func (v MessageVisibility) CustomerSees() bool {
	switch v {
	case VisibilityCruOnly, VisibilityCruSubs, VisibilityNone:
		return false
	}
	return true
}

type Sender struct {
	Name  string `json:"Name,omitempty"`
	Phone string `json:"Phone,omitempty"`
	Type  string `json:"Type,omitempty"` // CorrigoPro or Customer
}

type Message struct {
	Id                int64             `json:"Id,omitempty"`
	WorkOrderId       int64             `json:"WorkOrderId"`
	Text              string            `json:"Text"`
	MessageVisibility MessageVisibility `json:"MessageVisibility,omitempty"`
	Sender            *Sender           `json:"Sender,omitempty"`
	Created           time.Time         `json:"Created"`
}

// Attachment is metadata of a work order or invoice attachment.
type Attachment struct {
	AttachmentId      string            `json:"AttachmentId"`
	Name              string            `json:"Name"`
	MimeType          string            `json:"MimeType,omitempty"`
	Size              int64             `json:"Size,omitempty"`
	DocumentType      string            `json:"DocumentType,omitempty"`
	MessageVisibility MessageVisibility `json:"MessageVisibility,omitempty"`
	Created           time.Time         `json:"Created"`
}

// StepAttachment is an attachment bound to one step of a procedure.
type StepAttachment struct {
	Attachment
	WorkOrderId int64 `json:"WorkOrderId"`
	ProcedureId int64 `json:"ProcedureId"`
	StepId      int64 `json:"StepId"`
}

// StepRef names one procedure step of a work order.
type StepRef struct {
	WorkOrderId int64
	ProcedureId int64
	StepId      int64
}

// DownloadURL is a temporary link (15 minutes for step attachments). It must
// never be persisted or logged: String and LogValue hide the URL itself.
type DownloadURL struct {
	URL string `json:"Url"`
	// ExpiresAt: our guess at a field the service may not send; without it
	// the documented 15 minutes from the request count.
	ExpiresAt time.Time `json:"ExpiresAt,omitzero"`
}

// Remaining is how long the link stays valid after now (0 once expired).
func (d DownloadURL) Remaining(now time.Time) time.Duration {
	if r := d.ExpiresAt.Sub(now); r > 0 {
		return r
	}
	return 0
}

func (d DownloadURL) String() string {
	return "download link (expires " + d.ExpiresAt.UTC().Format(time.RFC3339) + ")"
}

// LogValue keeps the link itself out of slog output, whatever the handler.
func (d DownloadURL) LogValue() slog.Value { return slog.StringValue(d.String()) }
