package files

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui/actiontext"
	"github.com/workorderdesk/workdesk/ui/arrange"
	"github.com/workorderdesk/workdesk/ui/dialogs"
	"github.com/workorderdesk/workdesk/ui/format"
)

// Panel is the files of one place (a work order, its invoice, a
// procedure step) and what a person does with them: see them listed, add
// one with Add file… or by dropping it on the window, see it being copied
// and then queued, remove one where the service allows it, and open or save
// one through its temporary link (linkDialog). The three tabs that show
// files each describe their place (Place) and lay the panel out; the
// flow itself is written once, here.
type Panel struct {
	widget.BaseWidget
	host  Host
	rows  Outbox
	place *Place // nil: no place chosen (no step picked yet)
	// NoPlace says why files cannot be added while no place is shown.
	NoPlace string

	items    []api.Attachment
	gen      int                 // listing generation: an answer for an earlier listing is dropped
	seenDone int64               // newest finished change to the files already re-listed for (live places)
	copying  map[string][]string // place key → files being copied and queued now
	removing map[string]bool     // attachment ids whose removal is being queued
	link     *linkDialog         // the open file's dialog, while it is open

	note    *widget.Label  // what may be done here, or why not
	Add     *widget.Button // Add file…
	refresh *widget.Button // live places: list again
	state   *widget.Label  // live places: loading, how many, a failed listing
	pending *widget.Label  // files being copied, our changes on their way, the last refusal
	busyBar *widget.ProgressBarInfinite
	empty   *widget.Label
	list    *widget.List    // the rows, virtualized: a step has no limit on its files
	box     *fyne.Container // the rows when inline (an invoice carries a handful)
	root    fyne.CanvasObject
}

// NewPanel makes a panel under header (nil for none), showing our changes
// on their way from rows; inline puts the rows in a box inside the tab's
// own scroll instead of a list of their own.
func NewPanel(host Host, rows Outbox, inline bool, header fyne.CanvasObject) *Panel {
	p := &Panel{host: host, rows: rows, copying: map[string][]string{}, removing: map[string]bool{}}
	p.note = widget.NewLabel("")
	p.note.Wrapping = fyne.TextWrapWord
	p.note.Hide()
	p.Add = widget.NewButtonWithIcon("Add file…", theme.ContentAddIcon(), p.onAdd)
	p.refresh = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), func() { p.reload() })
	p.refresh.Hide()
	p.state = arrange.Wrapped(widget.NewLabel(""))
	p.state.Hide()
	p.pending = arrange.Wrapped(widget.NewLabel(""))
	p.pending.Importance = widget.LowImportance
	p.pending.Hide()
	p.busyBar = widget.NewProgressBarInfinite()
	p.busyBar.Stop()
	p.busyBar.Hide()
	p.empty = arrange.Wrapped(widget.NewLabel(""))
	p.empty.Importance = widget.LowImportance
	p.empty.Hide()

	top := []fyne.CanvasObject{p.note, container.NewHBox(p.Add, p.refresh), p.state, p.pending, p.busyBar}
	if header != nil {
		top = append([]fyne.CanvasObject{header}, top...)
	}
	if inline {
		p.box = container.NewVBox()
		p.root = container.NewVBox(append(top, p.empty, p.box)...)
	} else {
		p.list = widget.NewList(func() int { return len(p.items) }, newFileRow, func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < len(p.items) {
				p.updateRow(o.(*fyne.Container), p.items[i])
			}
		})
		p.root = container.NewBorder(container.NewVBox(top...), nil, nil, nil, container.NewStack(p.empty, p.list))
	}
	p.ExtendBaseWidget(p)
	return p
}

func (p *Panel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(p.root)
}

// newFileRow is one file: its name on a line of its own (beside the
// buttons it got no room at all), its size and date under it.
func newFileRow() fyne.CanvasObject {
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.Truncation = fyne.TextTruncateEllipsis
	meta := widget.NewLabel("")
	meta.Truncation = fyne.TextTruncateEllipsis
	open := widget.NewButtonWithIcon("Open…", theme.FileIcon(), nil)
	remove := widget.NewButtonWithIcon("Remove…", theme.DeleteIcon(), nil)
	return container.NewBorder(nil, nil, widget.NewIcon(theme.FileIcon()),
		container.NewVBox(layout.NewSpacer(), container.NewHBox(open, remove), layout.NewSpacer()),
		container.New(layout.NewCustomPaddedVBoxLayout(0), name, meta))
}

