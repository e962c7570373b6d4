// Package arrange is how views lay themselves out on a narrow, resizable
// pane: a row of buttons that wraps, the list/detail split that keeps both
// readable, a hint shown whole or not at all, showing, hiding and enabling
// by a rule, and laying a tab out again without redrawing every widget in
// it. It knows Fyne only.
package arrange
