package sandbox

import (
	"fmt"
	"slices"
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// The endpoints this file answers.
var _ = endpoints(
	endpoint{"PUT", "/api/workorder/workdonedetails", kindMutate, (*call).workDoneDetails},
	endpoint{"GET", "/api/customersettings", kindRead, (*call).customerSettings},
)

// spec.md lists neither GET /api/customerSettings nor PUT
// /api/workOrder/workDoneDetails, nor what check-out carries beyond
// ActualActionDate; service-facts §4.1 and §7 document all three. The spec
// is silent rather than contrary there, so the sandbox follows the
// documented service, as strictly as it is documented.
//
// What each demo customer requires at check-out. Service-facts §4.1: "depending
// on customer settings: repair info ... customer questions / custom fields
// ... values case-sensitive"; the settings' own schema is not published, so
// the sandbox answers in the shape of api.CustomerSettings (an assumption
// shared with the client by the contract, not by its rules).
type completionDef struct {
	repairRequired bool
	codes          []api.RepairInfo
	fields         []api.CustomFieldDescriptor
	verification   bool // invoices wait in PendingVerification until the work is verified
}

var hotelCodes = []api.RepairInfo{
	{CodeId: 7101, Code: "Replaced part", CategoryId: 71, Category: "HVAC"},
	{CodeId: 7102, Code: "Repaired in place", CategoryId: 71, Category: "HVAC"},
	{CodeId: 7103, Code: "Cleaned and adjusted", CategoryId: 71, Category: "HVAC"},
	{CodeId: 7201, Code: "Cleared blockage", CategoryId: 72, Category: "Plumbing"},
	{CodeId: 7202, Code: "Replaced fixture", CategoryId: 72, Category: "Plumbing"},
	{CodeId: 7301, Code: "No fault found", CategoryId: 73, Category: "General"},
}

var ukCodes = []api.RepairInfo{
	{CodeId: 8101, Code: "Repaired", CategoryId: 81, Category: "Refrigeration"},
	{CodeId: 8102, Code: "Replaced", CategoryId: 81, Category: "Refrigeration"},
	{CodeId: 8201, Code: "Repaired", CategoryId: 82, Category: "Electrical"},
	{CodeId: 8202, Code: "Made safe, follow-up needed", CategoryId: 82, Category: "Electrical"},
}

var completionDefs = map[int64]completionDef{
	// Harbor Point Hotels: forbids back-dating, asks for a repair code and two
	// questions, one of them a choice whose values are case-sensitive.
	4102: {repairRequired: true, codes: hotelCodes, fields: []api.CustomFieldDescriptor{
		{Id: "41021", Label: "Guest room out of order", DataType: "String", Values: []string{"Yes", "No"}, IsRequired: api.Yes},
		{Id: "41022", Label: "Engineer who signed off", DataType: "String", DataLength: 40, IsRequired: api.Yes},
		{Id: "41023", Label: "Follow-up visit booked", DataType: "String", Values: []string{"Yes", "No"}, IsRequired: api.No},
	}},
	// Kensington Foods UK: a repair code only.
	4103: {repairRequired: true, codes: ukCodes},
	// Lakeside Medical Group: one question, no code; the facility manager
	// verifies the work before its invoice can be submitted.
	4106: {fields: []api.CustomFieldDescriptor{
		{Id: "41061", Label: "Infection control measures followed", DataType: "String", Values: []string{"Yes", "Not applicable"}, IsRequired: api.Yes},
	}, verification: true},
}

// settings is the customer's answer to GET /api/customerSettings.
func (p *CustomerPolicy) settings() api.CustomerSettings {
	return api.CustomerSettings{
		CustomerId: p.Customer.Id, AllowBackdating: api.FlagOf(p.AllowBackdating),
		RepairInfoRequired: api.FlagOf(p.RepairInfoRequired), RepairCodes: p.RepairCodes, CustomFields: p.CustomFields,
	}
}

// customerSettings answers GET /api/customerSettings?customerId=N. An
// unknown customer is 3003, the code service-facts §10 gives for "a bad
// customer id".
func (c *call) customerSettings() (any, error) {
	id, err := c.queryID("customerId")
	if err != nil {
		return nil, err
	}
	for _, p := range c.s.st.customers {
		if p.Customer.Id == id {
			return c.envelope("CustomerSettings", p.settings()), nil
		}
	}
	return nil, business(api.CodeNoSuchEntity, "Customer %d does not exist or does not work with this contractor.", id)
}

// completionGaps checks completion information against the customer's
// settings, the sandbox's own reading of service-facts §4.1 (kept apart from
// the client's rules: this is the oracle). missing lists what is required
// and absent; bad lists what the customer would not take.
func completionGaps(p *CustomerPolicy, repair *api.RepairInfo, fields []api.CustomField) (missing, bad []api.ValidationError) {
	if repair == nil {
		if p.RepairInfoRequired {
			missing = append(missing, api.ValidationError{Type: "Required", Property: "RepairInfo",
				Message: p.Customer.Name + " requires repair info (RepairInfo: one of its repair codes)"})
		}
	} else {
		known := false
		for _, r := range p.RepairCodes {
			if r.CodeId == repair.CodeId && r.CategoryId == repair.CategoryId {
				known = true
			}
		}
		if !known {
			bad = append(bad, api.ValidationError{Type: "InvalidValue", Property: "RepairInfo.CodeId",
				Message: fmt.Sprintf("repair code %d in category %d is not one of %s's codes", repair.CodeId, repair.CategoryId, p.Customer.Name)})
		}
	}
	given := map[api.FieldID]string{}
	for i, f := range fields {
		given[f.Id] = f.Value
		if !slices.ContainsFunc(p.CustomFields, func(d api.CustomFieldDescriptor) bool { return d.Id == f.Id && !d.IsDeleted }) {
			bad = append(bad, api.ValidationError{Type: "InvalidValue", Property: fmt.Sprintf("CustomFields[%d].Id", i),
				Message: fmt.Sprintf("%s has no custom field %s", p.Customer.Name, f.Id)})
		}
	}
	for _, d := range p.CustomFields {
		if d.IsDeleted || d.IsReadonly {
			continue
		}
		v, ok := given[d.Id]
		switch {
		case !ok || strings.TrimSpace(v) == "":
			if d.IsRequired.True() {
				missing = append(missing, api.ValidationError{Type: "Required", Property: "CustomFields",
					Message: fmt.Sprintf("custom field %s %q is required", d.Id, d.Label)})
			}
		case len(d.Values) > 0 && !slices.Contains(d.Values, v): // case-sensitive, as documented
			bad = append(bad, api.ValidationError{Type: "InvalidValue", Property: "CustomFields",
				Message: fmt.Sprintf("%q is not a value of custom field %q (allowed: %s)", v, d.Label, strings.Join(d.Values, ", "))})
		case d.DataLength > 0 && len([]rune(v)) > d.DataLength:
			bad = append(bad, api.ValidationError{Type: "TooLong", Property: "CustomFields",
				Message: fmt.Sprintf("custom field %q takes at most %d characters", d.Label, d.DataLength)})
		}
	}
	return missing, bad
}

// refusal is the 2100 answer listing every problem, so the message names
// all that is missing at once.
func refusal(what string, problems []api.ValidationError) *api.Error {
	names := make([]string, len(problems))
	for i, p := range problems {
		names[i] = p.Message
	}
	return &api.Error{StatusCode: 400, Code: api.CodeInvalidModel,
		Message:          what + ": " + strings.Join(names, "; ") + ".",
		ValidationErrors: problems}
}

// completion is what the contractor told about the work done.
type completion struct {
	comment string
	repair  *api.RepairInfo
	fields  []api.CustomField
}

// workDoneDetails completes a NeedsCompletionDetails work order (PUT
// /api/workOrder/workDoneDetails) → CheckedOut (service-facts §7 [INF]).
// Choice: only from NeedsCompletionDetails. The docs also say completion
// details "can be adjusted after completion", but not that this call does
// it [INF]; the sandbox refuses (3001) rather than accept what the service
// might not.
func (c *call) workDoneDetails() (any, error) {
	var req api.WorkDoneDetailsRequest
	if err := c.decode(&req); err != nil {
		return nil, err
	}
	if err := checkText("Comment", req.Comment, false); err != nil {
		return nil, err
	}
	o, err := c.order(req.WorkOrderId)
	if err != nil {
		return nil, err
	}
	if o.wo.Status != api.StatusNeedsCompletionDetails {
		return nil, wrongStatus(o, "completing the work details", api.StatusNeedsCompletionDetails)
	}
	missing, bad := completionGaps(o.cust, req.RepairInfo, req.CustomFields)
	if problems := append(missing, bad...); len(problems) > 0 {
		return nil, refusal("The completion details of work order "+o.wo.WorkOrderNumber+" are incomplete", problems)
	}
	o.done = &completion{comment: req.Comment, repair: req.RepairInfo, fields: req.CustomFields}
	c.checkedOut(o)
	return nil, nil
}
