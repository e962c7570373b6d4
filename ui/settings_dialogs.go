package ui

import (
	"context"

	"fyne.io/fyne/v2"

	"github.com/workorderdesk/workdesk/api"
	"github.com/workorderdesk/workdesk/ui/settings"
)

// The connection dialogs (ui/settings: Live connection…, Connect to office
// hub…) read what main handed the window (Deps) when the person acts.

func (h host) Info(title, msg string)        { h.d.info(title, msg) }
func (h host) Preferences() fyne.Preferences { return h.d.app.Preferences() }
func (h host) Demo() bool                    { return h.d.deps.Demo }
func (h host) Secrets() settings.SecretStore { return h.d.deps.Secrets }
func (h host) CanTestConnection() bool       { return h.d.deps.TestConnection != nil }
func (h host) CanSwitchMode() bool           { return h.d.deps.SwitchMode != nil }
func (h host) SwitchMode(live bool)          { h.d.deps.SwitchMode(live) }
func (h host) CanConnectOffice() bool        { return h.d.deps.ConnectOffice != nil }
func (h host) AskOffice() string             { return h.d.deps.AskOffice }

func (h host) TestConnection(ctx context.Context, conn api.Connection, report func(api.Check)) bool {
	return h.d.deps.TestConnection(ctx, conn, report)
}

func (h host) ConnectOffice(s settings.Office, secret string) error {
	return h.d.deps.ConnectOffice(s, secret)
}
