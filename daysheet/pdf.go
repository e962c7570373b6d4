package daysheet

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/go-pdf/fpdf"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/pdftext"
)

// Options are what the printed sheet needs besides the visits.
type Options struct {
	// Fonts are what the sheet is set in: every script prints.
	Fonts *pdftext.Set
	// Paper is A4 (the default) or Letter.
	Paper pdftext.Paper
	// Location is the time zone the days and times are in; nil = time.Local.
	Location *time.Location
	// Printed is when the sheet was made, printed in its footer.
	Printed time.Time
	// AccessNotes prints each visit's internal note as its access details
	// (the person ticked it: gate codes should not travel unasked).
	AccessNotes bool
	// VisitLength is how long a visit is taken to last (0: the board's
	// default), for the appointment window.
	VisitLength time.Duration
}

// Page geometry, in millimetres; the page's own size is the paper's.
const (
	margin  = 14.0
	footerH = 12.0
)

// Colours, as the job sheet's.
var (
	ink   = [3]int{0x1d, 0x23, 0x2b}
	muted = [3]int{0x6b, 0x72, 0x80}
	rule  = [3]int{0xc4, 0xc9, 0xd1}
	tint  = [3]int{0xec, 0xf1, 0xf8}
	alarm = [3]int{0xb4, 0x23, 0x18}
)

// WritePDF writes the sheet to w: its days in order, each with its
// visits in planned order; visits off (done, closed) are left out.
func WritePDF(w io.Writer, sheet Sheet, opts Options) error {
	if opts.Fonts == nil {
		return errors.New(wordNoFonts)
	}
	if sheet.Technician.Name == "" {
		return errors.New(wordNoTechnician)
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	if sheet.Days < 1 {
		sheet.Days = 1
	}
	pdf := fpdf.New("P", "mm", string(opts.Paper.OrA4()), "")
	p := &printer{pdf: pdf, t: opts.Fonts.Writer(pdf), sheet: sheet, opts: opts}
	p.pageW, p.pageH = pdf.GetPageSize()
	p.bodyW = p.pageW - 2*margin
	for _, v := range sheet.Visits {
		p.t.Hint(v.WorkOrder.Customer.Name, v.WorkOrder.SiteName(), v.WorkOrder.AccompanyingMessage)
	}
	p.t.Hint(sheet.Technician.Name)
	p.layout()
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("daysheet: %w", err)
	}
	return pdf.Output(w)
}

type printer struct {
	pdf          *fpdf.Fpdf
	t            *pdftext.Writer
	sheet        Sheet
	opts         Options
	pageW, pageH float64
	bodyW        float64
}

func (p *printer) font(style string, size float64, c [3]int) {
	p.t.SetFont(style, size)
	p.pdf.SetTextColor(c[0], c[1], c[2])
}

// days are the sheet's days, each local midnight.
func (p *printer) days() []time.Time {
	f := p.sheet.From.In(p.opts.Location)
	first := time.Date(f.Year(), f.Month(), f.Day(), 0, 0, 0, 0, p.opts.Location)
	out := make([]time.Time, p.sheet.Days)
	for i := range out {
		out[i] = first.AddDate(0, 0, i)
	}
	return out
}

// span is the sheet's days in words: "Tue 1 Dec 2026", or "Mon 30 Nov
// 2026 – Sun 6 Dec 2026".
func (p *printer) span() string {
	days := p.days()
	if len(days) == 1 {
		return days[0].Format(wordDayShort)
	}
	return days[0].Format(wordDayShort) + " – " + days[len(days)-1].Format(wordDayShort)
}

