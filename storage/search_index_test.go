package storage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/workorderdesk/workdesk/api"
)

// oddTexts are column texts that test the in-memory tokenizer against
// FTS5's: diacritics, combining marks, letters that fold to ASCII, scripts
// without case, separators that are not ASCII, digits of other scripts,
// letters newer than SQLite's Unicode tables.
var oddTexts = []string{
	"Café Lumière", "CAFÉ", "e\u0301clair", "\u0301start", "Rheinuferstraße", "KÖLN", "Kelvin \u212a", "ﬁne ligature",
	"東京 タワー", "Ωmega ωmega", "O’Brien — “quoted”", "١٢٣ ٤٥", "x\u00a0y", "İstanbul ıi", "Ǆungla ǅ",
	"\u0870letter", "a\u200bb", "ǅ3264", "WO-٣٢٦٤", "snow☃man", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "Ⅻ roman", "₂ sub", "ǰ",
}

// searchesToCompare: every prefix of words a person types (numbers,
// customers, sites, streets, descriptions, punctuation, digits alone and
// with words), and texts that exercise the corners of FTSQuery.
func searchesToCompare(extra ...string) []string {
	words := []string{"northwind", "o'brien", "WO-1234", "faucet", "warehouse", "harbor", "café", "roof leak", "store #12",
		"main st", "sakura 3264", "3264", "smj73", "nwr7 light", "kfu 7", "hph73202", "e\u0301", "köln", "koln", "strasse",
		"straß", "東京", "タ", "ωm", "\u212a", "k", "o’b", "“quoted", "١٢", "İs", "i̇s", "ǅ", "ǆ3", "☃", "𝔘", "ⅻ", "₂",
		"\u0870", "\u0870 north", "a\u200bb", "x\u00a0y", "x y", `"`, `""`, `"a"`, "a:b", "NEAR(a b)", "-", "*", "^", "a* b",
		"— —", "WO-", "wo 1", "1 2 3", "0", "00", "ballroom dimmer", "panic bar", "im mediapark", "3-5-12",
		"mj7326", "MJ73", "Fu732", "o-1012", "O-10123", "R73",
	}
	words = append(words, extra...)
	var out []string
	for _, w := range words {
		r := []rune(w)
		for i := 1; i <= len(r); i++ {
			out = append(out, string(r[:i]))
		}
	}
	return out
}

// compareWithFTS checks that the in-memory index finds, for each search,
// exactly the work orders the FTS5 path finds, and returns how many of the
// searches found some.
func compareWithFTS(t *testing.T, s *Store, x *searchIndex, searches []string) (answered int) {
	t.Helper()
	ctx := context.Background()
	conn, err := s.r.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, search := range searches {
		match, numbers := splitSearch(search)
		hits, ok := x.find(search)
		got := x.hitIDs(hits)
		if match == "" && len(numbers) == 0 {
			if ok {
				t.Errorf("%q is no search, but the index answered %d ids", search, len(got))
			}
			continue
		}
		if !ok {
			if utf8.ValidString(search) && !strings.Contains(search, "\x00") {
				t.Errorf("the index did not answer %q", search)
			}
			continue
		}
		want, err := s.findWithFTS(ctx, conn, match, numbers)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) > 0 {
			answered++
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q: the index finds %d work orders, FTS5 %d (index only: %v; FTS5 only: %v)",
				search, len(got), len(want), firstMissing(got, want), firstMissing(want, got))
		}
	}
	return answered
}

// firstMissing lists up to 5 ids of a that b lacks.
func firstMissing(a, b []int64) []int64 {
	var out []int64
	for _, id := range a {
		if _, ok := slices.BinarySearch(b, id); !ok && len(out) < 5 {
			out = append(out, id)
		}
	}
	return out
}

