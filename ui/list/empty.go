package list

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/format"
)

// An empty list says what hides the rows, as it is: the search, the status
// filter or Needs attention, or their combination, with a button to clear
// each. "No work order matches “harbor”" when the filter, not the search,
// hid the one that does was a wrong word.

type emptyButtons struct {
	search, status, attention *widget.Button
}

func (v *View) newEmptyButtons() emptyButtons {
	b := emptyButtons{
		search:    widget.NewButtonWithIcon("Clear the search", theme.ContentClearIcon(), func() { v.search.SetText(""); v.backToSearch() }),
		status:    widget.NewButtonWithIcon("Show all statuses", theme.ContentClearIcon(), func() { v.statusSel.SetSelectedIndex(0); v.backToSearch() }),
		attention: widget.NewButtonWithIcon("Untick Needs attention", theme.ContentClearIcon(), func() { v.attention.SetChecked(false); v.backToSearch() }),
	}
	for _, btn := range []*widget.Button{b.search, b.status, b.attention} {
		btn.Hide()
	}
	return b
}

// backToSearch gives the search box the keyboard once a button of the
// empty list has shown the rows again, so that Enter opens the first of
// them as after a search: the button went away with the keyboard on it,
// and Enter did nothing (issue 38's second tryout).
func (v *View) backToSearch() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v.search); c != nil {
		c.Focus(v.search)
	}
}

func (v *View) emptyView() fyne.CanvasObject {
	return container.NewVBox(layout.NewSpacer(), v.empty,
		container.NewCenter(container.NewHBox(v.unhide.search, v.unhide.status, v.unhide.attention)), layout.NewSpacer())
}

// filterWords names the filters in a sentence: "is Accepted", "needs
// attention", "is Accepted and needs attention" ("" with none on).
func (v *View) filterWords() string {
	words := ""
	if len(v.query.Statuses) == 1 {
		words = "is " + format.ShortStatus(v.query.Statuses[0])
	}
	if v.query.NeedsAttention {
		if words != "" {
			words += " and "
		}
		words += "needs attention"
	}
	return words
}

func (v *View) updateEmpty() {
	search, filters := v.query.Search != "", v.filterWords()
	arrange.ShowIf(v.total == 0 && search, v.unhide.search)
	arrange.ShowIf(v.total == 0 && len(v.query.Statuses) > 0, v.unhide.status)
	arrange.ShowIf(v.total == 0 && v.query.NeedsAttention, v.unhide.attention)
	switch {
	case v.total > 0:
		v.empty.Hide()
		return
	case v.all == 0:
		v.empty.SetText("No work orders yet. They appear after the first sync with the service.")
	case search && filters != "":
		// Which of the two hides them: the search finds some that the
		// filters hide, or finds none whatever the filters.
		found := v.countSearchAlone()
		switch {
		case found == 0:
			v.empty.SetText(fmt.Sprintf("No work order matches “%s”, whatever its status.\n%s", v.query.Search, searchHint))
			v.unhide.status.Hide()
			v.unhide.attention.Hide()
		case found < 0:
			v.empty.SetText(fmt.Sprintf("No work order matching “%s” %s.", v.query.Search, filters))
		default:
			v.empty.SetText(fmt.Sprintf("“%s” matches %s, but none %s.", v.query.Search, workOrders(found), filters))
		}
	case search:
		v.empty.SetText(fmt.Sprintf("No work order matches “%s”.\n%s", v.query.Search, searchHint))
	default:
		v.empty.SetText(fmt.Sprintf("No work order %s.", filters))
	}
	v.empty.Show()
}

// searchHint says how the search finds work orders.
const searchHint = "Search finds a work order number by any of its digits, and customers, sites and descriptions by how their words start."

// countSearchAlone is how many work orders the search finds with no
// filter; -1 when that cannot be read.
func (v *View) countSearchAlone() int {
	n, err := v.store.CountList(context.Background(), storage.ListQuery{Search: v.query.Search})
	if err != nil {
		return -1
	}
	return n
}

// workOrders counts work orders in words: "1 work order", "3 work orders".
func workOrders(n int) string {
	if n == 1 {
		return "1 work order"
	}
	return fmt.Sprintf("%d work orders", n)
}
