//go:build realwindow

package main

// A driver compiled only into a build with the realwindow tag: it reads
// one command a line on stdin and acts on the real window as a person does,
// on Fyne's main goroutine, through the widgets' own Tapped and TypedRune
// methods. Each command answers one line on stdout, "realwindow: ok …" or
// "realwindow: fail …". If the app crashes, the answer never comes. The
// test that speaks it is realwindow/realwindow_test.go.
//
//	ready                 wait for the first sync
//	receivables COMMAND   run COMMAND (any of those below) in the
//	                      receivables window (View › Receivables)
//	tap REGEXP            tap the first visible text matching REGEXP, in the
//	                      topmost dialog when one is open, else in the window
//	tapin TYPE REGEXP     the same among the texts inside a TYPE (as %T
//	                      prints it, e.g. *container.AppTabs)
//	tapicon REGEXP        tap the first visible button without text whose
//	                      icon's name matches REGEXP (same scope)
//	menu MENU/ITEM        run a main-menu item
//	type TEXT             type TEXT into every visible, enabled entry (same scope)
//	typein TYPE TEXT      the same for the entries that are, or are inside, a TYPE
//	typefield LABEL=TEXT  type TEXT into the entry of the form row labelled LABEL (same scope)
//	key NAME              press a key (fyne.KeyName, e.g. Escape) on the focused widget
//	typeby REGEXP TEXT    type TEXT into the entry on the row of the first
//	                      visible text matching REGEXP (a form's label, as a
//	                      person finds the field; same scope)
//	focus [TYPE]          focus the first visible, enabled entry (same scope;
//	                      that is, or is inside, a TYPE), as a click into it would
//	tick REGEXP           tick the list's check box on the row whose text
//	                      matches REGEXP
//	offline               stop the demo's service, as a network outage would
//	stillcustomer         stop the demo's scripted customer, so nothing but
//	                      the test changes the work orders
//	resize WxH            resize the window
//	fits                  the content's minimum size, the size it has, and
//	                      the canvas's: "MINWxMINH in WxH of CWxCH"; a
//	                      minimum over what it has makes the window grow
//	move X Y              move the window to X, Y on the screen (X11)
//	texts [TYPE]          the visible texts in scope (inside a TYPE, if
//	                      given), separated by " | "
//	focused               what has the keyboard: its type and, for a
//	                      button, its text
//	tab                   Tab, as the desktop driver takes it: the keyboard
//	                      moves to the next widget; answers as focused does
//	tabsel                the detail tab shown: its place and its name
//	dialogs               how many dialogs are open
//	windows               the app's windows' titles, " | " between them
//	shortcut MOD+…+KEY    a shortcut (e.g. ctrl+shift+A, ctrl+Return) as
//	                      Fyne's desktop driver hands it on: to the focused
//	                      widget that takes shortcuts, else to the window
//
// menu takes MENU/ITEM/SUBITEM for an item of a submenu.
//	window [REGEXP]       act on the window whose title matches REGEXP from
//	                      now on (the dispatch board's); none: the main window
//	boardat ROW DAY HH:MM where on the screen the dispatch board's row
//	                      labelled ROW is, on its DAY-th day (0: the first
//	                      shown) at HH:MM, as "X Y"
//	drag REGEXP X Y       drag what holds the first visible text matching
//	                      REGEXP to X, Y on the screen, in steps, as a hand
//	                      does, and let go there

import (
	"bufio"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/workorderdesk/workdesk/ui/dialogs"
)

func init() { drive = runDriver }

