// Package jobsheet prints a work order as the one- or two-page PDF a
// technician takes on site: where to go and whom to call, what to do and
// by when, how much may be spent, and every procedure step with a box to
// tick and room to write. It knows api's types and nothing of storage or
// the window.
package jobsheet

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

// Options are what a sheet needs besides the work order.
type Options struct {
	// Fonts are what the sheet is set in: every script the work order
	// holds prints ("Köln", "¥", "さくらマート 梅田店").
	Fonts *pdftext.Set
	// Paper is A4 (the default) or Letter.
	Paper pdftext.Paper
	// Location is the time zone times are printed in; nil = time.Local.
	Location *time.Location
	// Printed is when the sheet was made, printed in its footer.
	Printed time.Time
	// Assigned are the technicians the work order is assigned to, as the
	// office knows it (queued assignments included); AssignedKnown false:
	// not known, and the sheet leaves a line to write the name on.
	Assigned      []api.Associate
	AssignedKnown bool
	// AccessNote is the internal note, printed as the access details (gate
	// codes live there) when the person ticked it; "" prints none.
	AccessNote string
}

// Write writes wo's job sheet to w.
func Write(w io.Writer, wo *api.WorkOrder, opts Options) error {
	if opts.Fonts == nil {
		return errors.New(wordNoFonts)
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	pdf := fpdf.New("P", "mm", string(opts.Paper.OrA4()), "")
	s := &sheet{pdf: pdf, t: opts.Fonts.Writer(pdf), wo: wo, opts: opts}
	s.pageW, s.pageH = pdf.GetPageSize()
	s.bodyW = s.pageW - 2*margin
	s.t.Hint(wo.Customer.Name, wo.SiteName(), wo.AccompanyingMessage, opts.AccessNote)
	s.layout()
	if err := s.pdf.Error(); err != nil {
		return fmt.Errorf("jobsheet: %w", err)
	}
	return s.pdf.Output(w)
}

// Page geometry, in millimetres; the page's own size is the paper's.
const (
	margin  = 14.0
	footerH = 12.0
)

// Colours: ink for what is printed, a soft grey for labels and rules, and
// a tint behind section titles.
var (
	ink   = [3]int{0x1d, 0x23, 0x2b}
	muted = [3]int{0x6b, 0x72, 0x80}
	rule  = [3]int{0xc4, 0xc9, 0xd1}
	tint  = [3]int{0xec, 0xf1, 0xf8}
	alarm = [3]int{0xb4, 0x23, 0x18}
)

type sheet struct {
	pdf          *fpdf.Fpdf
	t            *pdftext.Writer
	wo           *api.WorkOrder
	opts         Options
	pageW, pageH float64
	bodyW        float64
}

func (s *sheet) layout() {
	p := s.pdf
	p.SetTitle(fmt.Sprintf(wordDocTitle, s.wo.WorkOrderNumber), true)
	p.SetCreator(wordCreator, true)
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(true, margin+footerH)
	p.AliasNbPages("{nb}")
	p.SetFooterFunc(s.footer)
	p.SetHeaderFunc(func() {
		if p.PageNo() > 1 {
			s.font("B", 9, muted)
			s.t.Cell(s.bodyW, 5, fmt.Sprintf(wordContinued, s.wo.WorkOrderNumber), "R", 1)
			p.Ln(2)
		}
	})
	p.AddPage()
	s.title()
	s.whereAndWho()
	s.whenAndHowMuch()
	s.accessDetails()
	s.work()
	s.procedures()
	s.notes()
}

func (s *sheet) font(style string, size float64, c [3]int) {
	s.t.SetFont(style, size)
	s.pdf.SetTextColor(c[0], c[1], c[2])
}

// title is the band at the top: the number large, what it is beside it.
func (s *sheet) title() {
	p, wo, bodyW := s.pdf, s.wo, s.bodyW
	s.font("B", 8, muted)
	s.t.Cell(bodyW/2, 4, wordTitle, "L", 0)
	s.t.Cell(bodyW/2, 4, strings.ToUpper(words(string(wo.Status))), "R", 1)
	s.font("B", 22, ink)
	s.t.Cell(bodyW*0.6, 11, wo.WorkOrderNumber, "L", 0)
	if sla := wo.Sla; sla != nil && (sla.IsEmergency || sla.PriorityName != "") {
		prio := titleCase(sla.PriorityName)
		c := ink
		if sla.IsEmergency {
			prio, c = strings.TrimSpace(wordEmergency+" "+prio), alarm
		}
		s.font("B", 12, c)
		s.t.Cell(bodyW*0.4, 11, fmt.Sprintf(wordPriority, prio), "R", 0)
	}
	p.Ln(11)
	s.font("", 12, ink)
	line := wo.Customer.Name
	if wo.WorkType != nil && wo.WorkType.Name != "" {
		line += "  ·  " + wo.WorkType.Name
	}
	s.t.Cell(bodyW, 6, line, "L", 1)
	s.hr(2)
}

// whereAndWho: the site and its address beside the person to call.
func (s *sheet) whereAndWho() {
	wo := s.wo
	var site []string
	if loc := wo.ServiceLocation; loc != nil {
		site = append(site, loc.SpaceName)
		if a := loc.Address; a != nil {
			site = append(site, a.Street1, a.Street2,
				strings.TrimSpace(strings.Join(nonEmpty(a.PostalCode, a.City), " ")+suffix(", ", a.State)), a.Country)
		}
	}
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
		if ivr.ReferenceCode != "" {
			line += "  " + fmt.Sprintf(wordReference, ivr.ReferenceCode)
		}
		who = append(who, line)
	}
	s.columns(
		block{wordSite, nonEmpty(site...), wordNoSite, true},
		block{wordContact, nonEmpty(who...), wordNoContact, true},
	)
}

