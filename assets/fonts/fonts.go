// Package fonts holds the font the printed outputs fall back on when the
// computer has none for a script: WenQuanYi Micro Hei, one TrueType font
// with Chinese, Japanese and Korean (fpdf embeds TrueType outlines only,
// so the CFF-based Noto Sans CJK will not do, and Droid Sans Fallback,
// TrueType too, has no Hangul). Its licence is the Apache License 2.0
// (NOTICE). It imports nothing, so that what prints need not link the
// window's toolkit to reach it.
package fonts

import _ "embed"

// CJKFallback is wqy-microhei.ttf (4.6 MB; a printed file embeds only
// the glyphs it uses).
//
//go:embed wqy-microhei.ttf
var CJKFallback []byte