func runDriver(_ fyne.App, s *session) {
	go func() {
		in := bufio.NewScanner(os.Stdin)
		for in.Scan() {
			line := strings.TrimSpace(in.Text())
			if line == "" {
				continue
			}
			verb, arg, _ := strings.Cut(line, " ")
			var answer string
			var err error
			switch verb {
			case "receivables":
				fyne.DoAndWait(func() { answer, err = inReceivables(s, arg) })
			case "ready":
				answer, err = waitReady(s)
			case "offline":
				answer, err = goOffline(s)
			case "stillcustomer":
				answer, err = stillCustomer(s)
			case "window":
				fyne.DoAndWait(func() { answer, err = pickWindow(arg) })
			case "boardat":
				fyne.DoAndWait(func() { answer, err = boardAt(s, arg) })
			default:
				fyne.DoAndWait(func() {
					w := s.desk.Window()
					if target != nil {
						w = target
					}
					answer, err = command(w, verb, arg)
				})
			}
			if err != nil {
				fmt.Printf("realwindow: fail %s: %v\n", line, err)
			} else {
				fmt.Printf("realwindow: ok %s\n", answer)
			}
		}
	}()
}

// goOffline stops the demo's in-process service: its port closes, and the
// next sync or send fails as it would with the network down.
func goOffline(s *session) (string, error) {
	var b *backend
	fyne.DoAndWait(func() { b = s.backend })
	if b == nil || b.sb == nil {
		return "", fmt.Errorf("not in demo mode: no service of its own to stop")
	}
	if err := b.sb.Close(); err != nil {
		return "", err
	}
	return "the service stopped", nil
}

// asCheck is o as a check box: Fyne's, or the dialogs' one that passes
// Enter and Esc on (dialogs.Check).
func asCheck(o fyne.CanvasObject) *widget.Check {
	switch x := o.(type) {
	case *widget.Check:
		return x
	case *dialogs.Check:
		return &x.Check
	}
	return nil
}

// stillCustomer stops the demo's scripted customer: its next tick could
// re-sort the list or change a work order a test is about to read.
func stillCustomer(s *session) (string, error) {
	var b *backend
	fyne.DoAndWait(func() { b = s.backend })
	if b == nil || b.sb == nil {
		return "", fmt.Errorf("not in demo mode: no customer of its own to stop")
	}
	b.sb.StopCustomer()
	return "the customer stopped", nil
}

func waitReady(s *session) (string, error) {
	var ready chan struct{}
	fyne.DoAndWait(func() { ready = s.ready })
	select {
	case <-ready:
		return "synced", nil
	case <-time.After(60 * time.Second):
		return "", fmt.Errorf("the first sync did not finish in 60 s")
	}
}

