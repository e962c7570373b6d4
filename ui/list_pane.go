package ui

// The work order list (ui/list) opens what the person picks, reports rows
// it could not read in the status bar, hands the ticked rows to the bulk
// actions, and has the panes laid out again when a sort widens a header;
// in office mode it marks what colleagues changed (colleague_mark.go).

func (h host) OpenWorkOrder(id int64) { h.d.openWorkOrder(id) }
func (h host) ListProblem(err error)  { h.d.status.ListProblem(err) }
func (h host) BulkAccept(ids []int64) { h.d.decision.BulkAccept(ids) }
func (h host) BulkReject(ids []int64) { h.d.decision.ShowReject(ids) }
func (h host) BulkAssign(ids []int64) { h.d.assign.Show(ids, nil) }

func (h host) ShortcutLabel(key string) string { return shortcutLabel(key) }

func (h host) Resorted() {
	if h.d.fit != nil {
		h.d.fit.Again(h.d.panes)
	}
}
