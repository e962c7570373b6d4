// Package dialogs is the window's dialogs as this app shows them: messages
// and questions with their icon beside the text and a width to wrap in,
// file pickers big enough to see a folder and opening where the last file
// came from, and the keys every dialog answers (Esc closes it, Enter
// confirms it, from inside its fields too, and on a button Tab moved to:
// its buttons are this package's, NewCustom, NewCustomConfirm, NewForm,
// Final, NewButton, since Fyne's answer only Space). It knows Fyne only.
package dialogs