func command(w fyne.Window, verb, arg string) (string, error) {
	c := w.Canvas()
	scope := c.Content()
	if top := c.Overlays().Top(); top != nil {
		scope = top
	}
	switch verb {
	case "tap", "tapin":
		within := ""
		if verb == "tapin" {
			within, arg, _ = strings.Cut(arg, " ")
		}
		re, err := regexp.Compile(arg)
		if err != nil {
			return "", err
		}
		return tapText(c, scope, within, re)
	case "tapicon":
		re, err := regexp.Compile(arg)
		if err != nil {
			return "", err
		}
		var b *widget.Button
		walkVisible(scope, nil, func(o fyne.CanvasObject, _ []fyne.CanvasObject) {
			if x, ok := o.(*widget.Button); ok && b == nil && x.Text == "" && x.Icon != nil && re.MatchString(x.Icon.Name()) {
				b = x
			}
		})
		if b == nil {
			return "", fmt.Errorf("no button with an icon matching")
		}
		if b.Disabled() {
			return "", fmt.Errorf("the button is disabled")
		}
		before := len(c.Overlays().List())
		c.Unfocus()
		b.Tapped(&fyne.PointEvent{Position: fyne.NewPos(b.Size().Width/2, b.Size().Height/2)})
		return fmt.Sprintf("tapped the %s button, dialogs open: %d (were %d)", b.Icon.Name(), len(c.Overlays().List()), before), nil
	case "menu":
		return runMenu(w, arg)
	case "type", "typein":
		within := ""
		if verb == "typein" {
			within, arg, _ = strings.Cut(arg, " ")
		}
		n := 0
		walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
			e, ok := o.(typable)
			if !ok || e.Disabled() || within != "" && !inside(append(parents, o), within) {
				return
			}
			if ro, ok := o.(interface{ ReadOnly() bool }); ok && ro.ReadOnly() {
				return
			}
			c.Focus(e)
			for _, r := range arg {
				e.TypedRune(r)
			}
			n++
		})
		// As a click on an empty spot would: a blinking cursor never lets
		// the test's screenshots settle.
		c.Unfocus()
		return fmt.Sprintf("typed into %d entries", n), nil
	case "typeby":
		pattern, text, _ := strings.Cut(arg, " ")
		re, err := regexp.Compile(pattern)
		if err != nil {
			return "", err
		}
		return typeBy(c, scope, re, text)
	case "typefield":
		label, text, _ := strings.Cut(arg, "=")
		var e typable
		walkVisible(scope, nil, func(o fyne.CanvasObject, _ []fyne.CanvasObject) {
			if f, ok := o.(*widget.Form); ok {
				for _, it := range f.Items {
					if x, ok := it.Widget.(typable); ok && it.Text == label && e == nil {
						e = x
					}
				}
			}
		})
		if e == nil || e.Disabled() {
			return "", fmt.Errorf("no entry labelled %q", label)
		}
		c.Focus(e)
		for _, r := range text {
			e.TypedRune(r)
		}
		c.Unfocus()
		return "typed into " + label, nil
	case "key":
		ev := &fyne.KeyEvent{Name: fyne.KeyName(arg)}
		before := len(c.Overlays().List())
		if f := c.Focused(); f != nil {
			f.TypedKey(ev)
		} else if k := c.OnTypedKey(); k != nil {
			k(ev)
		}
		return fmt.Sprintf("pressed %s, dialogs open: %d (were %d)", arg, len(c.Overlays().List()), before), nil
	case "focus":
		var e typable
		walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
			if x, ok := o.(typable); ok && e == nil && !x.Disabled() && (arg == "" || inside(append(parents, o), arg)) {
				e = x
			}
		})
		if e == nil {
			return "", fmt.Errorf("no entry to focus")
		}
		c.Focus(e)
		return fmt.Sprintf("focused a %T", e), nil
	case "tick":
		re, err := regexp.Compile(arg)
		if err != nil {
			return "", err
		}
		return tickRow(scope, re)
	case "resize":
		var width, height float32
		if _, err := fmt.Sscanf(arg, "%fx%f", &width, &height); err != nil {
			return "", fmt.Errorf("resize wants WxH: %w", err)
		}
		w.Resize(fyne.NewSize(width, height))
		return arg, nil
	case "fits":
		m, in, c := w.Content().MinSize(), w.Content().Size(), w.Canvas().Size()
		return fmt.Sprintf("%.0fx%.0f in %.0fx%.0f of %.0fx%.0f", m.Width, m.Height, in.Width, in.Height, c.Width, c.Height), nil
	case "move":
		var x, y int
		if _, err := fmt.Sscanf(arg, "%d %d", &x, &y); err != nil {
			return "", fmt.Errorf("move wants X Y: %w", err)
		}
		if err := moveWindow(w, x, y); err != nil {
			return "", err
		}
		return arg, nil
	case "focused":
		return focused(c), nil
	case "tab":
		// Tab as the desktop driver takes it, before any widget sees the
		// key: the keyboard moves on to the next widget. An X key sent to
		// a second window does not stick under Xvfb without a window
		// manager; this reaches the target window.
		c.FocusNext()
		return focused(c), nil
	case "dialogs":
		return strconv.Itoa(len(c.Overlays().List())), nil
	case "windows":
		var titles []string
		for _, w := range fyne.CurrentApp().Driver().AllWindows() {
			titles = append(titles, w.Title())
		}
		return strings.Join(titles, " | "), nil
	case "tabsel":
		var tabs *container.AppTabs
		walkVisible(c.Content(), nil, func(o fyne.CanvasObject, _ []fyne.CanvasObject) {
			if t, ok := o.(*container.AppTabs); ok && tabs == nil {
				tabs = t
			}
		})
		if tabs == nil || tabs.SelectedIndex() < 0 {
			return "", fmt.Errorf("no tab shown")
		}
		return fmt.Sprintf("%d %s", tabs.SelectedIndex(), tabs.Selected().Text), nil
	case "shortcut":
		s, err := parseShortcut(arg)
		if err != nil {
			return "", err
		}
		before := len(c.Overlays().List())
		// As GLFW hands a shortcut: to the main menu's item that shows it,
		// else to the focused widget, else to the window.
		if menuShortcut(w.MainMenu(), s) {
			return fmt.Sprintf("pressed %s (menu), dialogs open: %d (were %d)", arg, len(c.Overlays().List()), before), nil
		}
		if f, ok := c.Focused().(fyne.Shortcutable); ok {
			f.TypedShortcut(s)
		} else if sc, ok := c.(fyne.Shortcutable); ok {
			sc.TypedShortcut(s)
		} else {
			return "", fmt.Errorf("the window takes no shortcuts")
		}
		return fmt.Sprintf("pressed %s, dialogs open: %d (were %d)", arg, len(c.Overlays().List()), before), nil
	case "drag":
		return dragTo(c, scope, arg, true)
	case "at":
		// Where the first visible text matching the pattern is, in
		// window coordinates: its left edge, half way down (a check
		// box's square lies just before it), for a real click through X.
		re, err := regexp.Compile(arg)
		if err != nil {
			return "", err
		}
		var found *canvas.Text
		walkVisible(scope, nil, func(o fyne.CanvasObject, _ []fyne.CanvasObject) {
			if t, ok := o.(*canvas.Text); ok && found == nil && re.MatchString(t.Text) {
				found = t
			}
		})
		if found == nil {
			return "", fmt.Errorf("no text matches")
		}
		p := fyne.CurrentApp().Driver().AbsolutePositionForObject(found).Add(fyne.NewPos(0, found.Size().Height/2))
		scale := c.Scale()
		return fmt.Sprintf("%.0f %.0f", p.X*scale, p.Y*scale), nil
	case "checked":
		// Whether the check box labelled by the pattern is ticked.
		re, err := regexp.Compile(arg)
		if err != nil {
			return "", err
		}
		answer := ""
		walkVisible(scope, nil, func(o fyne.CanvasObject, _ []fyne.CanvasObject) {
			if x := asCheck(o); x != nil && answer == "" && re.MatchString(x.Text) {
				answer = strconv.FormatBool(x.Checked)
			}
		})
		if answer == "" {
			return "", fmt.Errorf("no check box matches")
		}
		return answer, nil
	case "hold":
		// A drag that has not ended: the picture of what shows meanwhile.
		return dragTo(c, scope, arg, false)
	case "release":
		if holding == nil {
			return "", fmt.Errorf("nothing is being dragged")
		}
		before := len(c.Overlays().List())
		holding.DragEnd()
		holding = nil
		return fmt.Sprintf("released, dialogs open: %d (were %d)", len(c.Overlays().List()), before), nil
	case "texts":
		var out []string
		walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
			if arg != "" && !inside(parents, arg) {
				return
			}
			if t, ok := o.(*canvas.Text); ok && strings.TrimSpace(t.Text) != "" {
				out = append(out, t.Text)
			}
		})
		return strings.Join(out, " | "), nil
	}
	return "", fmt.Errorf("unknown command %q", verb)
}

