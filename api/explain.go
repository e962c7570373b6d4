package api

import (
	"regexp"
	"strings"
	"unicode"
)

// Explain says in plain words what a refusal means for the person and what
// to do, for the codes whose own message may not: "" for other errors.
func Explain(err error) string {
	e, ok := asError(err)
	if !ok {
		return ""
	}
	switch e.Code {
	case CodeInvoiceNotEditable:
		// The client offers to edit every invoice whose status it does not
		// know to be locked (InvoiceStatus.Editable); this is the service's
		// word that this one is. Verification comes before submission
		// (PendingVerification, /docs/retrieving-invoices, service-facts
		// §15): an invoice waiting for it has not been submitted.
		return "The service will not take changes to this invoice in its current status: it has been submitted to the customer or settled, or it is waiting for the customer to verify the work, which comes before it can be submitted. Sync to see its status; a submitted invoice can be changed again if the customer disputes it."
	}
	return ""
}

// rawStatusNames matches the status names the service writes into its
// messages that no sentence can carry as they are ("CheckedIn", "OnHold",
// "PendingVerification"): those of more than one word.
var rawStatusNames = func() *regexp.Regexp {
	var names []string
	add := func(s string) {
		capitals := 0
		for _, r := range s {
			if unicode.IsUpper(r) {
				capitals++
			}
		}
		if capitals > 1 {
			names = append(names, regexp.QuoteMeta(s))
		}
	}
	for _, s := range AllStatuses {
		add(string(s))
	}
	for _, s := range AllInvoiceStatuses {
		add(string(s))
	}
	return regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
}()

// PlainStatusNames rewrites the raw status names in a message of the
// service into words ("Work order X is CheckedIn" → "Work order X is
// checked in"); the rest of the message stays the service's own.
func PlainStatusNames(msg string) string {
	return rawStatusNames.ReplaceAllStringFunc(msg, func(name string) string {
		if s := WorkOrderStatus(name); s.Known() {
			return s.Label()
		}
		var b strings.Builder
		for i, r := range name {
			if i > 0 && unicode.IsUpper(r) {
				b.WriteByte(' ')
			}
			b.WriteRune(unicode.ToLower(r))
		}
		return b.String()
	})
}