func (p *Panel) updateRow(row *fyne.Container, a api.Attachment) {
	lines := row.Objects[0].(*fyne.Container)
	lines.Objects[0].(*widget.Label).SetText(a.Name)
	lines.Objects[1].(*widget.Label).SetText(api.HumanSize(a.Size) + "   ·   " + format.Time(a.Created))
	buttons := row.Objects[2].(*fyne.Container).Objects[1].(*fyne.Container)
	buttons.Objects[0].(*widget.Button).OnTapped = func() { p.open(a) }
	remove := buttons.Objects[1].(*widget.Button)
	remove.OnTapped = func() { p.confirmRemove(a) }
	pl := p.place
	arrange.ShowIf(pl != nil && pl.Remove != nil, remove)
	arrange.SetEnabled(remove, pl != nil && pl.CanRemove && !p.removing[a.AttachmentId])
}

// SetPlace shows the files of pl (nil: no place chosen). The same place shown
// again (the work order changed) keeps its list on screen while it is read
// again; a live place is listed again only once one of our changes to it
// has been answered.
func (p *Panel) SetPlace(pl *Place) {
	same := p.place != nil && pl != nil && p.place.Key == pl.Key
	p.place = pl
	if pl == nil {
		p.gen++
		p.items = nil
		p.render()
		return
	}
	done := p.latestFinished()
	switch {
	case !same:
		p.items = nil
		p.seenDone = done
		if p.list != nil {
			p.list.ScrollToTop()
		}
		p.reload()
	case !pl.Live:
		p.reload()
	case done > p.seenDone:
		p.seenDone = done
		p.reload()
	}
	p.render()
}

// reload reads the files again: a live place from the service, in the
// background, saying so meanwhile; otherwise from the replica.
func (p *Panel) reload() {
	pl := p.place
	if pl == nil {
		return
	}
	p.gen++
	if !pl.Live {
		p.items, _ = pl.List(context.Background()) // nil on a failed read
		p.renderRows()
		return
	}
	gen := p.gen
	p.items = nil
	p.renderRows()
	if !p.host.Connected() {
		p.setState("Listing " + pl.Noun + " needs a connection to the service.")
		return
	}
	p.setState("Loading " + pl.Noun + "…")
	var files []api.Attachment
	p.host.Run(func(ctx context.Context) error {
		var err error
		files, err = pl.List(ctx)
		return err
	}, func(err error) {
		if gen != p.gen {
			return // another place, or a later listing, is on screen
		}
		if err != nil {
			p.setState("Could not list the files: " + format.Error(err) + " Use Refresh to try again.")
			return
		}
		p.items = files
		switch len(files) {
		case 0:
			p.setState(cmp.Or(pl.Empty, "No files."))
		case 1:
			p.setState("1 file.")
		default:
			p.setState(fmt.Sprintf("%d files.", len(files)))
		}
		p.renderRows()
	})
}

func (p *Panel) setState(s string) {
	p.state.SetText(s)
	arrange.ShowIf(s != "", p.state)
	p.Refresh() // the text wraps: its new height needs a layout
}

// render shows what the place allows, the rows and our pending changes.
func (p *Panel) render() {
	pl := p.place
	if pl == nil {
		pl = &Place{WhyNot: p.NoPlace} // nothing to show, nothing to add to
	}
	p.note.SetText(pl.Note)
	p.note.Importance = widget.LowImportance
	if pl.Warn {
		p.note.Importance = widget.WarningImportance
	}
	arrange.ShowIf(pl.Note != "", p.note)
	p.note.Refresh()
	arrange.SetEnabled(p.Add, p.place != nil && pl.WhyNot == "")
	arrange.ShowIf(pl.Live, p.refresh)
	if !pl.Live {
		p.setState("")
	}
	p.renderRows()
	p.renderPending()
}

func (p *Panel) renderRows() {
	pl := p.place
	arrange.ShowIf(len(p.items) == 0 && pl != nil && !pl.Live && pl.Empty != "", p.empty)
	if pl != nil {
		p.empty.SetText(pl.Empty)
	}
	if p.list != nil {
		p.list.Refresh()
		return
	}
	objs := make([]fyne.CanvasObject, len(p.items))
	for i, a := range p.items {
		row := newFileRow().(*fyne.Container)
		p.updateRow(row, a)
		objs[i] = row
	}
	p.box.Objects = objs
	p.box.Refresh()
}

// renderPending shows the files being copied for this place, then our
// changes to its files still on their way and the last refusal, so a
// queued file does not look lost; it takes no room when there are none.
func (p *Panel) renderPending() {
	var lines []string
	copying := 0
	if pl := p.place; pl != nil {
		for _, name := range p.copying[pl.Key] {
			lines = append(lines, "Copying "+name+"…")
		}
		copying = len(lines)
		rows, _ := p.rows.OutboxRows(context.Background(), pl.WoID)
		for _, r := range rows {
			if pl.Mine(r) && r.State != storage.OutboxDone && r.State != storage.OutboxDiscarded {
				lines = append(lines, actiontext.What(r)+" — "+actiontext.State(r))
			}
		}
	}
	p.pending.SetText(strings.Join(lines, "\n"))
	arrange.ShowIf(len(lines) > 0, p.pending)
	if copying > 0 {
		p.busyBar.Show()
		p.busyBar.Start()
	} else {
		p.busyBar.Stop()
		p.busyBar.Hide()
	}
	p.Refresh()
}

