package daysheet

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
)

// CalendarOptions are what the calendar needs besides the visits.
type CalendarOptions struct {
	// Now is when the file is made: each event's DTSTAMP, and its
	// SEQUENCE (see sequence).
	Now time.Time
	// Domain ends every UID: whose work orders they are ("demo" for the
	// demo's, whose numbers a live service may use too); "" for the
	// service's.
	Domain string
	// VisitLength is how long a visit is taken to last (0: the board's
	// default): the service records only its start.
	VisitLength time.Duration
	// AccessNotes adds each visit's internal note to its description, as
	// the printed sheet does when ticked.
	AccessNotes bool
}

// UID is the calendar's name for a work order's visit: the same every
// time the file is made, so that importing it again updates the event
// rather than adding a second. The service keeps one planned visit per
// work order (its ScheduledStart): moving it moves this event, and a
// visit planned after a pause takes its place.
func UID(workOrderID int64, domain string) string {
	host := "workorderdesk"
	if d := strings.Trim(strings.ToLower(domain), ". "); d != "" {
		host = d + "." + host
	}
	return fmt.Sprintf("workorder-%d-visit@%s", workOrderID, host)
}

// sequence orders the versions of an event: calendar programs take an
// import as an update only when its SEQUENCE is not lower than the one
// they hold. Each file counts the minutes since 2020 when it was made, so
// a later file always wins, whoever made it.
func sequence(now time.Time) int {
	return max(0, int(now.Sub(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))/time.Minute))
}

// WriteICS writes the sheet's visits to w as an iCalendar file (RFC 5545)
// of one technician: each visit an event from its planned start to the
// estimated end, in UTC (the service gives no site's time zone), the
// site's address as its LOCATION and the work requested as its
// DESCRIPTION. A visit off (done, closed) is written cancelled, so that a
// calendar that had it drops it.
func WriteICS(w io.Writer, sheet Sheet, opts CalendarOptions) error {
	if sheet.Technician.Name == "" {
		return errors.New(wordNoTechnician)
	}
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	cal := ics.NewCalendar()
	cal.SetProductId(prodID)
	cal.SetMethod(ics.MethodPublish)
	cal.SetXWRCalName(fmt.Sprintf(wordCalendarName, sheet.Technician.Name))
	seq := sequence(opts.Now)
	for _, v := range sheet.ordered() {
		wo := v.WorkOrder
		start := v.Start()
		if start.IsZero() {
			continue
		}
		e := cal.AddEvent(UID(wo.WorkOrderId, opts.Domain))
		e.SetDtStampTime(opts.Now)
		e.SetSequence(seq)
		if !wo.LastUpdate.IsZero() {
			e.SetModifiedAt(wo.LastUpdate)
		}
		e.SetStartAt(start.UTC())
		e.SetEndAt(start.Add(visitLength(opts.VisitLength)).UTC())
		where := strings.Join(nonEmpty(wo.Customer.Name, wo.SiteName()), " · ")
		e.SetSummary(fmt.Sprintf(wordSummary, wo.WorkOrderNumber, where))
		if loc := location(v); loc != "" {
			e.SetLocation(loc)
		}
		e.SetDescription(description(v, opts.AccessNotes))
		if v.Off() {
			e.SetStatus(ics.ObjectStatusCancelled)
		} else {
			e.SetStatus(ics.ObjectStatusConfirmed)
		}
	}
	// RFC 5545 lines end in CRLF on every system (the library's default
	// is the system's own line end).
	return cal.SerializeTo(w, ics.WithNewLineWindows)
}

// prodID names the program that made the file (RFC 5545 §3.7.3).
const prodID = "-//Work Order Desk//Day sheet//EN"

// location is the site's name and full address on one line, as a map
// program searches for it.
func location(v Visit) string {
	return strings.Join(siteLines(v.WorkOrder), ", ")
}

// description is the work requested, then whom to call, how to get in
// and the work order's number and status.
func description(v Visit, withNote bool) string {
	wo := v.WorkOrder
	parts := []string{strings.TrimSpace(wo.AccompanyingMessage)}
	if parts[0] == "" {
		parts[0] = wordNoDescription
	}
	if c := contactLines(wo); len(c) > 0 {
		parts = append(parts, fmt.Sprintf(wordDescContact, strings.Join(c, ", ")))
	}
	if wo.Schedule != nil && wo.Schedule.Pte != "" {
		parts = append(parts, fmt.Sprintf(wordDescAccess, words(wo.Schedule.Pte)))
	}
	if withNote && strings.TrimSpace(v.Note) != "" {
		parts = append(parts, fmt.Sprintf(wordDescAccessNote, strings.TrimSpace(v.Note)))
	}
	var procs []string
	for _, p := range wo.Procedures() {
		if !p.IsMarkedNa {
			procs = append(procs, p.Name)
		}
	}
	if len(procs) > 0 {
		parts = append(parts, fmt.Sprintf(wordDescProcedures, strings.Join(procs, "; ")))
	}
	parts = append(parts, fmt.Sprintf(wordDescWorkOrder, wo.WorkOrderNumber, words(string(wo.Status))))
	return strings.Join(parts, "\n\n")
}
