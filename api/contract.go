package api

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// The contract check: the first contact with a customer's real service
// tells us, in plain words, everything we guessed wrong. With the
// configured credentials it makes each read the app relies on once (never
// a write) and compares each answer with what the app decodes from it: the
// fields we read that were missing, the fields present that we do not
// know, the values of another type, and the keys of list answers. The
// fields the app reads are those of the api types it decodes into (one
// source: what the client decodes is what is checked); a field tagged
// omitempty (or omitzero) may be absent, every other one is expected. A
// field tagged contract:"guess" is a name we guessed that the app does
// without: absent, at any depth, it is named as "not sent (we do
// without)". The report ends with the shape of every body the app writes
// (WriteShapes), none of them sent, for an integrator to hold against
// their account's documentation.

// ContractCall is what one read's answer held against what we decode.
type ContractCall struct {
	Call     string   // "GET /api/customerSettings?customerId=4102"
	Err      string   // the call failed, or was not made (Skipped)
	Skipped  bool     // nothing to read it for (no attachment, no procedure)
	Missing  []string // fields we read that were not in the answer
	Absent   []string // fields we read if sent, and do without (single answers only)
	Unknown  []string // fields in the answer we do not read
	Mistyped []string // "Sla.DueDate: a number where we read a date"
	Lists    []string // where a list answer's items were: "Messages: 3 items"
	raw      []byte
	name     string // file name of its saved answer
}

// OK reports whether everything we read was there, as we read it.
func (c ContractCall) OK() bool {
	return c.Skipped || c.Err == "" && len(c.Missing) == 0 && len(c.Mistyped) == 0
}

// ContractReport is the contract check of one service.
type ContractReport struct {
	Service string
	Calls   []ContractCall
	// Writes are the bodies the app sends, shown by shape (none is sent).
	Writes []WriteShape
}

// OK reports whether every read the app relies on found what it reads.
func (r *ContractReport) OK() bool {
	for _, c := range r.Calls {
		if !c.OK() {
			return false
		}
	}
	return len(r.Calls) > 0
}

// Text is the report as a person reads it (the same in `workdesk doctor
// --contract` and in the window).
func (r *ContractReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Contract check of %s: each read the app relies on, made once (nothing was written).\n", r.Service)
	for _, c := range r.Calls {
		mark := "ok  "
		switch {
		case c.Skipped:
			mark = "skip"
		case !c.OK():
			mark = "FAIL"
		case len(c.Unknown) > 0:
			mark = "note"
		}
		fmt.Fprintf(&b, "\n%s  %s\n", mark, c.Call)
		if c.Err != "" {
			fmt.Fprintf(&b, "      %s\n", c.Err)
		}
		list := func(what string, items []string) {
			if len(items) > 0 {
				fmt.Fprintf(&b, "      %s: %s\n", what, strings.Join(items, ", "))
			}
		}
		list("missing (we read these)", c.Missing)
		list("not sent (we do without)", c.Absent)
		list("another type", c.Mistyped)
		list("present, we do not read", c.Unknown)
		list("list", c.Lists)
	}
	if len(r.Writes) > 0 {
		b.WriteString("\nThe writes the app sends, by the shape of what they carry (none was sent; a name with ? goes only when set):\n")
		for _, w := range r.Writes {
			fmt.Fprintf(&b, "  %s\n", w.Line())
		}
	}
	if r.OK() {
		b.WriteString("\nEverything the app reads was there.\n")
	} else {
		b.WriteString("\nSome of what the app reads was not where we expect it: the lines marked FAIL say what. " +
			"Where a yes/no or a list was not found the app does not lock anything; the service judges. " +
			"Save the answers (they are anonymised) and send them with a support request.\n")
	}
	return b.String()
}

// contractField is one field of an api type as the app reads it.
type contractField struct {
	name     string
	optional bool
	guess    bool // contract:"guess": a guessed name the app does without
	typ      reflect.Type
}