func buildIndex(t *testing.T, s *Store) *searchIndex {
	t.Helper()
	x, err := s.buildSearchIndex(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestInMemorySearchFindsWhatFTSFinds: on a generated world of 1,300 work
// orders, the sandbox's demo world and texts in many scripts, the
// in-memory index finds exactly the work orders FTS5 and number LIKE find.
func TestInMemorySearchFindsWhatFTSFinds(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("generated", func(t *testing.T) {
		t.Parallel()
		s, _ := openTest(t)
		// 1,300: numbers reach WO-101299, which "o-1012" and "O-10123" find.
		if err := s.PutWorkOrders(ctx, synthetic(1300)); err != nil {
			t.Fatal(err)
		}
		n := compareWithFTS(t, s, buildIndex(t, s), everyUnderRace(searchesToCompare(), 4))
		t.Logf("%d searches found work orders", n)
	})
	t.Run("demo world", func(t *testing.T) {
		t.Parallel()
		s := syncedStore(t, newService(t, 0))
		rows, err := s.List(ctx, ListQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var extra []string
		for _, r := range rows[:min(len(rows), 20)] {
			extra = append(extra, r.Number, r.Customer, r.Site, strings.ToLower(r.Customer)+" "+r.Number[len(r.Number)-3:])
		}
		n := compareWithFTS(t, s, buildIndex(t, s), everyUnderRace(searchesToCompare(extra...), 4))
		t.Logf("%d searches found some of the %d work orders", n, len(rows))
	})
	t.Run("scripts", func(t *testing.T) {
		t.Parallel()
		s, _ := openTest(t)
		var specs []woSpec
		for i, text := range oddTexts {
			specs = append(specs, woSpec{id: int64(i + 1), number: fmt.Sprintf("N%d-%s", 3260+i, text), customer: text,
				site: "Site " + text, street: text + " 1", desc: "Fix " + text + " now"})
		}
		put(t, s, specs...)
		var extra []string
		for _, text := range oddTexts {
			extra = append(extra, text, strings.ToUpper(text), strings.ToLower(text))
		}
		n := compareWithFTS(t, s, buildIndex(t, s), searchesToCompare(extra...))
		t.Logf("%d searches found work orders", n)
	})
}

// TestInMemorySearchFollowsWrites: what is written after the index was
// built (new work orders, changed text, a number that changed) is found,
// and what is no longer there is not, through the window's calls.
func TestInMemorySearchFollowsWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTest(t)
	s.search.catchUp = 200 // a search catches up on at most 200 changes, not 5,000: a smaller big write does
	put(t, s, woSpec{id: 1, number: "KFU100", customer: "Northwind", site: "Depot", desc: "Leak"},
		woSpec{id: 2, number: "KFU200", customer: "Acme", site: "Depot", desc: "Leak"})
	<-s.WarmSearch()
	find := func(search string) []int64 {
		t.Helper()
		rows, err := s.List(ctx, ListQuery{Search: search, Sort: SortNumber, Limit: 10_000})
		if err != nil {
			t.Fatal(err)
		}
		n, err := s.CountList(ctx, ListQuery{Search: search})
		if err != nil || n != len(rows) {
			t.Fatalf("CountList(%q) = %d, %v; the page has %d", search, n, err, len(rows))
		}
		return ids(rows)
	}
	check := func(search string, want ...int64) {
		t.Helper()
		if got := find(search); !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("%q finds %v, want %v", search, got, want)
		}
		x := s.search.idx
		if x == nil {
			t.Fatal("the in-memory index was dropped")
		}
		if hits, ok := x.find(search); !ok || !slices.Equal(x.hitIDs(hits), want) && hits.n+len(want) > 0 {
			got := x.hitIDs(hits)
			t.Errorf("the in-memory index finds %v (answered: %v) for %q, want %v", got, ok, search, want)
		}
	}
	check("north", 1)
	check("depot", 1, 2)
	put(t, s, woSpec{id: 3, number: "KFU7331", customer: "Zebra Stores", site: "Depot", desc: "Leak"},
		woSpec{id: 1, number: "KFU101", customer: "Southwind", site: "Depot", desc: "Leak"})
	check("zebra", 3)
	check("733", 3)
	check("north")
	check("south", 1)
	check("kfu100")
	check("101", 1)
	check("depot", 1, 2, 3)
	check("depot leak kfu", 1, 2, 3)
	// Many changes at once (past the catch-up limit) rebuild the index.
	var many []api.WorkOrder
	for i := range s.search.catchUp + 10 {
		many = append(many, mkWO(woSpec{id: int64(100 + i), number: fmt.Sprintf("BIG%d", i), customer: "Bulk Co", desc: "Leak"}))
	}
	if err := s.PutWorkOrders(ctx, many); err != nil {
		t.Fatal(err)
	}
	if got := find("bulk"); len(got) != len(many) {
		t.Errorf("bulk finds %d work orders after a big write; want %d", len(got), len(many))
	}
	<-s.WarmSearch()
	check(fmt.Sprintf("big%d", s.search.catchUp-1), int64(100+s.search.catchUp-1))
	check("zebra", 3)
}

// TestInMemorySearchAgreesOnRandomTexts: texts of words that share their
// beginnings, in every column, and searches cut from them anywhere (so
// phrases of several tokens, prefixes ending mid-word, pieces of numbers):
// the in-memory index finds what FTS5 and number LIKE find.
func TestInMemorySearchAgreesOnRandomTexts(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 14))
	vocab := []string{"o", "ob", "obr", "brie", "brien", "brick", "bri", "b", "O'Brien", "o-b", "wo", "WO-12", "12", "123",
		"1234", "a1", "A12b", "café", "cafe", "CAFÉ", "caf", "é", "é", "Köln", "koln", "x", "xy", "x-y", "x y z", "ß",
		"ss", "東京", "東", "京都", "İ", "i", "ǅ", "ﬁ", "fi", "K", "K", "main", "mains", "st", "st.", "street", "—", "#12"}
	text := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString([]string{" ", "-", " ", ", ", "'", "/", " — ", ""}[rng.IntN(8)])
			}
			b.WriteString(vocab[rng.IntN(len(vocab))])
		}
		return b.String()
	}
	s, _ := openTest(t)
	var specs []woSpec
	var texts []string
	for i := range 400 {
		sp := woSpec{id: int64(i + 1), number: text(1 + rng.IntN(3)), customer: text(1 + rng.IntN(3)), site: text(rng.IntN(3)),
			street: text(rng.IntN(4)), desc: text(rng.IntN(8))}
		specs = append(specs, sp)
		texts = append(texts, sp.number, sp.customer, sp.site, sp.street, sp.desc)
	}
	put(t, s, specs...)
	var searches []string
	for range 1500 {
		r := []rune(texts[rng.IntN(len(texts))])
		if len(r) == 0 {
			continue
		}
		from := rng.IntN(len(r))
		to := from + 1 + rng.IntN(len(r)-from)
		search := string(r[from:to])
		if rng.IntN(3) == 0 {
			search += " " + vocab[rng.IntN(len(vocab))]
		}
		searches = append(searches, search)
	}
	searches = everyUnderRace(searches, 5)
	n := compareWithFTS(t, s, buildIndex(t, s), searches)
	t.Logf("%d of %d searches found work orders", n, len(searches))
}