func (p *printer) layout() {
	pdf := p.pdf
	pdf.SetTitle(fmt.Sprintf(wordDocTitle, p.sheet.Technician.Name, p.span()), true)
	pdf.SetCreator(wordCreator, true)
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(true, margin+footerH)
	pdf.AliasNbPages("{nb}")
	pdf.SetFooterFunc(p.footer)
	pdf.SetHeaderFunc(func() {
		if pdf.PageNo() > 1 {
			p.font("B", 9, muted)
			p.t.Cell(p.bodyW, 5, fmt.Sprintf(wordContinued, p.sheet.Technician.Name), "R", 1)
			pdf.Ln(2)
		}
	})
	pdf.AddPage()
	p.title()
	visits := p.sheet.ordered()
	for _, day := range p.days() {
		var today []Visit
		for _, v := range visits {
			if s := v.Start().In(p.opts.Location); !v.Off() && !s.Before(day) && s.Before(day.AddDate(0, 0, 1)) {
				today = append(today, v)
			}
		}
		p.day(day, today)
	}
}

// title: whose sheet, for which days, and in which time zone.
func (p *printer) title() {
	p.font("B", 8, muted)
	p.t.Cell(p.bodyW/2, 4, wordTitle, "L", 0)
	n := 0
	for _, v := range p.sheet.Visits {
		if !v.Off() {
			n++
		}
	}
	p.t.Cell(p.bodyW/2, 4, strings.ToUpper(count(n)), "R", 1)
	p.font("B", 20, ink)
	p.t.Cell(p.bodyW, 10, p.sheet.Technician.Name, "L", 1)
	p.font("", 12, ink)
	p.t.Cell(p.bodyW, 6, p.span(), "L", 1)
	p.font("", 8, muted)
	name, _ := p.days()[0].Zone()
	p.t.Cell(p.bodyW, 5, fmt.Sprintf(wordTimesIn, name, p.days()[0].Format("-07:00")), "L", 1)
	p.hr(3)
}

func count(n int) string {
	if n == 0 {
		return wordNoVisit
	}
	if n == 1 {
		return wordOneVisit
	}
	return fmt.Sprintf(wordVisits, n)
}

// day is one day's heading and its visits.
func (p *printer) day(day time.Time, visits []Visit) {
	p.keep(20)
	p.band(p.bodyW, 7.5, fmt.Sprintf(wordDayVisits, day.Format(wordDayHeading), count(len(visits))), 10)
	p.pdf.SetX(margin)
	p.pdf.Ln(2)
	if len(visits) == 0 {
		p.font("", 10, muted)
		p.t.Cell(p.bodyW, 6, wordNoVisits, "L", 1)
		p.pdf.Ln(3)
		return
	}
	for i, v := range visits {
		if i > 0 {
			p.hr(3)
		}
		p.visit(v)
	}
	p.pdf.Ln(4)
}

// visit is one visit: when and what, where and whom, how to get in, the
// work and its procedures.
func (p *printer) visit(v Visit) {
	pdf, wo := p.pdf, v.WorkOrder
	p.keep(42)
	start := v.Start().In(p.opts.Location)
	end := start.Add(visitLength(p.opts.VisitLength))
	p.font("B", 13, ink)
	head := fmt.Sprintf(wordWindow, start.Format(wordTime), end.Format(wordTime)) + "   " + wo.WorkOrderNumber
	p.t.Cell(p.bodyW*0.65, 7, head, "L", 0)
	right, c := words(string(wo.Status)), muted
	if sla := wo.Sla; sla != nil && (sla.IsEmergency || sla.PriorityName != "") {
		prio := fmt.Sprintf(wordPriority, titleCase(sla.PriorityName))
		if sla.IsEmergency {
			prio, c = wordEmergency, alarm
		} else {
			c = ink
		}
		right = prio + " · " + right
	}
	p.font("B", 9, c)
	p.t.Cell(p.bodyW*0.35, 7, right, "R", 1)
	p.font("", 10.5, ink)
	line := wo.Customer.Name
	if wo.WorkType != nil && wo.WorkType.Name != "" {
		line += "  ·  " + wo.WorkType.Name
	}
	p.t.Cell(p.bodyW, 5.5, line, "L", 1)
	pdf.Ln(1)

	p.columns(
		block{wordSite, siteLines(wo), wordNoSite},
		block{wordContact, contactLines(wo), wordNoContact},
	)

	// How to get in, and when.
	var access []string
	if wo.Schedule != nil && wo.Schedule.Pte != "" {
		access = append(access, fmt.Sprintf(wordAccess, words(wo.Schedule.Pte)))
	}
	access = append(access, fmt.Sprintf(wordWindowNote, start.Format(wordTime), end.Format(wordTime)))
	if wo.Sla != nil && wo.Sla.OnSiteBy != nil && !wo.Sla.OnSiteBy.IsZero() {
		access = append(access, fmt.Sprintf(wordOnSiteBy, wo.Sla.OnSiteBy.In(p.opts.Location).Format(wordPrintedAt)))
	}
	p.font("", 9.5, ink)
	p.t.MultiCell(p.bodyW, 5, strings.Join(access, "  ·  "), "L")
	pdf.Ln(1)

	if p.opts.AccessNotes {
		p.label(wordAccessDetails)
		note := strings.TrimSpace(v.Note)
		if note == "" {
			p.font("", 9.5, muted)
			note = wordNoNote
		} else {
			p.font("", 10, ink)
		}
		p.t.MultiCell(p.bodyW, 5, note, "L")
		pdf.Ln(1)
	}

	p.label(wordWorkRequested)
	p.font("", 10, ink)
	desc := strings.TrimSpace(wo.AccompanyingMessage)
	if desc == "" {
		p.font("", 10, muted)
		desc = wordNoDescription
	}
	p.t.MultiCell(p.bodyW, 5, desc, "L")
	pdf.Ln(1)

	if procs := wo.Procedures(); len(procs) > 0 {
		p.procedures(procs)
	}
}

