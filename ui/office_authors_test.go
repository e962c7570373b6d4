package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// messageHeadings are the Messages tab's headings, as drawn.
func (h *harness) messageHeadings() []string {
	var out []string
	for _, m := range msgsOf(h).rows() {
		out = append(out, m.heading)
	}
	return out
}

// In an office every message used to read "Our team". Ana writes one in
// her window; Bo's names her as its author, in the thread and in the
// Activity tab, and hers names it as her own.
func TestAnOfficeMessageNamesItsAuthor(t *testing.T) {
	o := newHubOffice(t)
	id := o.newWorkOrders(1)[0]
	ana := o.desk("Ana Ruiz", o.srv.URL)
	bo := o.desk("Bo Chen", o.srv.URL)

	ana.open(id)
	ana.selectTab("Messages")
	m := msgsOf(ana)
	m.text().SetText("Parts are on the van.")
	test.Tap(m.send())
	ana.send()

	bo.open(id)
	bo.selectTab("Messages")
	bo.waitFor("Ana's message named as hers in Bo's window", func() bool {
		bo.desk.refreshDetails(id)
		return slices.ContainsFunc(bo.messageHeadings(), func(s string) bool { return strings.HasPrefix(s, "Ana Ruiz · ") })
	})
	bo.selectTab("Activity")
	if got := bo.activity(); !slices.Contains(got, "Ana Ruiz sent a message") {
		t.Errorf("Bo's Activity tab: %q", got)
	}
	ana.desk.refreshDetails(id)
	ana.flush()
	if got := ana.messageHeadings(); !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "You · ") }) ||
		slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "Ana Ruiz") || strings.HasPrefix(s, "Our team") }) {
		t.Errorf("Ana's own message in her window: %q", got)
	}
}