// whenAndHowMuch: access and appointment, the deadlines, the NTE.
func (s *sheet) whenAndHowMuch() {
	wo := s.wo
	access := []string{}
	pte := ""
	if wo.Schedule != nil {
		pte = words(wo.Schedule.Pte)
	}
	if pte != "" {
		access = append(access, fmt.Sprintf(wordAccess, pte))
	}
	if t := wo.ScheduledStart(); !t.IsZero() {
		access = append(access, fmt.Sprintf(wordAppointment, s.when(t)))
	} else {
		access = append(access, wordNotScheduled)
	}
	if names := s.technicians(); names != "" {
		access = append(access, fmt.Sprintf(wordTechnician, names))
	} else if s.opts.AssignedKnown {
		access = append(access, wordNotAssigned)
	}
	var due []string
	if sla := wo.Sla; sla != nil {
		for _, d := range []struct {
			label string
			at    *time.Time
		}{{wordAcknowledgeBy, sla.AcknowledgeBy}, {wordOnSiteBy, sla.OnSiteBy}, {wordDue, sla.DueDate}} {
			if d.at != nil && !d.at.IsZero() {
				due = append(due, d.label+": "+s.when(*d.at))
			}
		}
	}
	nte := wordNoLimit
	if !wo.Nte.NoLimit() {
		nte = wo.Nte.Amount.In(wo.Currency).Format() + " " + wo.Currency
	}
	nteLines := []string{nte}
	if !wo.Nte.NoLimit() {
		nteLines = append(nteLines, wordAskBeforeOver)
	}
	s.columns(
		block{wordAccessAndAppt, access, "", false},
		block{wordDeadlines, due, wordNoDeadlines, false},
		block{wordNTE, nteLines, "", true},
	)
}

// technicians are the assigned technicians' names, "" when none or not
// known.
func (s *sheet) technicians() string {
	var names []string
	for _, a := range s.opts.Assigned {
		names = append(names, a.Name)
	}
	return strings.Join(nonEmpty(names...), ", ")
}

// accessDetails: the internal note, when the person chose to print it:
// gate codes, key safes, where to park.
func (s *sheet) accessDetails() {
	note := strings.TrimSpace(s.opts.AccessNote)
	if note == "" {
		return
	}
	s.section(wordAccessDetails)
	s.font("", 10.5, ink)
	s.t.MultiCell(s.bodyW, 5.2, note, "L")
	s.pdf.Ln(2)
}

// work: what the customer asked for, and the assets it concerns.
func (s *sheet) work() {
	p, wo := s.pdf, s.wo
	s.section(wordWorkRequested)
	s.font("", 10.5, ink)
	desc := strings.TrimSpace(wo.AccompanyingMessage)
	if desc == "" {
		desc = wordNoDescription
	}
	s.t.MultiCell(s.bodyW, 5.2, desc, "L")
	if wo.WorkDetails != nil && len(wo.WorkDetails.Assets) > 0 {
		p.Ln(1.5)
		for _, a := range wo.WorkDetails.Assets {
			s.font("B", 9.5, ink)
			s.t.Cell(s.t.Width(wordAsset+"  "), 5, wordAsset, "L", 0)
			s.font("", 9.5, ink)
			s.t.MultiCell(0, 5, strings.Join(nonEmpty(a.AssetName, a.Path, a.Task, a.Comment), " · "), "L")
		}
	}
	p.Ln(2)
}

