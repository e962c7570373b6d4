package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/workorderdesk/workdesk/storage"
)

// BenchmarkWindowMemory starts the real binary on a replica of 50,000
// work orders (WORKDESK_BENCH_N; filled by a real sync from the sandbox) and reads its
// resident memory from /proc: once the list shows them all, once the
// in-memory search index is ready, and after searches typed into the search
// box (VmRSS, of which RssAnon is the process's own and RssFile the
// replica and libraries mapped from disk, and VmHWM, the peak). Each run
// is paired with one with the index off (storage.SearchIndexEnv), which
// first alternating. Needs a display (Xvfb) and the app built with the
// realwindow tag, whose driver types into the window as a person does;
// `make measure-memory` does both. Linux only (/proc). Reports medians.
func BenchmarkWindowMemory(b *testing.B) {
	bin := os.Getenv("WORKDESK_BIN")
	if bin == "" || os.Getenv("DISPLAY") == "" {
		b.Skip("set WORKDESK_BIN (built with -tags realwindow) and run under a display: make measure-memory")
	}
	replica := filepath.Join(b.TempDir(), "replica.db")
	n := benchSize(b, 50_000)
	seedReplica(b, replica, n)
	runs := map[bool][]memorySample{}
	i := 0
	for b.Loop() {
		for _, index := range []bool{i%2 == 0, i%2 != 0} {
			runs[index] = append(runs[index], windowMemory(b, bin, replica, n, index))
		}
		i++
	}
	for _, index := range []bool{true, false} {
		name := map[bool]string{true: "", false: "-index-off"}[index]
		median := func(f func(memorySample) float64) float64 {
			var xs []float64
			for _, s := range runs[index] {
				xs = append(xs, f(s))
			}
			slices.Sort(xs)
			return xs[len(xs)/2]
		}
		b.ReportMetric(median(func(s memorySample) float64 { return s.shown.rss }), "MB-rss-list-shown"+name)
		b.ReportMetric(median(func(s memorySample) float64 { return s.searched.rss }), "MB-rss-after-searches"+name)
		b.ReportMetric(median(func(s memorySample) float64 { return s.searched.anon }), "MB-anon-after-searches"+name)
		b.ReportMetric(median(func(s memorySample) float64 { return s.searched.file }), "MB-file-after-searches"+name)
		b.ReportMetric(median(func(s memorySample) float64 { return s.searched.hwm }), "MB-peak"+name)
	}
}

// memorySample is what /proc says of the window at each point, in MB.
type memorySample struct{ shown, searched procMemory }

type procMemory struct{ rss, anon, file, hwm float64 }

// windowMemory runs the app once, with the in-memory search index or
// without, and reads its memory when the list shows every work order and
// after searching.
func windowMemory(b *testing.B, bin, replica string, n int, index bool) (m memorySample) {
	cmd := exec.Command(bin, "--replica", replica, "--window-size", "1280x800")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+b.TempDir(), "FYNE_SCALE=1")
	if !index {
		cmd.Env = append(cmd.Env, storage.SearchIndexEnv+"=off")
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	errOut, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatalf("starting %s: %v", bin, err)
	}
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	answers := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if l, ok := strings.CutPrefix(sc.Text(), "realwindow: "); ok {
				answers <- l
			}
		}
		close(answers)
	}()
	// The storage log says when the search index is ready.
	indexReady := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(errOut)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "search index ready") {
				close(indexReady)
				io.Copy(io.Discard, errOut)
				return
			}
		}
	}()
	do := func(command string) string {
		fmt.Fprintln(in, command)
		select {
		case a, ok := <-answers:
			if !ok {
				b.Fatalf("the app ended after %q", command)
			}
			if !strings.HasPrefix(a, "ok") {
				b.Fatalf("%s: %s", command, a)
			}
			return a
		case <-time.After(30 * time.Second):
			b.Fatalf("no answer to %q", command)
		}
		return ""
	}
	waitFor := func(what string, re *regexp.Regexp) {
		deadline := time.Now().Add(60 * time.Second)
		for !re.MatchString(do("texts")) {
			if time.Now().After(deadline) {
				b.Fatalf("the window never showed %s", what)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	total := strings.ReplaceAll(regexp.QuoteMeta(thousands(n)), ",", ",?")
	all := regexp.MustCompile(`(^|\| )` + total + ` work orders`)
	some := regexp.MustCompile(` of ` + total + ` work orders`)
	waitFor("the whole list", all)
	m.shown = vm(b, cmd.Process.Pid)
	if index {
		select {
		case <-indexReady:
		case <-time.After(60 * time.Second):
			b.Fatal("the search index was never ready")
		}
	}
	for _, search := range []string{"s", "sakura 3264", "harbor point", "nwr7"} {
		do("typein *list.SearchEntry " + search)
		waitFor("the answer to "+search, some)
		do("tapin *list.SearchEntry .") // into the search box, to clear it with Esc
		do("key Escape")
		waitFor("the whole list again", all)
	}
	m.searched = vm(b, cmd.Process.Pid)
	return m
}

// thousands is n as the window writes a count: "50,000".
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// vm reads a process's resident memory, in MB.
func vm(b *testing.B, pid int) (m procMemory) {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		name, value, _ := strings.Cut(line, ":")
		kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(value), " kB"))
		switch {
		case err != nil:
		case name == "VmRSS":
			m.rss = float64(kb) / 1024
		case name == "RssAnon":
			m.anon = float64(kb) / 1024
		case name == "RssFile":
			m.file = float64(kb) / 1024
		case name == "VmHWM":
			m.hwm = float64(kb) / 1024
		}
	}
	return m
}
