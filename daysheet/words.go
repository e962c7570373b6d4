package daysheet

// Every word the day sheet and its calendar print, in one place for a
// translation to find. What the customer or the service wrote is printed
// as written.
const (
	wordTitle          = "DAY SHEET"
	wordDocTitle       = "Day sheet: %s, %s" // technician, the days
	wordCreator        = "Work Order Desk"
	wordNoVisit        = "no visits"
	wordOneVisit       = "1 visit"
	wordVisits         = "%d visits"
	wordNoVisits       = "No visits planned."
	wordTimesIn        = "Times are %s (UTC%s): the service gives no site's own time zone."
	wordDayVisits      = "%s · %s" // the day, how many visits
	wordWindow         = "%s–%s"   // start, estimated end
	wordWindowNote     = "Appointment %s–%s (the end is the office's estimate)"
	wordAccess         = "Access: %s"
	wordOnSiteBy       = "On site by %s"
	wordEmergency      = "EMERGENCY"
	wordPriority       = "%s priority"
	wordSite           = "Site"
	wordNoSite         = "No site given"
	wordContact        = "Contact"
	wordNoContact      = "No contact given"
	wordCheckInByPhone = "Check in by phone: %s"
	wordPIN            = "PIN %s"
	wordWorkRequested  = "Work requested"
	wordNoDescription  = "No description given."
	wordProcedures     = "Procedures to complete"
	wordMarkedNA       = "(marked not applicable)"
	wordRequired       = " *"
	wordRequiredLegend = "* required"
	wordAccessDetails  = "Access details (internal note)"
	wordNoNote         = "The internal note is empty."
	wordContinued      = "%s · continued" // technician
	wordFooter         = "Day sheet · %s · printed %s"
	wordPageOf         = "Page %d of {nb}"
	wordDayHeading     = "Monday 2 January 2006"
	wordDayShort       = "Mon 2 Jan 2006"
	wordTime           = "15:04"
	wordPrintedAt      = "Mon 2 Jan 2006 15:04"
	wordCalendarName   = "%s: visits (Work Order Desk)"
	wordSummary        = "%s · %s" // number, customer and site
	wordDescContact    = "Contact: %s"
	wordDescAccess     = "Access: %s"
	wordDescWorkOrder  = "Work order %s (%s)" // number, status
	wordDescProcedures = "Procedures: %s"
	wordDescAccessNote = "Access details: %s"
	wordNoFonts        = "daysheet: no font to print with"
	wordNoTechnician   = "daysheet: no technician"
)