// focused names the widget that has the keyboard, and a button's words,
// a Fyne one's or one that embeds it (a dialog's own buttons).
func focused(c fyne.Canvas) string {
	f := c.Focused()
	if f == nil {
		return "nothing"
	}
	if v := reflect.ValueOf(f); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		if text := v.Elem().FieldByName("Text"); text.IsValid() && text.Kind() == reflect.String {
			return fmt.Sprintf("%T %s", f, text.String())
		}
	}
	return fmt.Sprintf("%T", f)
}

// typable is what an entry (plain, password, date, multi-line) offers a
// keyboard; a Select is focusable too but takes no runes.
type typable interface {
	fyne.Focusable
	fyne.Disableable
	SetText(string)
}

// tapText taps the innermost tappable around the first visible text
// matching re (inside an object of type within, if given), at the text's
// centre, as a click there would.
func tapText(c fyne.Canvas, scope fyne.CanvasObject, within string, re *regexp.Regexp) (string, error) {
	var target fyne.Tappable
	var at *canvas.Text
	walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
		t, ok := o.(*canvas.Text)
		if !ok || at != nil || !re.MatchString(t.Text) {
			return
		}
		if within != "" && !inside(parents, within) {
			return
		}
		for i := len(parents) - 1; i >= 0; i-- {
			if tp, ok := parents[i].(fyne.Tappable); ok {
				target, at = tp, t
				return
			}
		}
	})
	if target == nil {
		return "", fmt.Errorf("no tappable text matches")
	}
	if d, ok := target.(fyne.Disableable); ok && d.Disabled() {
		return "", fmt.Errorf("%q is disabled", at.Text)
	}
	drv := fyne.CurrentApp().Driver()
	abs := drv.AbsolutePositionForObject(at).Add(fyne.NewPos(at.Size().Width/2, at.Size().Height/2))
	obj := target.(fyne.CanvasObject)
	ev := &fyne.PointEvent{AbsolutePosition: abs, Position: abs.Subtract(drv.AbsolutePositionForObject(obj))}
	// A click focuses what it lands on, or takes the focus away.
	if f, ok := target.(fyne.Focusable); ok {
		c.Focus(f)
	} else {
		c.Unfocus()
	}
	before := len(c.Overlays().List())
	target.Tapped(ev)
	return fmt.Sprintf("tapped %q, dialogs open: %d (were %d)", at.Text, len(c.Overlays().List()), before), nil
}

