package serve

import (
	"slices"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// BasicWorkOrder is an item of a search's answer: "basic data only"
// (service-facts §4.1). Which fields are basic is not published; these are
// the ones a sync loop needs to decide what to read in full.
type BasicWorkOrder struct {
	WorkOrderId     int64               `json:"WorkOrderId"`
	WorkOrderNumber string              `json:"WorkOrderNumber"`
	Status          api.WorkOrderStatus `json:"Status"`
	Created         time.Time           `json:"Created"`
	LastUpdate      time.Time           `json:"LastUpdate"`
	Customer        api.Customer        `json:"Customer"`
	Currency        string              `json:"Currency"`
	Nte             api.Nte             `json:"Nte"`
	BranchId        int64               `json:"BranchId,omitempty"` // search results carry it [CODE]
	// InternalNote: search results carry the note (/docs/working-with-internal-notes).
	InternalNote *string `json:"InternalNote,omitempty"`
}

// Basic is what a search answers about w.
func Basic(w *api.WorkOrder) BasicWorkOrder {
	return BasicWorkOrder{w.WorkOrderId, w.WorkOrderNumber, w.Status, w.Created, w.LastUpdate, w.Customer, w.Currency, w.Nte, w.BranchId, w.InternalNote}
}

// SearchParameters reads POST /api/workOrder/search's body
// {"Parameters": {...}, "MessageId"}: an empty body searches everything; a
// status the service does not have is refused.
func SearchParameters(body []byte) (api.SearchParameters, *api.Error) {
	var req struct {
		Parameters api.SearchParameters `json:"Parameters"`
	}
	if len(body) == 0 {
		return req.Parameters, nil
	}
	if bad := DecodeJSON(body, &req); bad != nil {
		return api.SearchParameters{}, bad
	}
	for _, st := range req.Parameters.Statuses {
		if !slices.Contains(api.AllStatuses, st) {
			return api.SearchParameters{}, Invalid("Statuses", "%q is not a work order status", st)
		}
	}
	return req.Parameters, nil
}
