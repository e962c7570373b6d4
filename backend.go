package main

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/api/sandbox"
	"github.com/workorderdesk/workdesk/storage"
	"github.com/workorderdesk/workdesk/ui"
)

// backend is the engine behind the window plus, in demo mode, the
// in-process sandbox it talks to (main is the only place that may import
// the sandbox).
type backend struct {
	*storage.Engine
	sb        *sandbox.Sandbox // demo mode only
	person    *officePerson    // office mode only
	closeOnce sync.Once
}

// checkContract is `workdesk doctor --contract` for the window's service
// (through the hub in office mode: it answers with the service's JSON);
// nil when the window browses a replica without one.
func (b *backend) checkContract(ctx context.Context) *api.ContractReport {
	if b.Client == nil {
		return nil
	}
	return api.CheckContract(ctx, b.Client, nil)
}

// startDemo runs the sandbox in-process on a loopback port, with its
// receiver. The demo's world is kept beside its replica, so a restart (or a
// crash in front of a customer) carries on where it was; when there is no
// saved world the replica starts empty too, or the two would disagree.
func startDemo(ctx context.Context, dataDir string) (*backend, error) {
	return startDemoIn(ctx, dataDir, sandbox.DialectPlain)
}

// startDemoIn is startDemo with the sandbox answering in dialect
// (--demo-dialect renamed: the window as it is where our guesses of the
// service's field names were wrong).
func startDemoIn(ctx context.Context, dataDir string, dialect sandbox.Dialect) (*backend, error) {
	path, err := replicaPath(dataDir, "demo")
	if err != nil {
		return nil, err
	}
	sb, err := sandbox.New(sandbox.Options{
		CustomerEvery:  45 * time.Second,
		RetryIntervals: []time.Duration{2 * time.Second, 5 * time.Second, 10 * time.Second, 30 * time.Second},
		StateFile:      demoWorldPath(path),
		Dialect:        dialect,
	})
	if err != nil {
		return nil, err
	}
	info, err := sb.Start("127.0.0.1:0")
	if err != nil {
		sb.Close()
		return nil, err
	}
	if !sb.Restored() {
		if err := storage.RemoveReplica(path); err != nil {
			sb.Close()
			return nil, fmt.Errorf("clearing the last demo's replica: %w", err)
		}
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{Connection: api.Connection{
		BaseURL: info.BaseURL, TokenURL: info.TokenURL, ClientID: info.ClientID, ClientSecret: info.ClientSecret},
		PerformedBy: personName()})
	if err != nil {
		sb.Close()
		return nil, err
	}
	b := &backend{Engine: eng, sb: sb}
	v, err := api.NewVerifier(info.CertPEM)
	if err != nil {
		b.Close()
		return nil, err
	}
	addr, err := eng.Listen("127.0.0.1:0", "/notify", eng.Receiver(v, api.ReceiverOptions{}))
	if err != nil {
		b.Close()
		return nil, err
	}
	sb.SetNotifyURL("http://" + addr.String() + "/notify")
	return b, nil
}

// personName is who sits at this computer, as the system knows them (the
// account's full name, else its login): the PerformedBy of their writes.
// In office mode the hub's name for the person is used instead.
func personName() string {
	u, err := user.Current()
	if err != nil {
		return ""
	}
	if name, _, _ := strings.Cut(u.Name, ","); strings.TrimSpace(name) != "" {
		return strings.TrimSpace(name) // GECOS: the full name, then room and phones
	}
	return u.Username
}

// startLive connects to a configured service; the receiver runs when a
// certificate is configured.
func startLive(ctx context.Context, dataDir string, conn api.Connection, receiverAddr string, checkSource bool) (*backend, error) {
	path, err := replicaPath(dataDir, storage.ProfileForBaseURL(conn.BaseURL))
	if err != nil {
		return nil, err
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{Connection: conn, PerformedBy: personName()})
	if err != nil {
		return nil, err
	}
	if conn.CertPath != "" {
		v, err := api.LoadVerifier(conn.CertPath)
		if err != nil {
			eng.Close()
			return nil, err
		}
		if _, err := eng.Listen(receiverAddr, "/notify", eng.Receiver(v, api.ReceiverOptions{CheckSource: checkSource})); err != nil {
			eng.Close()
			return nil, err
		}
	}
	return &backend{Engine: eng}, nil
}

// openOffline opens an existing replica with no service behind it: the
// window reads it, and actions wait in its outbox.
func openOffline(ctx context.Context, path string) (*backend, error) {
	eng, err := storage.OpenExistingEngine(ctx, path)
	if err != nil {
		return nil, err
	}
	eng.Service = "offline (" + filepath.Base(path) + ")"
	return &backend{Engine: eng}, nil
}

// openLiveReplica opens the live replica for baseURL without connecting:
// the person's data as last synced, while the secret is missing.
func openLiveReplica(ctx context.Context, dataDir, baseURL string) (*backend, error) {
	path, err := replicaPath(dataDir, storage.ProfileForBaseURL(baseURL))
	if err != nil {
		return nil, err
	}
	eng, err := storage.OpenEngine(ctx, path, storage.EngineOptions{})
	if err != nil {
		return nil, err
	}
	eng.Service = baseURL
	return &backend{Engine: eng}, nil
}

// demoWorldPath is where the demo's sandbox keeps its world: beside the
// demo replica.
func demoWorldPath(replica string) string {
	return strings.TrimSuffix(replica, ".db") + "-world.json"
}

// resetDemo forgets everything done in the demo: its world and its replica.
func resetDemo(dataDir string) error {
	path, err := replicaPath(dataDir, "demo")
	if err != nil {
		return err
	}
	if err := os.Remove(demoWorldPath(path)); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("removing the demo's saved world: %w", err)
	}
	return storage.RemoveReplica(path)
}

func replicaPath(dataDir, profile string) (string, error) {
	if dataDir != "" {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return "", err
		}
		return filepath.Join(dataDir, profile+".db"), nil
	}
	return storage.DefaultPath(profile)
}

// Close may be called more than once (a demo reset closes before the
// switch that closes the old backend).
func (b *backend) Close() {
	b.closeOnce.Do(func() {
		b.Engine.Close()
		if b.sb != nil {
			b.sb.Close()
		}
	})
}

func (b *backend) health() ui.Health {
	h := ui.Health{Receiver: b.ReceiverStatus(), Stream: b.StreamStatus(), Silent: b.Silent(), Heard: b.Heard()}
	if b.person != nil {
		h.Person = b.person.get()
	}
	if b.Tokens != nil {
		h.TokenValidUntil = b.Tokens.ValidUntil()
	}
	return h
}
