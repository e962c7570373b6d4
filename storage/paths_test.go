package storage

import (
	"path/filepath"
	"strings"
	"testing"
)

// On Windows the replica goes under the local application data folder: the
// roaming one is copied to a server at every sign-in and would carry a
// 100 MB cache with it.
func TestReplicaFolderOnWindowsIsLocalNotRoaming(t *testing.T) {
	env := map[string]string{
		"APPDATA":      `C:\Users\ana\AppData\Roaming`,
		"LOCALAPPDATA": `C:\Users\ana\AppData\Local`,
	}
	dir, err := dataFolder("windows", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if dir != env["LOCALAPPDATA"] {
		t.Errorf("replica folder on Windows = %q, want %%LOCALAPPDATA%% %q", dir, env["LOCALAPPDATA"])
	}

	delete(env, "LOCALAPPDATA")
	if dir, err := dataFolder("windows", func(k string) string { return env[k] }); err == nil {
		t.Errorf("without %%LOCALAPPDATA%% the replica went to %q; want an error, not the roaming folder", dir)
	}
}

// Elsewhere replicas stay where they always were, so an upgrade finds them.
func TestReplicaFolderOnLinuxIsTheConfigFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "cfg"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "local"))
	dir, err := dataFolder("linux", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(home, "cfg") {
		t.Errorf("replica folder on Linux = %q, want $XDG_CONFIG_HOME", dir)
	}
	path, err := DefaultPath(DemoProfile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(path, filepath.Join(home, "cfg", "workdesk")+string(filepath.Separator)) {
		t.Errorf("DefaultPath = %q, want it under $XDG_CONFIG_HOME/workdesk", path)
	}
}
