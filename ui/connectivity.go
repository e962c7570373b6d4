package ui

// ConnectivityChanged is called (from any goroutine) when who is silent
// changes. When the silent side answers again, a sync follows at once: the
// replica catches up, and a failed sync stops being the last word.
func (d *Desk) ConnectivityChanged() {
	d.do(func() {
		was, failed := d.status.Silent(), d.status.LastErr() != nil
		d.status.Refresh()
		if was != nil && d.status.Silent() == nil && failed {
			d.syncNow(nil)
		}
	})
}
