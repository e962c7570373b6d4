package api

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
		// word that this one is.
		return "The service will not take changes to this invoice in its current status: it is with the customer (submitted, being verified or settled). Sync to see its status; it can be changed again if the customer disputes it."
	}
	return ""
}