// procedures lists each procedure and its steps with a box to tick.
func (p *printer) procedures(procs []api.Procedure) {
	pdf := p.pdf
	legend := ""
	for _, pr := range procs {
		if slices.ContainsFunc(pr.Steps, func(s api.Step) bool { return s.IsRequired }) {
			legend = wordRequiredLegend
		}
	}
	p.keep(14)
	p.font("B", 8, muted)
	p.t.Cell(p.bodyW*0.7, 5, strings.ToUpper(wordProcedures), "L", 0)
	p.font("", 7.5, muted)
	p.t.Cell(p.bodyW*0.3, 5, legend, "R", 1)
	const box, indent = 3.2, 6.0
	for _, pr := range procs {
		p.keep(10)
		p.font("B", 9.5, ink)
		name := pr.Name
		if pr.IsMarkedNa {
			name += "  " + wordMarkedNA
		}
		p.t.MultiCell(p.bodyW, 5, name, "L")
		if pr.IsMarkedNa {
			continue
		}
		for _, st := range pr.Steps {
			label := st.Label
			if label == "" {
				label = st.Description
			}
			if st.IsRequired {
				label += wordRequired
			}
			p.font("", 9, ink)
			lines := p.t.Lines(label, p.bodyW-indent)
			p.keep(4.6 * float64(len(lines)))
			x, y := margin, pdf.GetY()
			pdf.SetDrawColor(ink[0], ink[1], ink[2])
			pdf.SetLineWidth(0.25)
			pdf.Rect(x+1.5, y+0.7, box, box, "D")
			pdf.SetXY(x+indent, y)
			p.t.MultiCell(p.bodyW-indent, 4.6, label, "L")
		}
		pdf.Ln(0.5)
	}
}

// label is a small title over a part of a visit.
func (p *printer) label(title string) {
	p.keep(10)
	p.font("B", 8, muted)
	p.t.Cell(p.bodyW, 5, strings.ToUpper(title), "L", 1)
}

// block is a titled column of lines; the first is the one that matters
// most (a name), set bold.
type block struct {
	title string
	lines []string
	empty string
}

