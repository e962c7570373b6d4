#!/bin/sh
# Removed (not upgraded): stop the hub first.
set -e
if [ "$1" = remove ] && [ -d /run/systemd/system ]; then
	systemctl disable --now workdesk-hub.service >/dev/null 2>&1 || true
fi
