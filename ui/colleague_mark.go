package ui

import (
	"context"
	"time"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/format"
)

// colleagueMarkFor is how long a colleague's change marks a work order in
// the list. The mark is news: an hour covers a coffee break or a meeting,
// and opening the work order (whose header then says who did what) clears
// it sooner; a mark on everything anyone touched today would be noise.
const colleagueMarkFor = time.Hour

// ColleagueMarks reads the work orders a colleague changed within the
// last colleagueMarkFor, for the list (office mode only; nil otherwise).
// It is called on the main goroutine and returns the read, which runs on
// any; UnseenMarks then keeps, on the main goroutine, those the person has
// not opened since. One query per list reload: the cells only look their
// row up.
func (h host) ColleagueMarks() func(context.Context) map[int64]storage.ColleagueChange {
	d := h.d
	if !d.deps.Office {
		return nil
	}
	store, since, person := d.store, format.Now().Add(-colleagueMarkFor), d.officePerson()
	return func(ctx context.Context) map[int64]storage.ColleagueChange {
		changes, err := store.ColleagueChanges(ctx, since, person)
		if err != nil {
			return nil // the list without marks; the header and Activity still say
		}
		return changes
	}
}

// UnseenMarks drops from changes the work orders the person opened after
// their colleague's change.
func (h host) UnseenMarks(changes map[int64]storage.ColleagueChange) map[int64]storage.ColleagueChange {
	for id, c := range changes {
		if seen, ok := h.d.seen[id]; ok && !c.At.After(seen) {
			delete(changes, id)
		}
	}
	return changes
}

// sawColleagues clears the list's mark of a work order the person opens:
// its header now says who changed it.
func (d *Desk) sawColleagues(id int64) {
	c, ok := d.list.ForgetMark(id)
	if !ok {
		return
	}
	if d.seen == nil {
		d.seen = map[int64]time.Time{}
	}
	d.seen[id] = c.At
}