// TestTokenizerKnowsASCIILikeFTS5: the ASCII classes written into the
// tokenizer are the ones SQLite's unicode61 has.
func TestTokenizerKnowsASCIILikeFTS5(t *testing.T) {
	t.Parallel()
	var texts []string
	for b := 1; b < 0x80; b++ {
		texts = append(texts, "q"+string(rune(b))+"q", string(rune(b)))
	}
	got, err := sqliteProbe(texts)
	if err != nil {
		t.Fatal(err)
	}
	for b := 1; b < 0x80; b++ {
		inside, alone := got[2*(b-1)], got[2*(b-1)+1]
		want := []string{"q", "q"}
		if asciiClass(byte(b)) == runeTokenChar {
			want = []string{"q" + strings.ToLower(string(rune(b))) + "q"}
		}
		if !slices.Equal(inside, want) || asciiClass(byte(b)) == runeSeparator && len(alone) != 0 {
			t.Errorf("%q: SQLite tokenizes it inside a token as %q and alone as %q; the tokenizer assumes %q", rune(b), inside, alone, want)
		}
	}
}

// TestTheTokenizerIsTheReplicas: the tokenizer the index mirrors is the one
// the replica's FTS5 table was made with.
func TestTheTokenizerIsTheReplicas(t *testing.T) {
	t.Parallel()
	s, _ := openTest(t)
	var ddl string
	if err := s.r.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'work_orders_fts'`).Scan(&ddl); err != nil {
		t.Fatal(err)
	}
	if flat := strings.Join(strings.Fields(ddl), " "); !strings.Contains(flat, "tokenize='"+ftsTokenizer+"'") ||
		!strings.Contains(flat, "fts5( "+searchColumns+",") {
		t.Fatalf("the replica's search index is %s; the in-memory index assumes columns %s and tokenizer %s", ddl, searchColumns, ftsTokenizer)
	}
}

// TestSearchWhileWriting: searches typed while a sync writes (the index
// catching up between keystrokes, pages read while it moves on) never
// fail, and once the writes are done find what FTS5 finds.
func TestSearchWhileWriting(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := openTest(t)
	wos := synthetic(2000)
	if err := s.PutWorkOrders(ctx, wos[:500]); err != nil {
		t.Fatal(err)
	}
	<-s.WarmSearch()
	done := make(chan error)
	go func() {
		for i := 500; i < len(wos); i += 100 {
			batch := wos[i : i+100]
			for j := range batch {
				batch[j].Customer.Name = []string{"Harbor Point Hotels", "Northwind Retail"}[j%2]
			}
			if err := s.PutWorkOrders(ctx, batch); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	searches := []string{"h", "ha", "harbor", "n", "no", "north", "wo-10", "1012"}
	for writing := true; writing; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			writing = false
		default:
		}
		for _, search := range searches {
			for _, sort := range []Column{SortNextDeadline, SortCustomer} {
				if _, _, err := s.ListAndCount(ctx, ListQuery{Search: search, Sort: sort, Limit: 50}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	s.search.mu.Lock()
	x := s.search.idx
	s.search.mu.Unlock()
	if x == nil {
		t.Fatal("the in-memory index was dropped")
	}
	// Catch it up as the next search would, then compare.
	if _, _, err := s.ListAndCount(ctx, ListQuery{Search: "h", Limit: 50}); err != nil {
		t.Fatal(err)
	}
	s.search.mu.Lock()
	defer s.search.mu.Unlock()
	compareWithFTS(t, s, s.search.idx, everyUnderRace(searchesToCompare(), 4))
}

// hitIDs are the ids of hits, ascending.
func (x *searchIndex) hitIDs(h searchHits) []int64 {
	out := make([]int64, 0, h.n)
	if h.n == 0 {
		return out
	}
	for _, o := range x.byID {
		if h.docs.has(o) {
			out = append(out, x.ids[o])
		}
	}
	return out
}