// procedures: every step with an empty box to tick and a line to write
// its value on.
func (s *sheet) procedures() {
	p := s.pdf
	procs := s.wo.Procedures()
	if len(procs) == 0 {
		return
	}
	s.section(wordProcedures)
	for _, pr := range procs {
		s.keep(6 + 8*float64(min(len(pr.Steps), 2)))
		s.font("B", 10.5, ink)
		name := pr.Name
		if pr.IsMarkedNa {
			name += wordMarkedNA
		}
		s.t.Cell(s.bodyW*0.75, 6, name, "L", 0)
		s.font("", 8, muted)
		legend := ""
		if slices.ContainsFunc(pr.Steps, func(st api.Step) bool { return st.IsRequired }) {
			legend = wordRequiredLegend
		}
		s.t.Cell(s.bodyW*0.25, 6, legend, "R", 1)
		for _, st := range pr.Steps {
			s.step(st)
		}
		p.Ln(2)
	}
}

// step is one procedure step: ☐ label — description, and a value line.
func (s *sheet) step(st api.Step) {
	p, bodyW := s.pdf, s.bodyW
	const box, indent, valueW = 4.2, 8.0, 48.0
	textW := bodyW - indent - valueW - 4
	label := st.Label
	if label == "" {
		label = st.Description
	}
	if st.IsRequired {
		label += " *"
	}
	// The whole step on one page: its box, its text and its value line.
	s.font("B", 9.5, ink)
	h := 4.8 * float64(len(s.t.Lines(label, textW)))
	if st.Description != "" && st.Description != st.Label {
		s.font("", 8.5, muted)
		h += 4.2 * float64(len(s.t.Lines(st.Description, textW)))
	}
	s.keep(max(h, 7.5) + 1)
	x, y := p.GetX(), p.GetY()
	p.SetDrawColor(ink[0], ink[1], ink[2])
	p.SetLineWidth(0.3)
	p.Rect(x+1, y+0.9, box, box, "D")
	p.SetXY(x+indent, y)
	s.font("B", 9.5, ink)
	s.t.MultiCell(textW, 4.8, label, "L")
	if st.Description != "" && st.Description != st.Label {
		p.SetX(x + indent)
		s.font("", 8.5, muted)
		s.t.MultiCell(textW, 4.2, st.Description, "L")
	}
	end := p.GetY()
	// The value line, at the right, on the label's baseline.
	vx := x + bodyW - valueW
	s.font("", 7.5, muted)
	p.SetXY(vx, y)
	s.t.Cell(valueW, 3, valueHint(st), "L", 0)
	p.SetDrawColor(rule[0], rule[1], rule[2])
	p.Line(vx, y+6.8, x+bodyW, y+6.8)
	p.SetXY(x, max(end, y+7.5)+1)
}

// valueHint says what a step's value is, above its line.
func valueHint(st api.Step) string {
	switch strings.ToLower(st.DataType) {
	case "bool", "boolean":
		return wordYesNo
	case "money", "currency":
		if st.Currency != "" {
			return fmt.Sprintf(wordAmountIn, st.Currency)
		}
		return wordAmount
	case "number", "int", "integer", "decimal":
		return wordNumber
	}
	return wordValue
}

// notes: ruled lines for notes down to the foot of the page, then the
// times on site and the signatures; on this page when two lines of notes
// fit, else on the next.
func (s *sheet) notes() {
	p, bodyW := s.pdf, s.bodyW
	const minLines, lineGap, timesH, signH = 2, 8.0, 11.0, 16.0
	s.keep(8 + minLines*lineGap + timesH + signH)
	s.section(wordNotes)
	bottom := s.pageH - margin - footerH - timesH - signH
	top := p.GetY()
	p.SetDrawColor(rule[0], rule[1], rule[2])
	p.SetLineWidth(0.2)
	for ly := top + lineGap; ly <= bottom; ly += lineGap {
		p.Line(margin, ly, margin+bodyW, ly)
	}
	y := bottom + 3
	for i, label := range []string{wordArrived, wordLeft, wordTechnicianBox} {
		x := margin + float64(i)*bodyW/3
		s.font("", 9.5, muted)
		p.SetXY(x, y)
		s.t.Cell(20, 6, label, "L", 0)
		p.SetDrawColor(ink[0], ink[1], ink[2])
		p.Line(x+20, y+5.5, x+bodyW/3-6, y+5.5)
		if label == wordTechnicianBox {
			// The assigned technicians' names on the line; who went
			// instead writes over them.
			s.font("", 9.5, ink)
			p.SetXY(x+20, y)
			s.t.Cell(bodyW/3-26, 6, s.fit(s.opts.Assigned, bodyW/3-26-2*p.GetCellMargin()), "L", 0)
		}
	}
	s.font("", 9.5, muted)
	sy := bottom + timesH + 4
	for i, label := range []string{wordTechSignature, wordCustSignature} {
		x := margin + float64(i)*(bodyW/2+4)
		p.Line(x, sy+6, x+bodyW/2-4, sy+6)
		p.SetXY(x, sy+7)
		s.t.Cell(bodyW/2-4, 4, label, "L", 0)
	}
}