// typeBy types text into the visible, enabled entry level with the first
// visible text matching re that is not itself inside an entry: the field a
// form's label names.
func typeBy(c fyne.Canvas, scope fyne.CanvasObject, re *regexp.Regexp, text string) (string, error) {
	drv := fyne.CurrentApp().Driver()
	var at *canvas.Text
	var entries []typable
	walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
		switch x := o.(type) {
		case *canvas.Text:
			if at == nil && re.MatchString(x.Text) && !slices.ContainsFunc(parents, func(p fyne.CanvasObject) bool { _, ok := p.(typable); return ok }) {
				at = x
			}
		case typable:
			if !x.Disabled() {
				entries = append(entries, x)
			}
		}
	})
	if at == nil {
		return "", fmt.Errorf("no label matches")
	}
	y := drv.AbsolutePositionForObject(at).Y + at.Size().Height/2
	for _, e := range entries {
		o := e.(fyne.CanvasObject)
		top := drv.AbsolutePositionForObject(o).Y
		if y < top || y >= top+o.Size().Height {
			continue
		}
		c.Focus(e)
		for _, r := range text {
			e.TypedRune(r)
		}
		c.Unfocus() // as after type: a blinking cursor never lets screenshots settle
		return fmt.Sprintf("typed into the entry by %q", at.Text), nil
	}
	return "", fmt.Errorf("no enabled entry on the row of %q", at.Text)
}

// tickRow taps the check box in the list's row whose text matches re: the
// check box at the height of that text, in the same table.
func tickRow(scope fyne.CanvasObject, re *regexp.Regexp) (string, error) {
	drv := fyne.CurrentApp().Driver()
	var at *canvas.Text
	var boxes []tickable
	walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
		if !inside(parents, "*list.Table") {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if at == nil && re.MatchString(x.Text) {
				at = x
			}
		case tickable:
			boxes = append(boxes, x)
		}
	})
	if at == nil {
		return "", fmt.Errorf("no row of the list matches")
	}
	y := drv.AbsolutePositionForObject(at).Y + at.Size().Height/2
	for _, b := range boxes {
		top := drv.AbsolutePositionForObject(b).Y
		if y >= top && y < top+b.Size().Height {
			b.Tapped(&fyne.PointEvent{Position: fyne.NewPos(b.Size().Width/2, b.Size().Height/2)})
			return fmt.Sprintf("ticked %q: %v", at.Text, b.Ticked()), nil
		}
	}
	return "", fmt.Errorf("no check box on the row of %q", at.Text)
}