var (
	typeTime    = reflect.TypeFor[time.Time]()
	typeMoney   = reflect.TypeFor[Money]()
	typeFlag    = reflect.TypeFor[Flag]()
	typeFieldID = reflect.TypeFor[FieldID]()
	typeDecimal = reflect.TypeFor[decimal.Decimal]()
	typeRaw     = reflect.TypeFor[json.RawMessage]()
)

// fieldsOf lists the JSON fields the app decodes from struct type t,
// embedded structs' included.
func fieldsOf(t reflect.Type) []contractField {
	var out []contractField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				out = append(out, fieldsOf(ft)...)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		out = append(out, contractField{name: name, optional: optional, guess: f.Tag.Get("contract") == "guess", typ: f.Type})
	}
	return out
}

// inspection collects what one answer held against a type, by path.
type inspection struct {
	missing, absent, unknown, mistyped map[string]bool
	guessed                            map[string]bool // guessed names absent, at any depth
	unknownOK                          bool            // search results: basic data, only some of it read
}

func newInspection() *inspection {
	return &inspection{missing: map[string]bool{}, absent: map[string]bool{}, unknown: map[string]bool{}, mistyped: map[string]bool{},
		guessed: map[string]bool{}}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// walk compares v (decoded JSON) with what type t reads at path.
func (in *inspection) walk(v any, t reflect.Type, path string) {
	if v == nil {
		return // null: present, and empty
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := ""
	switch {
	case t == typeTime:
		if s, ok := v.(string); !ok {
			want = "a date"
		} else if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			if _, err := time.Parse("2006-01-02T15:04:05.9999999", s); err != nil {
				want = "a date (ISO 8601)"
			}
		}
	case t == typeMoney || t == typeDecimal:
		switch x := v.(type) {
		case json.Number:
		case string:
			if _, err := decimal.NewFromString(x); err != nil {
				want = "an amount"
			}
		default:
			want = "an amount"
		}
	case t == typeFlag:
		if _, ok := v.(bool); !ok {
			want = "true or false"
		}
	case t == typeFieldID:
		switch v.(type) {
		case string, json.Number:
		default:
			want = "an id"
		}
	case t == typeRaw || t.Kind() == reflect.Interface:
	case t.Kind() == reflect.String:
		if _, ok := v.(string); !ok {
			want = "text"
		}
	case t.Kind() == reflect.Bool:
		if _, ok := v.(bool); !ok {
			want = "true or false"
		}
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		n, ok := v.(json.Number)
		if _, err := n.Int64(); !ok || err != nil {
			want = "a whole number"
		}
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			want = "a number"
		}
	case t.Kind() == reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			want = "a list"
			break
		}
		for _, it := range items {
			in.walk(it, t.Elem(), path+"[]")
		}
	case t.Kind() == reflect.Map:
		if _, ok := v.(map[string]any); !ok {
			want = "an object"
		}
	case t.Kind() == reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			want = "an object"
			break
		}
		in.object(obj, t, path)
	}
	if want != "" {
		in.mistyped[fmt.Sprintf("%s (%s where we read %s)", orRoot(path), jsonKind(v), want)] = true
	}
}

func orRoot(path string) string {
	if path == "" {
		return "the answer"
	}
	return path
}

// object compares a JSON object with struct type t: Go's decoder matches
// names case-insensitively, and so does the check.
func (in *inspection) object(obj map[string]any, t reflect.Type, path string) {
	seen := map[string]bool{}
	for _, f := range fieldsOf(t) {
		key, found := "", false
		for k := range obj {
			if strings.EqualFold(k, f.name) {
				key, found = k, true
				break
			}
		}
		if !found {
			switch {
			case !f.optional:
				in.missing[join(path, f.name)] = true
			case f.guess:
				in.guessed[join(path, f.name)] = true
			case !strings.Contains(path, "[]") && strings.Count(path, ".") == 0:
				in.absent[join(path, f.name)] = true
			}
			continue
		}
		seen[key] = true
		in.walk(obj[key], f.typ, join(path, f.name))
	}
	if in.unknownOK {
		return
	}
	for k := range obj {
		if !seen[k] {
			in.unknown[join(path, k)] = true
		}
	}
}

