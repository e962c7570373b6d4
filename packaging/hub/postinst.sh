#!/bin/sh
# The unit is new or changed: systemd reads it again. The hub is not
# started: it needs its settings and secrets first (docs/office-hub.md).
set -e
if [ -d /run/systemd/system ]; then
	systemctl daemon-reload >/dev/null 2>&1 || true
	if systemctl is-active --quiet workdesk-hub.service; then
		systemctl restart workdesk-hub.service || true
	fi
fi