// columns sets blocks side by side.
func (p *printer) columns(blocks ...block) {
	pdf := p.pdf
	const gap = 5.0
	w := (p.bodyW - gap*float64(len(blocks)-1)) / float64(len(blocks))
	p.keep(24)
	top := pdf.GetY()
	bottom := top
	for i, b := range blocks {
		x := margin + float64(i)*(w+gap)
		pdf.SetXY(x, top)
		p.font("B", 8, muted)
		p.t.Cell(w, 5, strings.ToUpper(b.title), "L", 2)
		lines := b.lines
		if len(lines) == 0 {
			p.font("", 9.5, muted)
			pdf.SetX(x)
			p.t.MultiCell(w, 4.8, b.empty, "L")
		}
		for j, l := range lines {
			pdf.SetX(x)
			if j == 0 {
				p.font("B", 10, ink)
			} else {
				p.font("", 9.5, ink)
			}
			p.t.MultiCell(w, 4.8, l, "L")
		}
		bottom = max(bottom, pdf.GetY())
	}
	pdf.SetXY(margin, bottom+2)
}

// band is a title on a tinted band w wide at the current position, which
// it leaves under the band.
func (p *printer) band(w, h float64, title string, size float64) {
	pdf := p.pdf
	x, y := pdf.GetX(), pdf.GetY()
	pdf.SetFillColor(tint[0], tint[1], tint[2])
	pdf.Rect(x, y, w, h, "F")
	p.font("B", size, ink)
	p.t.Cell(w, h, "  "+title, "L", 2)
}

func (p *printer) footer() {
	pdf := p.pdf
	pdf.SetY(-margin - 4)
	p.font("", 7.5, muted)
	printed := p.opts.Printed
	if printed.IsZero() {
		printed = time.Now()
	}
	p.t.Cell(p.bodyW*0.75, 4, fmt.Sprintf(wordFooter, p.sheet.Technician.Name, printed.In(p.opts.Location).Format(wordPrintedAt)), "L", 0)
	p.t.Cell(p.bodyW*0.25, 4, fmt.Sprintf(wordPageOf, pdf.PageNo()), "R", 0)
}

// keep starts a new page unless h millimetres fit on this one.
func (p *printer) keep(h float64) {
	if p.pdf.GetY()+h > p.pageH-margin-footerH {
		p.pdf.AddPage()
	}
}

func (p *printer) hr(after float64) {
	pdf := p.pdf
	pdf.SetDrawColor(rule[0], rule[1], rule[2])
	pdf.SetLineWidth(0.3)
	y := pdf.GetY() + 1
	pdf.Line(margin, y, margin+p.bodyW, y)
	pdf.SetY(y + after)
}

// siteLines are the site's name and its full address.
func siteLines(wo *api.WorkOrder) []string {
	loc := wo.ServiceLocation
	if loc == nil {
		return nil
	}
	lines := []string{loc.SpaceName}
	if a := loc.Address; a != nil {
		lines = append(lines, addressLines(a)...)
	}
	return nonEmpty(lines...)
}

// addressLines are an address as it is written on an envelope.
func addressLines(a *api.Address) []string {
	city := strings.TrimSpace(strings.Join(nonEmpty(a.PostalCode, a.City), " "))
	if a.State != "" {
		city = strings.TrimSpace(strings.Join(nonEmpty(city, a.State), ", "))
	}
	return nonEmpty(a.Street1, a.Street2, city, a.Country)
}

// contactLines are whom to call: their name, role, phones and emails,
// and the number to check in by phone.
func contactLines(wo *api.WorkOrder) []string {
	var who []string
	if c := wo.Contact; c != nil {
		who = append(who, c.FullName, c.ContactAt)
		who = append(who, c.Phones...)
		who = append(who, c.Emails...)
	}
	if ivr := wo.IvrInfo; ivr != nil && ivr.PhoneNumber != "" {
		line := fmt.Sprintf(wordCheckInByPhone, ivr.PhoneNumber)
		if ivr.Pin != "" {
			line += "  " + fmt.Sprintf(wordPIN, ivr.Pin)
		}
		who = append(who, line)
	}
	return nonEmpty(who...)
}

// words turns the service's "CallFirst" into "Call first".
func words(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
			b.WriteRune(r + ('a' - 'A'))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// titleCase turns the service's "HIGH" into "High".
func titleCase(s string) string {
	if s == "" {
		return s
	}
	lower := strings.ToLower(s)
	return strings.ToUpper(lower[:1]) + lower[1:]
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
