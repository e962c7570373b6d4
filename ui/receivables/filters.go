package receivables

import (
	"strings"

	"github.com/workorderdesk/workdesk/api"
)

// The filter bar's choices, in words, and what each keeps.

const (
	allCustomers = "All customers"
	allStatuses  = "All statuses"
	outstanding  = "Outstanding"
	// otherStatus keeps the invoices whose status this client does not
	// know, shown as "other (its name)" (api.InvoiceStatus.StatusWords).
	otherStatus = "Other statuses"
	anyAge      = "Any age"
)

func statusChoices() []string {
	out := []string{allStatuses, outstanding}
	for _, s := range api.AllInvoiceStatuses {
		out = append(out, s.StatusWords())
	}
	return append(out, otherStatus)
}

func ageChoices() []string {
	out := []string{anyAge}
	for _, b := range api.AgeBuckets {
		out = append(out, b.String())
	}
	return out
}

// filterChanged reads the filter bar into the filter and reloads.
func (v *View) filterChanged() {
	if v.customerSel == nil || v.statusSel == nil || v.ageSel == nil {
		return // still being built
	}
	var f api.ReceivableFilter
	if i := v.customerSel.SelectedIndex(); i > 0 && i-1 < len(v.customers) {
		f.CustomerId = v.customers[i-1].Id
	}
	switch sel := v.statusSel.Selected; sel {
	case allStatuses, "":
	case otherStatus:
		f.Other = true
	case outstanding:
		for _, s := range api.AllInvoiceStatuses {
			if s.Outstanding() {
				f.Statuses = append(f.Statuses, s)
			}
		}
	default:
		for _, s := range api.AllInvoiceStatuses {
			if s.StatusWords() == sel {
				f.Statuses = []api.InvoiceStatus{s}
			}
		}
	}
	if i := v.ageSel.SelectedIndex(); i > 0 {
		b := api.AgeBuckets[i-1]
		f.Age = &b
	}
	if sameFilter(f, v.filter) {
		return
	}
	v.filter = f
	v.Reload()
}

func sameFilter(a, b api.ReceivableFilter) bool {
	if a.CustomerId != b.CustomerId || a.Other != b.Other || len(a.Statuses) != len(b.Statuses) || (a.Age == nil) != (b.Age == nil) {
		return false
	}
	if a.Age != nil && *a.Age != *b.Age {
		return false
	}
	for i := range a.Statuses {
		if a.Statuses[i] != b.Statuses[i] {
			return false
		}
	}
	return true
}

// Narrowed says what the filters keep, for a sentence about the rows:
// " (customer Northwind Retail, status Disputed, age 31–60 days)"; ""
// when they keep everything.
func (v *View) Narrowed() string {
	var parts []string
	for _, c := range v.customers {
		if c.Id == v.filter.CustomerId && v.filter.CustomerId != 0 {
			parts = append(parts, "customer "+c.Name)
		}
	}
	if sel := v.statusSel.Selected; sel != allStatuses && sel != "" {
		parts = append(parts, "status "+sel)
	}
	if v.filter.Age != nil {
		parts = append(parts, "age "+v.filter.Age.String())
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