// fit is the names of who as fits in room: all of them, else the first
// and how many more.
func (s *sheet) fit(who []api.Associate, room float64) string {
	names := s.technicians()
	if s.t.Width(names) <= room || len(who) < 2 {
		return names
	}
	return fmt.Sprintf(wordMoreTechnicians, who[0].Name, len(who)-1)
}

func (s *sheet) footer() {
	p := s.pdf
	p.SetY(-margin - 4)
	s.font("", 7.5, muted)
	left := s.wo.WorkOrderNumber + " · " + s.wo.Customer.Name
	if !s.opts.Printed.IsZero() {
		left += " · " + fmt.Sprintf(wordPrinted, s.when(s.opts.Printed))
	}
	s.t.Cell(s.bodyW*0.75, 4, left, "L", 0)
	s.t.Cell(s.bodyW*0.25, 4, fmt.Sprintf(wordPageOf, p.PageNo()), "R", 0)
}

// section starts a titled part of the sheet on a tinted band.
func (s *sheet) section(title string) {
	s.keep(16)
	s.band(s.bodyW, 6.5, title)
	s.pdf.SetX(margin)
	s.pdf.Ln(1.5)
}

// band is a section's title on a tinted band w wide, at the current
// position, which it leaves under the band.
func (s *sheet) band(w, h float64, title string) {
	p := s.pdf
	x, y := p.GetX(), p.GetY()
	p.SetFillColor(tint[0], tint[1], tint[2])
	p.Rect(x, y, w, h, "F")
	s.font("B", 9, ink)
	s.t.Cell(w, h, "  "+strings.ToUpper(title), "L", 2)
}

// keep starts a new page unless h millimetres fit on this one.
func (s *sheet) keep(h float64) {
	if s.pdf.GetY()+h > s.pageH-margin-footerH {
		s.pdf.AddPage()
	}
}

func (s *sheet) hr(after float64) {
	p := s.pdf
	p.SetDrawColor(rule[0], rule[1], rule[2])
	p.SetLineWidth(0.3)
	y := p.GetY() + 1
	p.Line(margin, y, margin+s.bodyW, y)
	p.SetY(y + after)
}

// block is a titled column of lines; empty says what an empty one means.
type block struct {
	title string
	lines []string
	empty string
	lead  bool // the first line is what matters most (a name, the amount): bold
}

// columns sets blocks side by side, each a section of its own.
func (s *sheet) columns(blocks ...block) {
	p := s.pdf
	const gap = 5.0
	w := (s.bodyW - gap*float64(len(blocks)-1)) / float64(len(blocks))
	s.keep(30)
	top := p.GetY()
	bottom := top
	for i, b := range blocks {
		x := margin + float64(i)*(w+gap)
		p.SetXY(x, top)
		s.band(w, 6.5, b.title)
		p.SetY(p.GetY() + 1.5)
		lines := b.lines
		if len(lines) == 0 && b.empty != "" {
			lines = []string{b.empty}
		}
		for j, l := range lines {
			p.SetX(x)
			if j == 0 && b.lead {
				s.font("B", 10, ink)
			} else {
				s.font("", 9.5, ink)
			}
			s.t.MultiCell(w, 5, l, "L")
		}
		bottom = max(bottom, p.GetY())
	}
	p.SetXY(margin, bottom+4)
}

// when is t as the office reads it: "Sat 21 Nov 2026 14:05".
// The year is left out when it is the year the sheet is printed in.
func (s *sheet) when(t time.Time) string {
	t = t.In(s.opts.Location)
	if printed := s.opts.Printed.In(s.opts.Location); !s.opts.Printed.IsZero() && printed.Year() == t.Year() {
		return t.Format(wordDateWithoutYear)
	}
	return t.Format(wordDateWithYear)
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

func suffix(sep, s string) string {
	if s == "" {
		return ""
	}
	return sep + s
}
