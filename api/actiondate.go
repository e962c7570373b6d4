package api

import "time"

// LateDelivery is how long after the tap a visit action may reach the
// service and still count as happening "in real time" (our threshold; the
// service publishes none).
const LateDelivery = 2 * time.Minute

// ActualActionDateFor decides the ActualActionDate a check-in, pause or
// check-out carries when it is sent (service-facts §4.1, §14: "if the step
// happens in real time, don't send it; if the customer does not allow
// back-dating it must be omitted or null"):
//
//   - backDated (the moment the person chose) is always sent: they asked
//     for it, and a customer that forbids it is checked before queueing;
//   - otherwise the action happens now, unless it waited in the queue
//     (offline) and reaches the service more than LateDelivery after the
//     tap: then the tap time is sent, where the customer allows back-dating;
//   - nil (the key omitted from the JSON) in every other case, so the
//     service records the time the request arrives.
func ActualActionDateFor(tapped time.Time, backDated *time.Time, sending time.Time, allowsBackdating bool) *time.Time {
	if backDated != nil {
		t := backDated.UTC()
		return &t
	}
	if tapped.IsZero() || !allowsBackdating || sending.Sub(tapped) <= LateDelivery {
		return nil
	}
	t := tapped.UTC()
	return &t
}