func jsonKind(v any) string {
	switch x := v.(type) {
	case string:
		return "text"
	case json.Number:
		return "a number"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%T", x)
	}
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// decodeAny parses an answer keeping numbers as written.
func decodeAny(raw []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// contractShape is what one read is decoded into: the envelope's key and
// the type under it ("" = the whole answer is t), whether it is a list.
type contractShape struct {
	key       string
	typ       reflect.Type
	list      bool
	unknownOK bool
	// alt are other keys the app reads the list under (the note history's
	// decoder tries several): found under one, the answer is read.
	alt []string
}

// Every envelope echoes MessageId (service-facts §3); it is not read.
var envelopeKeys = []string{"MessageId"}

// inspect checks raw against shape and fills c.
func inspect(c *ContractCall, raw []byte, shape contractShape) {
	c.raw = raw
	v, err := decodeAny(raw)
	if err != nil {
		c.Err = "the answer is not JSON: " + err.Error()
		return
	}
	in := newInspection()
	in.unknownOK = shape.unknownOK
	if shape.key == "" {
		in.walk(v, shape.typ, "")
	} else {
		obj, ok := v.(map[string]any)
		if !ok {
			if items, isList := v.([]any); isList && shape.list {
				c.Lists = append(c.Lists, fmt.Sprintf("a bare list of %d items (we read %s)", len(items), shape.key))
				in.walk(items, reflect.SliceOf(shape.typ), shape.key)
			} else {
				in.mistyped[fmt.Sprintf("the answer (%s where we read an object)", jsonKind(v))] = true
			}
		} else {
			key, found := "", false
			for k := range obj {
				if strings.EqualFold(k, shape.key) {
					key, found = k, true
				}
			}
			for _, a := range shape.alt {
				for k := range obj {
					if !found && strings.EqualFold(k, a) {
						key, found = k, true
					}
				}
			}
			typ := shape.typ
			if shape.list {
				typ = reflect.SliceOf(typ)
				var arrays []string
				for k, x := range obj {
					if items, isList := x.([]any); isList {
						arrays = append(arrays, fmt.Sprintf("%s: %d items", k, len(items)))
					}
				}
				slices.Sort(arrays)
				c.Lists = append(c.Lists, arrays...)
				if !found && len(arrays) == 0 {
					c.Lists = append(c.Lists, "none (an empty list, or no key at all)")
				}
			}
			switch {
			case found:
				in.walk(obj[key], typ, shape.key)
			case shape.list && len(c.Lists) > 0 && !strings.HasPrefix(c.Lists[0], "none"):
				in.missing[shape.key] = true
			case !shape.list:
				in.missing[shape.key] = true
			}
			for k := range obj {
				if k != key && !slices.ContainsFunc(envelopeKeys, func(e string) bool { return strings.EqualFold(e, k) }) {
					in.unknown[k] = true
				}
			}
		}
	}
	c.Missing, c.Unknown, c.Mistyped = sortedKeys(in.missing), sortedKeys(in.unknown), sortedKeys(in.mistyped)
	if !shape.list {
		maps.Copy(in.guessed, in.absent)
	}
	c.Absent = sortedKeys(in.guessed)
}

// searchItem is what the sync reads of a search result ("basic data").
type searchItem struct {
	WorkOrderId     int64     `json:"WorkOrderId"`
	WorkOrderNumber string    `json:"WorkOrderNumber,omitempty"`
	LastUpdate      time.Time `json:"LastUpdate"` // our guess at the modified stamp
	// InternalNote: search results carry the note (/docs/working-with-internal-notes).
	InternalNote *string `json:"InternalNote,omitempty"`
}

// contractWorkOrder is WorkOrder without its decoder, for fieldsOf.
type contractWorkOrder WorkOrder

// CheckContract makes each read the app relies on once with c and reports
// what each answer held against what the app decodes; report, when set, is
// told of each call as it ends. It never writes to the service.
func CheckContract(ctx context.Context, c *Client, report func(ContractCall)) *ContractReport {
	r := &ContractReport{Service: c.BaseURL(), Writes: WriteShapes()}
	add := func(call ContractCall) {
		call.name = fmt.Sprintf("%02d-%s.json", len(r.Calls)+1, slug(call.Call))
		r.Calls = append(r.Calls, call)
		if report != nil {
			report(call)
		}
	}
	get := func(call, path string, q url.Values, shape contractShape) (ContractCall, []byte) {
		cc := ContractCall{Call: "GET /" + path + "?" + q.Encode()}
		if ids := q["ids"]; len(ids) > 1 {
			cc.Call = fmt.Sprintf("GET /%s?ids=%s (%d work orders)", path, ids[0], len(ids))
		}
		var raw json.RawMessage
		if err := c.getJSON(ctx, path, maps.Clone(q), &raw); err != nil {
			cc.Err = Plain(err)
			if cc.Err == "" {
				cc.Err = err.Error()
			}
			add(cc)
			return cc, nil
		}
		if len(raw) == 0 {
			raw = json.RawMessage("{}")
		}
		inspect(&cc, raw, shape)
		add(cc)
		return cc, raw
	}

	// Search: the last 30 days, else everything (basic data only).
	since := time.Now().Add(-30 * 24 * time.Hour)
	search := ContractCall{Call: "POST /api/workOrder/search"}
	var found []WorkOrder
	for _, p := range []SearchParameters{{LastUpdate: &DateRange{From: &since}}, {}} {
		var raw json.RawMessage
		if err := c.sendJSON(ctx, "POST", "api/workOrder/search", &searchRequest{Parameters: p}, &raw); err != nil {
			search.Err = err.Error()
			break
		}
		search = ContractCall{Call: search.Call}
		inspect(&search, raw, contractShape{key: "WorkOrders", typ: reflect.TypeFor[searchItem](), list: true, unknownOK: true})
		found, _ = decodeWorkOrders(raw, search.Call)
		if len(found) > 0 {
			break
		}
	}
	add(search)
	if len(found) == 0 {
		if search.Err == "" {
			add(ContractCall{Call: "GET /api/workOrder", Skipped: true, Err: "no work order to read: the search found none"})
		}
		return r
	}
	ids := make([]int64, 0, MaxReadBatch)
	for i := len(found) - 1; i >= 0 && len(ids) < 20; i-- { // the newest, last in LastUpdate order
		ids = append(ids, found[i].WorkOrderId)
	}
	q := url.Values{}
	for _, id := range ids {
		q.Add("ids", strconv.FormatInt(id, 10))
	}
	_, raw := get("work orders", "api/workOrder", q, contractShape{key: "WorkOrders", typ: reflect.TypeFor[contractWorkOrder](), list: true})
	wos, _ := decodeWorkOrders(raw, "GET /api/workOrder")
	if len(wos) == 0 {
		return r
	}
	main := wos[0]
	for _, w := range wos {
		if w.InvoiceVisible() && w.Customer.Id != 0 {
			main = w
			break
		}
	}
	id := idQuery(main.WorkOrderId)
	// Every customer of the work orders looked at: customers are few, and
	// each may answer a part the others leave out (questions, codes).
	var customers []int64
	for _, w := range append([]WorkOrder{main}, wos...) {
		if w.Customer.Id != 0 && !slices.Contains(customers, w.Customer.Id) && len(customers) < 6 {
			customers = append(customers, w.Customer.Id)
		}
	}
	for _, cust := range customers {
		get("customer settings", "api/customerSettings", url.Values{"customerId": {strconv.FormatInt(cust, 10)}},
			contractShape{key: "CustomerSettings", typ: reflect.TypeFor[CustomerSettings]()})
	}
	// The invoice: one with lines, so that theirs are looked at too (the
	// main work order's, else the first of the others that has some,
	// finished work first, found quietly, ten calls at most).
	finishedFirst := slices.Clone(wos)
	slices.SortStableFunc(finishedFirst, func(a, b WorkOrder) int {
		switch {
		case a.Status.Completed() == b.Status.Completed():
			return 0
		case a.Status.Completed():
			return -1
		}
		return 1
	})
	invQuery := id
	if !invoiceHasLines(ctx, c, id) {
		for i, asked := 0, 0; i < len(finishedFirst) && asked < 10; i++ {
			if w := finishedFirst[i]; w.WorkOrderId != main.WorkOrderId && w.InvoiceVisible() {
				asked++
				if q := idQuery(w.WorkOrderId); invoiceHasLines(ctx, c, q) {
					invQuery = q
					break
				}
			}
		}
	}
	get("invoice", "api/invoice", invQuery, contractShape{key: "Invoice", typ: reflect.TypeFor[contractInvoice]()})
	get("price list", "api/invoice/pricelist", id, contractShape{key: "PriceList", typ: reflect.TypeFor[contractPriceList]()})
	get("messages", "api/messages", id, contractShape{key: "Messages", typ: reflect.TypeFor[Message](), list: true})
	get("note history", "api/workOrder/noteHistory", id, contractShape{key: "NoteHistory", typ: reflect.TypeFor[contractNoteEntry](), list: true,
		alt: noteHistoryKeys})
	_, raw = get("invoice attachments", "api/invoice/attachments", id, contractShape{key: "Attachments", typ: reflect.TypeFor[Attachment](), list: true})
	// An invoice attachment's link: the main work order's first file, else
	// that of the first of the others looked at that has one, finished work
	// first (found quietly, ten calls at most).
	invAtts, invQuery := anyList[Attachment](raw), idQuery(main.WorkOrderId)
	others := finishedFirst
	for i, asked := 0, 0; len(invAtts) == 0 && i < len(others) && asked < 10; i++ {
		if others[i].WorkOrderId != main.WorkOrderId && others[i].InvoiceVisible() {
			asked++
			var raw json.RawMessage
			if c.getJSON(ctx, "api/invoice/attachments", idQuery(others[i].WorkOrderId), &raw) == nil {
				invAtts, invQuery = anyList[Attachment](raw), idQuery(others[i].WorkOrderId)
			}
		}
	}
	if len(invAtts) > 0 {
		invQuery.Set("attachmentId", invAtts[0].AttachmentId)
		get("invoice attachment link", "api/invoice/attachments/GetDownloadUrl", invQuery, contractShape{typ: reflect.TypeFor[contractLink]()})
	} else {
		add(ContractCall{Call: "GET /api/invoice/attachments/GetDownloadUrl", Skipped: true, Err: "no invoice attachment on the work orders looked at"})
	}
	// Associates: the branch of the first work order that names one.
	var branch int64
	for _, w := range append([]WorkOrder{main}, wos...) {
		if branch == 0 {
			branch = w.BranchId
		}
	}
	if branch != 0 {
		get("associates", "api/associates", url.Values{"branchId": {strconv.FormatInt(branch, 10)}},
			contractShape{key: associatesKey, typ: reflect.TypeFor[Associate](), list: true})
	} else {
		add(ContractCall{Call: "GET /api/associates", Skipped: true, Err: "no work order looked at names its branch (BranchId)"})
	}

	// Attachments: the main work order's list; for a link, the first work
	// order that has a file (the others looked at quietly).
	_, raw = get("attachments", "api/attachments", id, contractShape{key: "Attachments", typ: reflect.TypeFor[Attachment](), list: true})
	var linkQuery url.Values
	atts := anyList[Attachment](raw)
	for i := 0; len(atts) == 0 && i < min(len(wos), 10); i++ {
		if wos[i].WorkOrderId != main.WorkOrderId {
			var raw json.RawMessage
			if c.getJSON(ctx, "api/attachments", idQuery(wos[i].WorkOrderId), &raw) == nil {
				if atts = anyList[Attachment](raw); len(atts) > 0 {
					linkQuery = idQuery(wos[i].WorkOrderId)
				}
			}
		}
	}
	if len(atts) > 0 {
		if linkQuery == nil {
			linkQuery = idQuery(main.WorkOrderId)
		}
		linkQuery.Set("attachmentId", atts[0].AttachmentId)
		get("download link", "api/attachments/downloadUrl", linkQuery, contractShape{typ: reflect.TypeFor[contractLink]()})
	} else {
		add(ContractCall{Call: "GET /api/attachments/downloadUrl", Skipped: true, Err: "no attachment on the work orders looked at"})
	}

	// Procedures, where present: a step's attachments (one that has some,
	// among the first steps looked at quietly) and one link.
	var steps []StepRef
	for _, w := range wos {
		for _, p := range w.Procedures() {
			for _, st := range p.Steps {
				steps = append(steps, StepRef{WorkOrderId: w.WorkOrderId, ProcedureId: p.Id, StepId: st.Id})
			}
		}
	}
	if len(steps) == 0 {
		for _, call := range []string{"GET /api/procedure", "GET /api/procedure/step", "GET /api/procedure/step/attachments"} {
			add(ContractCall{Call: call, Skipped: true, Err: "no procedure on the work orders looked at"})
		}
		return r
	}
	// The procedures as their own call gives them (the source the docs
	// name for AllowMarkNotApplicable), and one step.
	get("procedures", "api/procedure", idQuery(steps[0].WorkOrderId), contractShape{key: "Procedures", typ: reflect.TypeFor[Procedure](), list: true})
	get("step", "api/procedure/step", stepQuery(steps[0]), contractShape{key: "Step", typ: reflect.TypeFor[Step]()})
	step := steps[0]
	for _, st := range steps[:min(len(steps), 12)] {
		var raw json.RawMessage
		if c.getJSON(ctx, "api/procedure/step/attachments", stepQuery(st), &raw) == nil && len(anyList[StepAttachment](raw)) > 0 {
			step = st
			break
		}
	}
	_, raw = get("step attachments", "api/procedure/step/attachments", stepQuery(step),
		contractShape{key: "Attachments", typ: reflect.TypeFor[StepAttachment](), list: true})
	if atts := anyList[StepAttachment](raw); len(atts) > 0 {
		lq := stepQuery(step)
		lq.Set("attachmentId", atts[0].AttachmentId)
		get("step link", "api/procedure/step/attachments/GetDownloadUrl/", lq, contractShape{typ: reflect.TypeFor[contractLink]()})
	} else {
		add(ContractCall{Call: "GET /api/procedure/step/attachments/GetDownloadUrl", Skipped: true, Err: "no step attachment on the steps looked at"})
	}
	return r
}

// invoiceHasLines reads an invoice quietly and reports whether it has
// lines, under whatever key the answer holds the invoice.
func invoiceHasLines(ctx context.Context, c *Client, q url.Values) bool {
	var raw map[string]json.RawMessage
	if c.getJSON(ctx, "api/invoice", maps.Clone(q), &raw) != nil {
		return false
	}
	for _, v := range raw {
		var inv struct{ LineItems []json.RawMessage }
		if json.Unmarshal(v, &inv) == nil && len(inv.LineItems) > 0 {
			return true
		}
	}
	return false
}

// anyList is the items of a list answer under whatever key holds them:
// the check must follow the service's answer to its next read even where
// the app could not (and the check says so).
func anyList[T any](raw []byte) []T {
	if items, err := decodeList[T](raw, "", "Items"); err == nil && len(items) > 0 {
		return items
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return nil
	}
	for _, v := range fields {
		var items []T
		if json.Unmarshal(v, &items) == nil && len(items) > 0 {
			return items
		}
	}
	return nil
}

// The types decoded without their decoders (fieldsOf reads their fields).
type (
	contractInvoice   Invoice
	contractNoteEntry NoteEntry
	contractPriceList PriceList
	// contractLink is a download link's answer: Url is our guess.
	contractLink struct {
		DownloadURL
		MessageId string `json:"MessageId,omitempty"`
	}
)

func slug(call string) string {
	call, _, _ = strings.Cut(call, "?")
	var b strings.Builder
	for _, r := range strings.ToLower(call) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}
