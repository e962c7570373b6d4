package actiontext

import (
	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/outbox"
	"github.com/workorderdesk/workdesk/storage"
)

// What a colleague did through the office hub, as the window tells it: the
// Activity tab's title, the header's note and the explanation of a refusal
// it caused, each read from the action table's wording.

// colleagueVerb says what a colleague did through the hub, by the action
// of the hub's event for the write: "checked in" and, joined to the work
// order, "checked in on"; "changed" for an action this build cannot word.
// An action done to someone names whom between (whom, as the event named
// them; "someone" when it did not): "assigned Kenji Sato", "assigned Kenji
// Sato to".
func colleagueVerb(action, whom string) (verb, didTo string) {
	w, ok := outbox.ColleagueWording(action)
	if !ok {
		return "changed", "changed"
	}
	if !w.ToWhom {
		return w.Verb, w.DidTo()
	}
	if whom == "" {
		whom = "someone"
	}
	verb = w.Verb + " " + whom
	if w.Of == "" {
		return verb, verb
	}
	return verb, verb + " " + w.Of
}

// ColleagueDid is an Activity title for what someone did through the hub:
// "Ben Okafor accepted", "Ana Ruiz assigned Kenji Sato" (the object is the
// work order the Activity tab is on).
func ColleagueDid(name, action, whom string) string {
	verb, _ := colleagueVerb(action, whom)
	return name + " " + verb
}

// ColleagueDidThis says it of the work order shown: "Ben Okafor checked in on this".
func ColleagueDidThis(name, action, whom string) string {
	_, didTo := colleagueVerb(action, whom)
	return name + " " + didTo + " this"
}

// ColleagueDidEvent is the Activity title of a hub event, saying exactly
// what was done where the event says it: "Ana Ruiz completed step 3 of
// Roof inspection" (wo is the work order as the replica has it).
func ColleagueDidEvent(e storage.EventRecord, wo *api.WorkOrder) string {
	if did := outbox.ColleagueDid(e.Event, wo); did != "" {
		return e.PerformedBy + " " + did
	}
	return ColleagueDid(e.PerformedBy, e.Header.Action, e.Whom)
}

// ColleagueDidThisEvent says it of the work order shown: the exact words
// when the event has them ("Ana Ruiz completed step 3 of Roof
// inspection"), else "Ana Ruiz checked in on this".
func ColleagueDidThisEvent(e storage.EventRecord, wo *api.WorkOrder) string {
	w, ok := outbox.ColleagueWording(e.Header.Action)
	if did := outbox.ColleagueDid(e.Event, wo); ok && did != "" && did != w.Verb {
		return e.PerformedBy + " " + did
	}
	return ColleagueDidThis(e.PerformedBy, e.Header.Action, e.Whom)
}

// ColleagueBefore explains a refusal by what someone did first, at at:
// "Already accepted by Ben Okafor at 10:02.", or for an action without a
// past tense "Ben Okafor saved the invoice of this at 10:02, before you."
func ColleagueBefore(name, action, whom, at string) string {
	if w, ok := outbox.ColleagueWording(action); ok && w.Past != "" {
		return "Already " + w.Past + " by " + name + " at " + at + "."
	}
	return ColleagueDidThis(name, action, whom) + " at " + at + ", before you."
}
