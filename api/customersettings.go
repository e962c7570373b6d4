package api

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// CustomerSettings is what one customer requires of the contractor's visits
// (GET /api/customerSettings). Service-facts §4.1 documents the path and that
// it carries "repair codes, custom fields, back-dating, …"; §12 says to read
// it before checking out. Its schema is not published: the property names
// below (AllowBackdating, RepairInfoRequired, RepairCodes, CustomFields and
// the descriptor's IsRequired) are our assumption, shaped after the
// documented RepairInfo model and AdditionalField descriptors (§5). So each
// yes/no is a Flag: one the service did not send (another name, another
// shape) is unknown, and unknown locks nothing: the person may try, and the
// service judges.
type CustomerSettings struct {
	CustomerId int64 `json:"CustomerId,omitempty"`
	// AllowBackdating: whether check-in, pause and check-out may carry an
	// ActualActionDate. Only where it is known false must the date be omitted.
	AllowBackdating Flag `json:"AllowBackdating"`
	// RepairInfoRequired: check-out must name one of RepairCodes. Both
	// names are guesses. Required with no codes found under RepairCodes
	// (another name): nothing to choose from, so not required here; the
	// service judges the check-out (RepairRequired).
	RepairInfoRequired Flag         `json:"RepairInfoRequired"`
	RepairCodes        []RepairInfo `json:"RepairCodes"`
	// CustomFields are the customer's questions asked at check-out.
	CustomFields []CustomFieldDescriptor `json:"CustomFields"`
}

// Known reports whether the answer told what check-out requires: without
// its flags, the repair code and the questions are offered as optional.
func (s *CustomerSettings) Known() bool {
	if s == nil || !s.RepairInfoRequired.Known() {
		return false
	}
	for _, d := range s.CustomFields {
		if d.Asked() && !d.IsRequired.Known() {
			return false
		}
	}
	return true
}

// RepairInfo is one repair code of the customer (service-facts §5).
type RepairInfo struct {
	CodeId     int64  `json:"CodeId"`
	Code       string `json:"Code"`
	CategoryId int64  `json:"CategoryId"`
	Category   string `json:"Category"`
}

// Label is how a person reads the code: "Category — Code".
func (r RepairInfo) Label() string {
	if r.Category == "" {
		return r.Code
	}
	return r.Category + " — " + r.Code
}

// CustomField is one answer sent at check-out (service-facts §5). Values are
// case-sensitive.
type CustomField struct {
	Id    FieldID `json:"Id"`
	Value string  `json:"Value"`
}

// CustomFieldDescriptor describes one question (the AdditionalField
// descriptor of service-facts §5). IsRequired is our assumption: the
// descriptors document no such flag, yet check-out "depends on customer
// settings". Id is typed String in the public data models.
type CustomFieldDescriptor struct {
	Id         FieldID  `json:"Id"`
	Label      string   `json:"Label"`
	Values     []string `json:"Values,omitempty"` // the allowed values, when the answer is a choice
	DataType   string   `json:"DataType,omitempty"`
	DataLength int      `json:"DataLength,omitempty"`
	IsRequired Flag     `json:"IsRequired"`
	IsDeleted  bool     `json:"IsDeleted,omitempty"`
	IsReadonly bool     `json:"IsReadonly,omitempty"`
}

// Asked reports whether the field is put to the person at check-out.
func (d CustomFieldDescriptor) Asked() bool { return !d.IsDeleted && !d.IsReadonly }

type customerSettingsResponse struct {
	CustomerSettings CustomerSettings `json:"CustomerSettings"`
	MessageId        string           `json:"MessageId"`
}

// GetCustomerSettings reads one customer's requirements
// (GET /api/customerSettings?customerId=N). The query key is our assumption.
func (c *Client) GetCustomerSettings(ctx context.Context, customerId int64) (*CustomerSettings, error) {
	var out customerSettingsResponse
	q := url.Values{"customerId": {strconv.FormatInt(customerId, 10)}}
	if err := c.getJSON(ctx, "api/customerSettings", q, &out); err != nil {
		return nil, err
	}
	if out.CustomerSettings.CustomerId == 0 {
		out.CustomerSettings.CustomerId = customerId
	}
	return &out.CustomerSettings, nil
}

// Completion is what a check-out (or a later workDoneDetails) tells the
// customer about the work: the repair code and the answers to its questions.
type Completion struct {
	RepairInfo   *RepairInfo   `json:"RepairInfo,omitempty"`
	CustomFields []CustomField `json:"CustomFields,omitempty"`
}

// Value is the answer given to field id, "" when none.
func (c Completion) Value(id FieldID) string {
	for _, f := range c.CustomFields {
		if f.Id == id {
			return f.Value
		}
	}
	return ""
}

// CompletionError says, in plain words, what a check-out lacks (Missing) and
// which answers the customer would not take (Invalid).
type CompletionError struct {
	What     string // "check-out" (default) or "completion details"
	Customer string
	Missing  []string
	Invalid  []string
}

