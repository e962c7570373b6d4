// Package ooxmlcheck checks, for tests, that an .xlsx is written in the
// order the Office Open XML schema gives (ECMA-376 Part 1, sml.xsd):
// every element's children in its sequence, the <col> width entries
// ascending and apart, rows and their cells ascending. Spreadsheet
// programs read the parts as a stream in that order; Excel offers to
// "repair" a file that is not (descending <col> entries did it).
package ooxmlcheck

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

const mainNS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

// sequences are the schema's xsd:sequence of the elements we write, as
// child names in order (sml.xsd: CT_Worksheet, CT_Workbook, CT_Stylesheet,
// CT_SheetView, CT_Row, CT_Cell, CT_Xf, CT_Rst).
var sequences = map[string][]string{
	"worksheet": {"sheetPr", "dimension", "sheetViews", "sheetFormatPr", "cols", "sheetData", "sheetCalcPr",
		"sheetProtection", "protectedRanges", "scenarios", "autoFilter", "sortState", "dataConsolidate",
		"customSheetViews", "mergeCells", "phoneticPr", "conditionalFormatting", "dataValidations", "hyperlinks",
		"printOptions", "pageMargins", "pageSetup", "headerFooter", "rowBreaks", "colBreaks", "customProperties",
		"cellWatches", "ignoredErrors", "smartTags", "drawing", "legacyDrawing", "legacyDrawingHF", "drawingHF",
		"picture", "oleObjects", "controls", "webPublishItems", "tableParts", "extLst"},
	"workbook": {"fileVersion", "fileSharing", "workbookPr", "workbookProtection", "bookViews", "sheets",
		"functionGroups", "externalReferences", "definedNames", "calcPr", "oleSize", "customWorkbookViews",
		"pivotCaches", "smartTagPr", "smartTagTypes", "webPublishing", "fileRecoveryPr", "webPublishObjects", "extLst"},
	"styleSheet": {"numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs",
		"tableStyles", "colors", "extLst"},
	"sheetView": {"pane", "selection", "pivotSelection", "extLst"},
	"row":       {"c", "extLst"},
	"c":         {"f", "v", "is", "extLst"},
	"xf":        {"alignment", "protection", "extLst"},
	"is":        {"t", "r", "rPh", "phoneticPr"},
}

// Check lists what in the workbook xlsx is out of the schema's order;
// nil when nothing is.
func Check(xlsx []byte) []string {
	zr, err := zip.NewReader(bytes.NewReader(xlsx), int64(len(xlsx)))
	if err != nil {
		return []string{"not a zip archive: " + err.Error()}
	}
	var problems []string
	seen := map[string]bool{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".xml") {
			continue
		}
		seen[f.Name] = true
		rc, err := f.Open()
		if err != nil {
			problems = append(problems, f.Name+": "+err.Error())
			continue
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			problems = append(problems, f.Name+": "+err.Error())
			continue
		}
		for _, p := range checkPart(body) {
			problems = append(problems, f.Name+": "+p)
		}
	}
	for _, need := range []string{"[Content_Types].xml", "xl/workbook.xml", "xl/styles.xml"} {
		if !seen[need] {
			problems = append(problems, "no "+need)
		}
	}
	sheets := 0
	for name := range seen {
		if m, _ := path.Match("xl/worksheets/sheet*.xml", name); m {
			sheets++
		}
	}
	if sheets == 0 {
		problems = append(problems, "no worksheet")
	}
	return problems
}

var cellRef = regexp.MustCompile(`^([A-Z]{1,3})([0-9]+)$`)

// checkPart checks one XML part: every element's children in its
// sequence, and a worksheet's columns, rows and cells ascending.
func checkPart(body []byte) []string {
	var problems []string
	type open struct {
		name string
		last int // index in the sequence of the last child seen
	}
	var stack []open
	lastColMax, lastRow, lastCol := 0, 0, 0
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return append(problems, "not well-formed XML: "+err.Error())
		}
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			if el.Name.Space == mainNS && len(stack) > 0 {
				parent := &stack[len(stack)-1]
				if seq, ok := sequences[parent.name]; ok {
					i := slices.Index(seq, name)
					switch {
					case i < 0:
						problems = append(problems, fmt.Sprintf("<%s> is not a child <%s> may have", name, parent.name))
					case i < parent.last:
						problems = append(problems, fmt.Sprintf("<%s> comes after <%s> in <%s>; the schema puts it before", name, seq[parent.last], parent.name))
					default:
						parent.last = i
					}
				}
			}
			if el.Name.Space == mainNS {
				switch name {
				case "col":
					lo, hi := attrInt(el, "min"), attrInt(el, "max")
					if lo < 1 || hi < lo || lo <= lastColMax {
						problems = append(problems, fmt.Sprintf(`<col min="%d" max="%d"> after max="%d": not ascending, or overlapping`, lo, hi, lastColMax))
					}
					lastColMax = max(lastColMax, hi)
				case "row":
					r := attrInt(el, "r")
					if r <= lastRow {
						problems = append(problems, fmt.Sprintf(`<row r="%d"> after row %d`, r, lastRow))
					}
					lastRow, lastCol = r, 0
				case "c":
					m := cellRef.FindStringSubmatch(attr(el, "r"))
					if m == nil {
						problems = append(problems, fmt.Sprintf(`<c r="%s">: not a cell reference`, attr(el, "r")))
						break
					}
					col, row := colNumber(m[1]), atoi(m[2])
					if row != lastRow || col <= lastCol {
						problems = append(problems, fmt.Sprintf(`<c r="%s"> in row %d after column %d`, attr(el, "r"), lastRow, lastCol))
					}
					lastCol = col
				}
			}
			stack = append(stack, open{name: name, last: 0})
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		}
	}
	return problems
}

func attr(el xml.StartElement, name string) string {
	for _, a := range el.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func attrInt(el xml.StartElement, name string) int { return atoi(attr(el, name)) }

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return n
}

// colNumber is a column's letters as a number: A 1, Z 26, AA 27.
func colNumber(letters string) int {
	n := 0
	for _, c := range letters {
		n = n*26 + int(c-'A'+1)
	}
	return n
}
