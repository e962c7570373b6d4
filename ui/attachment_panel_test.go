package ui

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/api"
)

// TestEachPlaceOffersWhatItsRulesAllow: the same panel shows the files of a
// work order (never removable: the service has no way), of an invoice that
// may change (removable), and of a step of a procedure marked N/A (nothing
// may change, and it says why); every file can be opened.
func TestEachPlaceOffersWhatItsRulesAllow(t *testing.T) {
	h := newHarness(t)
	buttons := func(p fyne.CanvasObject) (open, remove []*widget.Button) {
		walk(p, func(o fyne.CanvasObject) {
			if b, ok := o.(*widget.Button); ok {
				switch b.Text {
				case "Open…":
					open = append(open, b)
				case "Remove…":
					remove = append(remove, b)
				}
			}
		})
		return open, remove
	}

	woID, file := workOrderFile(h)
	h.open(woID)
	h.desk.refreshDetails(woID)
	h.flush()
	h.selectTab("Attachments")
	wo := attachmentsOf(h)
	open, remove := buttons(wo)
	if len(open) == 0 || len(remove) != 0 || !strings.Contains(strings.Join(texts(wo), "\n"), file.Name) {
		t.Errorf("work order files: %d Open…, %d Remove…, texts %q", len(open), len(remove), texts(wo))
	}
	if says := strings.Join(texts(wo), "\n"); !strings.Contains(says, "cannot be removed") {
		t.Errorf("the work order's files say %q", says)
	}

	inv := openInvoice(h, func(_ *api.WorkOrder, i *api.Invoice, _ *api.PriceList) bool { return i.Status.Editable() })
	receipt := filepath.Join(t.TempDir(), "receipt.pdf")
	os.WriteFile(receipt, []byte("%PDF-1.4"), 0o600)
	inv.tab.AddFiles([]string{receipt}) // what dropping it on the window does
	h.send()
	open, remove = buttons(inv.tab.Content())
	if len(open) != 1 || len(remove) != 1 || remove[0].Disabled() || inv.button("Add file…").Disabled() {
		t.Errorf("an invoice that may change: %d Open…, %d Remove… (disabled %v), Add disabled %v",
			len(open), len(remove), len(remove) == 1 && remove[0].Disabled(), inv.button("Add file…").Disabled())
	}

	p, _ := openStep(h, func(_ *api.WorkOrder, p api.Procedure) bool { return p.IsMarkedNa })
	h.settle()
	open, remove = buttons(p.files())
	if len(open) == 0 || len(remove) != len(open) || !remove[0].Disabled() || open[0].Disabled() || !p.files().Add.Disabled() {
		t.Errorf("a step of a procedure marked N/A: %d Open…, %d Remove… (first disabled %v), Add disabled %v",
			len(open), len(remove), len(remove) > 0 && remove[0].Disabled(), p.files().Add.Disabled())
	}
	if says := strings.Join(texts(p.files()), "\n"); !strings.Contains(says, "marked N/A") {
		t.Errorf("the step explains %q", says)
	}
}

// TestAnAnswerForAnEarlierStepIsNotShownUnderAnother chooses a step whose
// files the service is slow to list, then another step: the second step's
// files show, and the first answer, arriving last, is dropped.
func TestAnAnswerForAnEarlierStepIsNotShownUnderAnother(t *testing.T) {
	var slowStep atomic.Int64 // the step whose files the service lists late
	slow := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(slow) }) }
	var running sync.WaitGroup
	h := newHarnessWith(t, harnessOptions{
		service: func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/procedure/step/attachments") && r.URL.Query().Get("stepId") == strconv.FormatInt(slowStep.Load(), 10) {
					<-slow
				}
				next.ServeHTTP(w, r)
			})
		},
		deps: func(d *Deps) {
			d.Background = func(f func()) {
				running.Add(1)
				go func() { defer running.Done(); f() }()
			}
		},
	})
	t.Cleanup(running.Wait)
	t.Cleanup(unblock)

	// Two steps of one procedure with different files.
	ctx := context.Background()
	var wo *api.WorkOrder
	var proc api.Procedure
	var first, second api.Step
	var want []api.StepAttachment
	count := func(w *api.WorkOrder, p api.Procedure, s api.Step) []api.StepAttachment {
		atts, err := h.desk.online.StepAttachments(ctx, api.StepRef{WorkOrderId: w.WorkOrderId, ProcedureId: p.Id, StepId: s.Id})
		if err != nil {
			t.Fatal(err)
		}
		return atts
	}
find:
	for _, r := range h.rows() {
		w, err := h.store.WorkOrder(ctx, r.Id)
		if err != nil {
			continue
		}
		for _, p := range w.Procedures() {
			for i := 1; i < len(p.Steps); i++ {
				a, b := count(w, p, p.Steps[0]), count(w, p, p.Steps[i])
				if len(b) > 0 && len(a) != len(b) {
					wo, proc, first, second, want = w, p, p.Steps[0], p.Steps[i], b
					break find
				}
			}
		}
	}
	if wo == nil {
		t.Fatal("no procedure of the demo world has two steps with different files")
	}
	slowStep.Store(first.Id)

	h.open(wo.WorkOrderId)
	h.selectTab("Procedures")
	p := procsOf(h)
	step := func(s api.Step) api.StepRef {
		return api.StepRef{WorkOrderId: wo.WorkOrderId, ProcedureId: proc.Id, StepId: s.Id}
	}
	p.choose(step(first))
	if says := strings.Join(texts(p.files()), "\n"); !strings.Contains(says, "Loading the step's files") {
		t.Fatalf("while the first step's files load, the panel says %q", says)
	}
	p.choose(step(second))
	h.waitFor("the second step's files", func() bool { return !strings.Contains(strings.Join(texts(p.files()), "\n"), "Loading") })
	unblock()
	running.Wait()
	h.flush()
	if len(p.files().Items()) != len(want) || !strings.Contains(p.says(), fmt.Sprintf(" › %d. ", second.Order)) {
		t.Fatalf("after the first step's late answer, the second step lists %d files, want its own %d", len(p.files().Items()), len(want))
	}
	for i, a := range want {
		if p.files().Items()[i].AttachmentId != a.AttachmentId {
			t.Fatalf("the second step lists %q, not its own %q", p.files().Items()[i].Name, a.Name)
		}
	}
}

// workOrderFile is a work order of the demo world with a file, and the file.
func workOrderFile(h *harness) (int64, api.Attachment) {
	h.t.Helper()
	for _, r := range h.rows() {
		if atts, err := h.eng.Client.ListAttachments(context.Background(), r.Id); err == nil && len(atts) > 0 {
			return r.Id, atts[0]
		}
	}
	h.t.Fatal("no work order of the demo world has a file")
	return 0, api.Attachment{}
}
