package sandbox

import (
	"math/rand/v2"
	"slices"

	"github.com/google/uuid"
	"github.com/workorderdesk/workdesk/api"
)

// addPrintouts gives the generated world's invoices that went to the
// customer (submitted, settled, or disputed since) the printout sent with
// them (an InvoicePrintout invoice
// attachment), so an invoice attachment's link can be asked for (the
// window, doctor --contract). It draws from an rng of its own (the files'
// ids), so the rest of the world is what it was before.
func (s *store) addPrintouts(seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9f1e7a0c))
	ids := make([]int64, 0, len(s.orders))
	for id := range s.orders {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		o := s.orders[id]
		if o.invoice == nil || o.invoice.Status.Editable() && o.invoice.Status != api.InvoiceDisputed {
			continue
		}
		var b [16]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
		meta := api.Attachment{AttachmentId: uuid.UUID(b).String(), Name: "invoice-printout.pdf", MimeType: "application/pdf",
			DocumentType: "InvoicePrintout", MessageVisibility: api.VisibilityAll, Size: int64(len(demoPDF)), Created: o.wo.LastUpdate}
		f := &file{meta: meta, data: demoPDF, woID: id}
		o.invFiles = append(o.invFiles, f)
		s.files[meta.AttachmentId] = f
	}
}
