// Package realwindow holds the test that drives the built app in a real
// window under X (make realwindow): Fyne's test driver is not the real
// window, and what a person meets there is tested here.
package realwindow
