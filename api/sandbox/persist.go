package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/workorderdesk/workdesk/api"
)

// A demo is shown to customers, so what was done in it survives a restart
// or a crash of the app: with Options.StateFile the world is written there
// shortly after every change and read back by the next New. Only what a
// person can see is kept (work orders, invoices, messages, files and the
// id counters); customers and their policies come from the seed again, and
// queued notifications and MessageId records are not kept.

// snapshotVersion changes when the file's shape does; an older file is
// ignored and the demo starts over.
// 2: work orders name their branch and their associates.
// 3: the pre-4.1 orders were last changed lately (a saved world of 2 held
// an invoice dated years back, which made the demo's receivables look
// broken).
const snapshotVersion = 3

type snapshot struct {
	Version  int
	Seed     int64
	Orders   []snapOrder
	Steps    []snapFile // step attachments
	Counters snapCounters
}

type snapOrder struct {
	WorkOrder api.WorkOrder
	Customer  int64        // CustomerPolicy.Customer.Id
	Invoice   *api.Invoice `json:",omitempty"`
	Messages  []api.Message
	Files     []snapFile
	InvFiles  []snapFile
	Notes     []api.NoteEntry `json:",omitempty"`
}

type snapFile struct {
	Meta   api.Attachment
	Data   []byte
	WoID   int64
	ProcID int64 `json:",omitempty"`
	StepID int64 `json:",omitempty"`
}

type snapCounters struct {
	NextOrderID, NextLineID, NextMsgID, NextProcID, NextStepID int64
	NextNumber, NextDocument, Generated                        int
}

// persister writes the world to its file when it changed.
type persister struct {
	path  string
	gen   atomic.Int64 // bumped by every change
	saved int64        // the generation last written (saver goroutine only)
	stop  chan struct{}
	done  chan struct{}
}

// changed marks the world as needing a save; it never blocks.
func (s *Sandbox) changed() {
	if s.persist != nil {
		s.persist.gen.Add(1)
	}
}

// Restored reports whether New read the world back from Options.StateFile.
func (s *Sandbox) Restored() bool { return s.restored }

// startPersist loads the state file when there is one and starts the saver.
func (s *Sandbox) startPersist(path string) {
	s.persist = &persister{path: path, stop: make(chan struct{}), done: make(chan struct{})}
	if err := s.load(path); err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			s.log.Warn("the saved demo could not be read; starting it over", "file", path, "err", err)
		}
	} else {
		s.restored = true
	}
	go s.saveLoop()
}

func (s *Sandbox) saveLoop() {
	p := s.persist
	defer close(p.done)
	t := time.NewTicker(300 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			s.saveIfChanged()
			return
		case <-t.C:
			s.saveIfChanged()
		}
	}
}

func (s *Sandbox) stopPersist() {
	if s.persist != nil {
		close(s.persist.stop)
		<-s.persist.done
	}
}

func (s *Sandbox) saveIfChanged() {
	p := s.persist
	gen := p.gen.Load()
	if gen == p.saved {
		return
	}
	s.mu.RLock()
	b, err := json.Marshal(s.snapshot())
	s.mu.RUnlock()
	if err == nil {
		err = writeAtomically(p.path, b)
	}
	if err != nil {
		s.log.Warn("could not save the demo", "file", p.path, "err", err)
		return
	}
	p.saved = gen
}

// writeAtomically replaces path with b so that a crash leaves the old file
// or the new one, never half of one.
func writeAtomically(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func (s *Sandbox) snapshot() snapshot {
	st := s.st
	snap := snapshot{Version: snapshotVersion, Seed: s.opts.Seed, Counters: snapCounters{
		NextOrderID: st.nextOrderID, NextLineID: st.nextLineID, NextMsgID: st.nextMsgID, NextProcID: st.nextProcID,
		NextStepID: st.nextStepID, NextNumber: st.nextNumber, NextDocument: st.nextDocument, Generated: st.gen.count,
	}}
	files := func(fs []*file) []snapFile {
		out := make([]snapFile, len(fs))
		for i, f := range fs {
			out[i] = snapFile{Meta: f.meta, Data: f.data, WoID: f.woID, ProcID: f.procID, StepID: f.stepID}
		}
		return out
	}
	for _, e := range st.byUpdate {
		o := st.orders[e.id]
		snap.Orders = append(snap.Orders, snapOrder{WorkOrder: o.wo, Customer: o.cust.Customer.Id, Invoice: o.invoice,
			Messages: o.messages, Files: files(o.files), InvFiles: files(o.invFiles), Notes: o.notes})
	}
	for _, fs := range st.steps {
		snap.Steps = append(snap.Steps, files(fs)...)
	}
	return snap
}

// load replaces the generated work orders with the saved ones.
func (s *Sandbox) load(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if snap.Version != snapshotVersion || snap.Seed != s.opts.Seed {
		return fmt.Errorf("%s was saved by another version or world", path)
	}
	custs := map[int64]*CustomerPolicy{}
	for _, c := range s.st.customers {
		custs[c.Customer.Id] = c
	}
	st := newStore(snap.Seed)
	st.customers, st.gen = s.st.customers, s.st.gen
	st.gen.st, st.gen.count = st, snap.Counters.Generated
	// The generator's random stream is not saved; a new one seeded from the
	// counters keeps new dispatches varied rather than repeating the first.
	st.rng = rand.New(rand.NewPCG(uint64(snap.Seed), uint64(snap.Counters.NextOrderID)))
	st.gen.rng = st.rng
	c := snap.Counters
	st.nextOrderID, st.nextLineID, st.nextMsgID, st.nextProcID, st.nextStepID = c.NextOrderID, c.NextLineID, c.NextMsgID, c.NextProcID, c.NextStepID
	st.nextNumber, st.nextDocument = c.NextNumber, c.NextDocument
	files := func(fs []snapFile) []*file {
		out := make([]*file, len(fs))
		for i, f := range fs {
			out[i] = &file{meta: f.Meta, data: f.Data, woID: f.WoID, procID: f.ProcID, stepID: f.StepID}
			st.files[f.Meta.AttachmentId] = out[i]
		}
		return out
	}
	for _, so := range snap.Orders {
		cust := custs[so.Customer]
		if cust == nil {
			return fmt.Errorf("%s names customer %d, which this world does not have", path, so.Customer)
		}
		st.load(&order{wo: so.WorkOrder, cust: cust, invoice: so.Invoice, messages: so.Messages,
			files: files(so.Files), invFiles: files(so.InvFiles), notes: so.Notes})
	}
	for _, f := range files(snap.Steps) {
		st.steps[f.stepID] = append(st.steps[f.stepID], f)
	}
	st.sortIndex()
	s.st = st
	return nil
}