// latestFinished is the id of the newest of our changes to the place's
// files that the service has answered (done or refused); 0 when none.
func (p *Panel) latestFinished() int64 {
	pl := p.place
	if pl == nil || !pl.Live {
		return 0
	}
	rows, err := p.rows.OutboxRows(context.Background(), pl.WoID)
	if err != nil {
		return 0
	}
	var latest int64
	for _, r := range rows {
		if pl.Mine(r) && (r.State == storage.OutboxDone || r.State == storage.OutboxFailed) && r.Id > latest {
			latest = r.Id
		}
	}
	return latest
}

func (p *Panel) onAdd() {
	dialogs.OpenFile(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		p.AddFiles([]string{path})
	}, p.host.Window())
}

// AddFiles copies files into the spool and queues them for the place shown,
// in the background: a copy of up to 20 MB and the wait for the replica's
// writer must not freeze the window. A file over the service's 20 MB limit
// is refused before anything is copied, and so is every file while the
// place takes none.
func (p *Panel) AddFiles(paths []string) {
	pl := p.place
	switch {
	case len(paths) == 0:
		return
	case pl == nil:
		p.host.ShowError(errors.New(p.NoPlace))
		return
	case pl.WhyNot != "":
		p.host.ShowError(errors.New(pl.WhyNot))
		return
	}
	names := make([]string, len(paths))
	writes := make([]func(context.Context) error, len(paths))
	for i, path := range paths {
		names[i] = filepath.Base(path)
		writes[i] = pl.Add(path)
	}
	p.copying[pl.Key] = append(p.copying[pl.Key], names...)
	p.renderPending()
	var refused, queued []string
	p.host.Write(func(ctx context.Context) error {
		for i, path := range paths {
			if fi, err := os.Stat(path); err == nil && fi.Size() > api.MaxAttachmentSize {
				refused = append(refused, fmt.Sprintf("%s is %s", names[i], api.HumanSize(fi.Size())))
				continue
			}
			if err := writes[i](ctx); err != nil {
				return err
			}
			queued = append(queued, names[i])
		}
		return nil
	}, func(err error) {
		left := p.copying[pl.Key]
		for _, n := range names {
			if i := slices.Index(left, n); i >= 0 {
				left = slices.Delete(left, i, i+1)
			}
		}
		p.copying[pl.Key] = left
		switch {
		case err != nil:
			p.host.ShowError(err)
		case len(refused) > 0:
			p.host.ShowError(fmt.Errorf("not attached, over the service's 20 MB limit: %s", strings.Join(refused, "; ")))
		}
		if len(queued) == 1 {
			p.host.Queued(queued[0] + " for " + pl.What)
		} else if len(queued) > 1 {
			p.host.Queued(fmt.Sprintf("%d files for %s", len(queued), pl.What))
		}
		p.renderPending()
	})
}

// confirmRemove asks before queueing the removal of a; Remove stays
// disabled on the file while the removal is being queued.
func (p *Panel) confirmRemove(a api.Attachment) {
	pl := p.place
	if pl == nil || pl.Remove == nil {
		return
	}
	if !pl.CanRemove {
		p.host.ShowError(errors.New(pl.Note))
		return
	}
	dialogs.Final("Remove "+a.Name+"?", "The file is removed from "+pl.From+" at the service.", "Remove", true, func(ok bool) {
		if !ok || p.removing[a.AttachmentId] {
			return
		}
		p.removing[a.AttachmentId] = true
		p.renderRows()
		p.host.Write(pl.Remove(a.AttachmentId), func(err error) {
			delete(p.removing, a.AttachmentId)
			p.renderRows()
			if err != nil {
				p.host.ShowError(err)
				return
			}
			p.host.Queued("Remove " + a.Name)
			p.renderPending()
		})
	}, p.host.Window())
}

// open shows a's dialog, which fetches a fresh temporary link to open or
// save the file; the link is never kept beyond the dialog.
func (p *Panel) open(a api.Attachment) {
	pl := p.place
	if pl == nil {
		return
	}
	if !p.host.Connected() {
		p.host.ShowError(errors.New("opening files needs a connection to the service"))
		return
	}
	link, id := pl.Link, a.AttachmentId
	p.link = newLinkDialog(p.host, a.Name, func(ctx context.Context) (api.DownloadURL, error) { return link(ctx, id) })
	p.link.onClosed = func(l *linkDialog) {
		if p.link == l {
			p.link = nil
		}
	}
}
