// Package fonts holds the font the printed outputs fall back on when the
// computer has none for a script: WenQuanYi Micro Hei, one TrueType font
// with Chinese, Japanese and Korean (fpdf embeds TrueType outlines only,
// so the CFF-based Noto Sans CJK will not do, and Droid Sans Fallback,
// TrueType too, has no Hangul). Its licence is the Apache License 2.0
// (NOTICE). It imports no Fyne, so that what prints need not link the
// window's toolkit to reach it.
package fonts

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The font is kept compressed (zstd -19: 1.7 MB of its 4.6 MB): it is
// needed only when the computer has no font for a script, and the
// repository keeps no file over 2 MB.
//
//go:embed wqy-microhei.ttf.zst
var cjkFallbackZst []byte

// CJKFallback is wqy-microhei.ttf, decompressed on first use (a printed
// file embeds only the glyphs it uses).
var CJKFallback = sync.OnceValues(func() ([]byte, error) {
	d, err := zstd.NewReader(bytes.NewReader(cjkFallbackZst))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var out bytes.Buffer
	if _, err := out.ReadFrom(d); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
})