func (e *CompletionError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "still needs "+strings.Join(e.Missing, "; "))
	}
	if len(e.Invalid) > 0 {
		parts = append(parts, strings.Join(e.Invalid, "; "))
	}
	who := e.Customer
	if who == "" {
		who = "the customer"
	}
	what := e.What
	if what == "" {
		what = "check-out"
	}
	return fmt.Sprintf("The %s for %s %s.", what, who, strings.Join(parts, "; and "))
}

// CompletionProblems compares c with what the customer requires. missing
// names what is required and absent; invalid names answers the customer
// does not accept (a code not in its list, a value not among the allowed
// ones: values are case-sensitive, so "yes" is not "Yes").
func (s *CustomerSettings) CompletionProblems(c Completion) (missing, invalid []string) {
	if s == nil {
		return nil, nil
	}
	if c.RepairInfo == nil {
		if s.RepairRequired() {
			missing = append(missing, "a repair code")
		}
	} else if len(s.RepairCodes) > 0 && !slices.ContainsFunc(s.RepairCodes, func(r RepairInfo) bool { return r.CodeId == c.RepairInfo.CodeId }) {
		invalid = append(invalid, fmt.Sprintf("the repair code %q is not one of the customer's codes", c.RepairInfo.Code))
	}
	for _, d := range s.CustomFields {
		if !d.Asked() {
			continue
		}
		v := c.Value(d.Id)
		switch {
		case strings.TrimSpace(v) == "":
			if d.IsRequired.True() {
				missing = append(missing, fmt.Sprintf("an answer to %q", d.Label))
			}
		case len(d.Values) > 0 && !slices.Contains(d.Values, v):
			invalid = append(invalid, fmt.Sprintf("%q is not an answer %q allows (choose %s)", v, d.Label, strings.Join(d.Values, ", ")))
		case d.DataLength > 0 && len([]rune(v)) > d.DataLength:
			invalid = append(invalid, fmt.Sprintf("the answer to %q is longer than %d characters", d.Label, d.DataLength))
		}
	}
	for _, f := range c.CustomFields {
		if !slices.ContainsFunc(s.CustomFields, func(d CustomFieldDescriptor) bool { return d.Id == f.Id && d.Asked() }) {
			invalid = append(invalid, fmt.Sprintf("the customer asks no question %s", f.Id))
		}
	}
	return missing, invalid
}

// RequiresCompletion reports whether check-out at this customer needs
// anything beyond the tap: a repair code or a required answer.
func (s *CustomerSettings) RequiresCompletion() bool {
	if s == nil {
		return false
	}
	return s.RepairRequired() || slices.ContainsFunc(s.CustomFields, func(d CustomFieldDescriptor) bool { return d.Asked() && d.IsRequired.True() })
}

// RepairRequired reports whether check-out must name a repair code here:
// the customer requires one and its codes are known. Required with no
// codes read (their list under a name we did not guess) would lock
// check-out with nothing to choose: unknown codes lock nothing, and the
// service judges.
func (s *CustomerSettings) RepairRequired() bool {
	return s != nil && s.RepairInfoRequired.True() && len(s.RepairCodes) > 0
}

// CheckOutProblem is the one rule for what a check-out must carry: nil
// settings (not known yet) leave it to the service. An answer the customer
// would refuse is always a problem. What is missing is a problem for a
// Request work order, which the service refuses without it; a PMRM work
// order is checked out anyway and waits in NeedsCompletionDetails until
// CompleteWorkDetails supplies it (service-facts §4.1, §7).
func CheckOutProblem(wo *WorkOrder, s *CustomerSettings, c Completion) error {
	missing, invalid := s.CompletionProblems(c)
	if wo != nil && wo.Type == WorkOrderTypePMRM {
		missing = nil
	}
	if len(missing) == 0 && len(invalid) == 0 {
		return nil
	}
	return &CompletionError{Customer: customerName(wo), Missing: missing, Invalid: invalid}
}

// WorkDoneDetailsProblem is the rule for completing a NeedsCompletionDetails
// work order later: everything the customer requires must now be there.
func WorkDoneDetailsProblem(wo *WorkOrder, s *CustomerSettings, c Completion) error {
	missing, invalid := s.CompletionProblems(c)
	if len(missing) == 0 && len(invalid) == 0 {
		return nil
	}
	return &CompletionError{What: "completion details", Customer: customerName(wo), Missing: missing, Invalid: invalid}
}

// CheckOutOutcome is the status a check-out leads to: NeedsCompletionDetails
// for a PMRM work order checked out without what its customer requires.
func CheckOutOutcome(wo *WorkOrder, s *CustomerSettings, c Completion) WorkOrderStatus {
	if missing, _ := s.CompletionProblems(c); len(missing) > 0 && wo != nil && wo.Type == WorkOrderTypePMRM {
		return StatusNeedsCompletionDetails
	}
	return StatusCheckedOut
}

func customerName(wo *WorkOrder) string {
	if wo == nil {
		return ""
	}
	return wo.Customer.Name
}

// Work order types (service-facts §5).
const (
	WorkOrderTypePMRM    = "PMRM"
	WorkOrderTypeRequest = "Request"
)