// tickable is the list's tick box (xwidget.TickBox).
type tickable interface {
	fyne.CanvasObject
	fyne.Tappable
	Ticked() bool
}

// inside tells whether one of parents has the type named typ (as %T prints it).
func inside(parents []fyne.CanvasObject, typ string) bool {
	return slices.ContainsFunc(parents, func(p fyne.CanvasObject) bool { return fmt.Sprintf("%T", p) == typ })
}

// parseShortcut reads "ctrl+shift+A" (modifiers in any case, the key as
// fyne.KeyName names it).
// menuShortcut runs the item of menu (or of its submenus) that shows s.
func menuShortcut(menu *fyne.MainMenu, s fyne.Shortcut) bool {
	if menu == nil {
		return false
	}
	var in func(m *fyne.Menu) bool
	in = func(m *fyne.Menu) bool {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() && it.Action != nil {
				it.Action()
				return true
			}
			if it.ChildMenu != nil && in(it.ChildMenu) {
				return true
			}
		}
		return false
	}
	for _, m := range menu.Items {
		if in(m) {
			return true
		}
	}
	return false
}

func parseShortcut(s string) (*desktop.CustomShortcut, error) {
	parts := strings.Split(s, "+")
	sc := &desktop.CustomShortcut{KeyName: fyne.KeyName(parts[len(parts)-1])}
	for _, m := range parts[:len(parts)-1] {
		switch strings.ToLower(m) {
		case "ctrl":
			sc.Modifier |= fyne.KeyModifierShortcutDefault
		case "shift":
			sc.Modifier |= fyne.KeyModifierShift
		case "alt":
			sc.Modifier |= fyne.KeyModifierAlt
		default:
			return nil, fmt.Errorf("unknown modifier %q", m)
		}
	}
	return sc, nil
}

func runMenu(w fyne.Window, path string) (string, error) {
	menu, item, _ := strings.Cut(path, "/")
	if w.MainMenu() == nil {
		return "", fmt.Errorf("the window has no menu")
	}
	for _, m := range w.MainMenu().Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			// An item of a submenu: "Appearance/Dark" (an item's own
			// name may hold a "/": "Mark a procedure N/A…").
			if parent, sub, ok := strings.Cut(item, "/"); ok && it.Label == parent && it.ChildMenu != nil {
				for _, ch := range it.ChildMenu.Items {
					if ch.Label == sub && ch.Action != nil {
						ch.Action()
						return fmt.Sprintf("ran %s", path), nil
					}
				}
			}
			if it.Label == item && it.Action != nil {
				before := len(w.Canvas().Overlays().List())
				it.Action()
				return fmt.Sprintf("ran %s, dialogs open: %d (were %d)", path, len(w.Canvas().Overlays().List()), before), nil
			}
		}
	}
	return "", fmt.Errorf("no menu item %q", path)
}

