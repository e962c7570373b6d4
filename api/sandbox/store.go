package sandbox

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// CustomerPolicy is how one customer configured its side of the service: the
// switches the real service reads from the customer's settings.
type CustomerPolicy struct {
	Customer api.Customer
	Currency string
	BranchId int64 // the contractor branch that serves this customer
	// AllowQuotes false makes quoteSubmit fail with 3004.
	AllowQuotes bool
	// BlockOverNte refuses (3052) an invoice whose total exceeds a non-zero
	// NTE; otherwise the invoice is accepted and the customer disputes it later.
	BlockOverNte bool
	// AllowBackdating lets check-in, pause and check-out carry an
	// ActualActionDate in the past.
	AllowBackdating bool
	// RepairInfoRequired, RepairCodes and CustomFields are what check-out
	// must carry (GET /api/customerSettings answers with them).
	RepairInfoRequired bool
	RepairCodes        []api.RepairInfo
	CustomFields       []api.CustomFieldDescriptor
	// RequireVerification: after check-out the invoice waits in
	// PendingVerification, not yet submittable, until the facility manager
	// verifies the work (service-facts §4.6, §15).
	RequireVerification bool
	PriceList           api.PriceList
	Desk                string // name on the customer's notifications ("Sender.Name")
}

// order is everything the sandbox keeps about one work order.
type order struct {
	wo       api.WorkOrder
	cust     *CustomerPolicy
	invoice  *api.Invoice // nil = the empty draft every work order has (saves memory in big worlds)
	messages []api.Message
	files    []*file         // work order attachments; the provider can never remove them
	invFiles []*file         // invoice attachments
	done     *completion     // what check-out or workDoneDetails told about the work
	notes    []api.NoteEntry // the internal note's versions, oldest first (InternalNoteChanged)
	ism      string          // Induction & Safety Management status ("" = never set)
}

// file is an attachment with its content. Demo files share the embedded
// bytes. procID and stepID are set for step attachments only.
type file struct {
	meta   api.Attachment
	data   []byte
	woID   int64
	procID int64
	stepID int64
}

// updEntry orders work orders by LastUpdate for the sync loop's range search.
type updEntry struct {
	t  int64 // LastUpdate in Unix nanoseconds
	id int64
}

func entryLess(a, b updEntry) bool { return a.t < b.t || a.t == b.t && a.id < b.id }

// store is the in-memory service state. Every field is guarded by
// Sandbox.mu; the store itself does no locking.
type store struct {
	orders    map[int64]*order
	byUpdate  []updEntry // sorted by (LastUpdate, id)
	customers []*CustomerPolicy
	// associates are each branch's technicians and subcontractors, by
	// BranchId: fixed, like the customers (see crews).
	associates map[int64][]api.Associate
	files      map[string]*file  // every attachment by AttachmentId, for download links
	steps      map[int64][]*file // step attachments by step id (step ids are unique)

	nextOrderID  int64
	nextNumber   int
	nextLineID   int64
	nextMsgID    int64
	nextProcID   int64
	nextStepID   int64
	nextDocument int // AUTH / CHK numbers

	rng *rand.Rand // world generation and dispatch of new work orders
	gen *generator
	// onChange hears every change (the demo's saver); nil = nobody.
	onChange func()
}

func newStore(seed int64) *store {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5a4db0c5))
	s := &store{
		orders: map[int64]*order{},
		files:  map[string]*file{},
		steps:  map[int64][]*file{},
		rng:    rng,

		associates: branchAssociates(),

		nextOrderID: 27796400,
		nextNumber:  73200,
		nextLineID:  910000,
		nextMsgID:   55000,
		nextProcID:  6100,
		nextStepID:  81000,
	}
	return s
}

// add puts a new work order into the store and the LastUpdate index.
func (s *store) add(o *order) {
	if s.onChange != nil {
		s.onChange()
	}
	o.stampNote()
	s.orders[o.wo.WorkOrderId] = o
	e := updEntry{o.wo.LastUpdate.UnixNano(), o.wo.WorkOrderId}
	i := sort.Search(len(s.byUpdate), func(i int) bool { return !entryLess(s.byUpdate[i], e) })
	s.byUpdate = slices.Insert(s.byUpdate, i, e)
}

// load adds a generated work order without keeping the index sorted;
// sortIndex must follow. Sorting once beats 100,000 ordered inserts.
func (s *store) load(o *order) {
	o.stampNote()
	s.orders[o.wo.WorkOrderId] = o
	s.byUpdate = append(s.byUpdate, updEntry{o.wo.LastUpdate.UnixNano(), o.wo.WorkOrderId})
}

func (s *store) sortIndex() { slices.SortFunc(s.byUpdate, cmpEntry) }

// changed records a change that moves no LastUpdate (an assignment).
func (s *store) changed() {
	if s.onChange != nil {
		s.onChange()
	}
}

// touch records a successful change: LastUpdate becomes now and the index
// entry moves. Since the clock only runs forward the new entry nearly always
// lands at the end, so this is a binary search plus one copy.
func (s *store) touch(o *order, now time.Time) {
	if s.onChange != nil {
		s.onChange()
	}
	old := updEntry{o.wo.LastUpdate.UnixNano(), o.wo.WorkOrderId}
	if i, ok := slices.BinarySearchFunc(s.byUpdate, old, cmpEntry); ok {
		s.byUpdate = slices.Delete(s.byUpdate, i, i+1)
	}
	if now.Before(o.wo.LastUpdate) {
		// A custom Options.Now may run behind generated data; LastUpdate
		// must still move forward or the sync loop would miss the change.
		now = o.wo.LastUpdate.Add(time.Microsecond)
	}
	o.wo.LastUpdate = now
	e := updEntry{now.UnixNano(), o.wo.WorkOrderId}
	i, _ := slices.BinarySearchFunc(s.byUpdate, e, cmpEntry)
	s.byUpdate = slices.Insert(s.byUpdate, i, e)
}

func cmpEntry(a, b updEntry) int {
	switch {
	case entryLess(a, b):
		return -1
	case entryLess(b, a):
		return 1
	}
	return 0
}

// invoiceOf returns the work order's invoice, materialising the empty draft.
func (s *store) invoiceOf(o *order) *api.Invoice {
	if o.invoice == nil {
		o.invoice = &api.Invoice{
			WorkOrderId: o.wo.WorkOrderId, Status: api.InvoiceDraft, Currency: o.wo.Currency,
			LineItems: []api.LineItem{},
		}
		o.invoice.StampCurrency()
	}
	return o.invoice
}

// procedure finds a procedure of a work order by id.
func (o *order) procedure(id int64) *api.Procedure {
	if o.wo.WorkDetails == nil {
		return nil
	}
	for i := range o.wo.WorkDetails.Procedures {
		if o.wo.WorkDetails.Procedures[i].Id == id {
			return &o.wo.WorkDetails.Procedures[i]
		}
	}
	return nil
}

func hasStep(p *api.Procedure, stepID int64) bool {
	for _, st := range p.Steps {
		if st.Id == stepID {
			return true
		}
	}
	return false
}

func (s *store) nextDoc(prefix string) string {
	s.nextDocument++
	return fmt.Sprintf("%s-%06d", prefix, 418200+s.nextDocument)
}
