package format

import "github.com/workorderdesk/workdesk/api"

// Scheduled is the work order's scheduled start as the Summary and Visit
// tabs say it: its time and access type ("Appointment"), or "Not
// scheduled".
func Scheduled(wo *api.WorkOrder) string {
	t := wo.ScheduledStart()
	if t.IsZero() {
		return "Not scheduled"
	}
	s := Time(t)
	if wo.Schedule != nil && wo.Schedule.Pte != "" {
		s += " (" + Status(wo.Schedule.Pte) + ")"
	}
	return s
}