// walkVisible visits every visible object under o, through containers and
// widget renderers, with the objects above it.
func walkVisible(o fyne.CanvasObject, parents []fyne.CanvasObject, visit func(fyne.CanvasObject, []fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	visit(o, parents)
	parents = append(parents, o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, ch := range x.Objects {
			walkVisible(ch, parents, visit)
		}
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(x).Objects() {
			walkVisible(ch, parents, visit)
		}
	}
}

// target is the window the commands act on (nil: the main window).
var target fyne.Window

// pickWindow makes the window whose title matches re the target; "" the
// main window again.
func pickWindow(re string) (string, error) {
	if re == "" {
		target = nil
		return "the main window", nil
	}
	rx, err := regexp.Compile(re)
	if err != nil {
		return "", err
	}
	for _, w := range fyne.CurrentApp().Driver().AllWindows() {
		if rx.MatchString(w.Title()) {
			target = w
			return w.Title(), nil
		}
	}
	return "", fmt.Errorf("no window's title matches")
}

// boardAt answers where the dispatch board's row, day and time are.
// holding is what a "hold" left dragged, for "release".
var holding fyne.Draggable

func boardAt(s *session, arg string) (string, error) {
	var day, hour, minute int
	i := strings.LastIndex(arg, " ")
	j := strings.LastIndex(arg[:max(i, 0)], " ")
	if i < 0 || j < 0 {
		return "", fmt.Errorf("boardat wants ROW DAY HH:MM")
	}
	if _, err := fmt.Sscanf(arg[j+1:], "%d %d:%d", &day, &hour, &minute); err != nil {
		return "", fmt.Errorf("boardat wants ROW DAY HH:MM: %w", err)
	}
	_, b := s.desk.Board()
	if b == nil {
		return "", fmt.Errorf("the dispatch board is not open")
	}
	p, ok := b.Aim(arg[:j], day, hour, minute)
	if !ok {
		return "", fmt.Errorf("the board has no row %q, or not that day", arg[:j])
	}
	return fmt.Sprintf("%.0f %.0f", p.X, p.Y), nil
}

// dragTo drags the draggable around the first visible text matching the
// argument's pattern to its X, Y, in ten steps, as the desktop driver
// reports a mouse drag (the pointer on the screen at each step), then lets
// go unless end is false ("hold": it stays dragged until "release").
func dragTo(c fyne.Canvas, scope fyne.CanvasObject, arg string, end bool) (string, error) {
	parts := strings.Fields(arg)
	if len(parts) < 3 {
		return "", fmt.Errorf("drag wants REGEXP X Y")
	}
	var x, y float32
	if _, err := fmt.Sscanf(parts[len(parts)-2]+" "+parts[len(parts)-1], "%f %f", &x, &y); err != nil {
		return "", fmt.Errorf("drag wants REGEXP X Y: %w", err)
	}
	re, err := regexp.Compile(strings.Join(parts[:len(parts)-2], " "))
	if err != nil {
		return "", err
	}
	var from fyne.Draggable
	var at *canvas.Text
	walkVisible(scope, nil, func(o fyne.CanvasObject, parents []fyne.CanvasObject) {
		t, ok := o.(*canvas.Text)
		if !ok || at != nil || !re.MatchString(t.Text) {
			return
		}
		for i := len(parents) - 1; i >= 0; i-- {
			if d, ok := parents[i].(fyne.Draggable); ok {
				from, at = d, t
				return
			}
		}
	})
	if from == nil {
		return "", fmt.Errorf("no draggable text matches")
	}
	drv := fyne.CurrentApp().Driver()
	start := drv.AbsolutePositionForObject(at).Add(fyne.NewPos(at.Size().Width/2, at.Size().Height/2))
	objAt := drv.AbsolutePositionForObject(from.(fyne.CanvasObject))
	before := len(c.Overlays().List())
	last := start
	const steps = 10
	for i := 1; i <= steps; i++ {
		f := float32(i) / steps
		p := fyne.NewPos(start.X+(x-start.X)*f, start.Y+(y-start.Y)*f)
		from.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{AbsolutePosition: p, Position: p.Subtract(objAt)},
			Dragged: fyne.NewDelta(p.X-last.X, p.Y-last.Y)})
		last = p
	}
	if !end {
		holding = from
		return fmt.Sprintf("holding %q at %.0f %.0f", at.Text, x, y), nil
	}
	from.DragEnd()
	return fmt.Sprintf("dragged %q to %.0f %.0f, dialogs open: %d (were %d)", at.Text, x, y, len(c.Overlays().List()), before), nil
}

// inReceivables runs a command in the receivables window.
func inReceivables(s *session, line string) (string, error) {
	w, _ := s.desk.Receivables()
	if w == nil {
		return "", fmt.Errorf("the receivables window is not open")
	}
	verb, arg, _ := strings.Cut(line, " ")
	return command(w, verb, arg)
}
