// Package dialogs is the window's dialogs as this app shows them: messages
// and questions with their icon beside the text and a width to wrap in,
// file pickers big enough to see a folder and opening where the last file
// came from, and the keys every dialog answers (Esc closes it, Enter
// confirms it, from inside its fields too). It knows Fyne only.
package dialogs
