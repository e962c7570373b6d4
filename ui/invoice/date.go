package invoice

import "time"

// invoiceDateFromLocal keeps the calendar day picked, as a UTC midnight:
// an invoice date is a day, not an instant, and must not shift by a zone.
func invoiceDateFromLocal(d *time.Time) *time.Time {
	if d == nil {
		return nil
	}
	u := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
	return &u
}

func invoiceDateToLocal(d *time.Time) *time.Time { return invoiceDateIn(d, time.Local) }

// invoiceDateIn is the stored day d as midnight in loc.
func invoiceDateIn(d *time.Time, loc *time.Location) *time.Time {
	if d == nil || d.IsZero() {
		return nil
	}
	u := d.UTC()
	l := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, loc)
	return &l
}
