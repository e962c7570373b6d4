package daysheetview

// Every word the day sheet dialog shows, in one place for a translation
// to find.
const (
	wordNoSuchTechnician = "no technician of that name"
	wordNobodyKnown      = "the replica knows no technicians yet (sync first)"
	wordKnown            = "the technicians are: %s"
	wordTitle            = "Day sheet and calendar"
	wordAbout            = "One technician's visits in planned order, to print (where to go, whom to call, how to get in, what to do) and as a calendar file (.ics) their phone or Outlook imports; importing it again updates the visits. Visits done or closed are left off the sheet and cancelled in the calendar."
	wordTechnician       = "Technician"
	wordFrom             = "From"
	wordDays             = "Days"
	wordOneDay           = "One day"
	wordWeek             = "Seven days"
	wordPaper            = "Paper"
	wordNoteTick         = "Print the internal note (access details, gate codes)"
	wordOpen             = "Open PDF"
	wordSavePDF          = "Save PDF…"
	wordSaveICS          = "Save calendar…"
	wordClose            = "Close"
	wordBadDate          = "type the day as the window writes it, e.g. %s"
	wordNoTechnicians    = "No technicians are known yet: sync first, then try again."
	wordReading          = "Reading the visits…"
	wordCount            = "%s, %s: %s." // technician, days, visits
	wordNone             = "no visits planned"
	wordOne              = "1 visit"
	wordMany             = "%d visits"
	wordOff              = " (%d done or closed: cancelled in the calendar)"
	wordMaking           = "Making the day sheet…"
	wordSaving           = "Saving…"
	wordOpened           = "Opened %s in your PDF viewer: print it from there."
	wordNoProgram        = "no program opened it (%s); it is at %s, or use Save PDF…"
	wordNotOpened        = "The day sheet could not be opened: %s"
	wordSavedAs          = "Saved as %s."
	wordNotSaved         = "It could not be saved, and nothing was: %s"
	wordFileName         = "%s day sheet %s" // technician, first day
	wordDayFormat        = "Mon 2 Jan 2006"
)
