"""Writes the two small fonts the app draws with beside egui's Ubuntu Light (which it takes
unchanged from the `epaint_default_fonts` crate): egui's own defaults, cut down to the
characters Tabula shows. egui's four default fonts are 688 KB of the browser's download
(brotli); these two are a few KB.

- hack-subset.ttf: Hack Regular, the monospace font (move lists, codes): Basic Latin,
  Latin-1 and the punctuation the screens use. Hack is under the MIT and Bitstream Vera
  licences (Hack-Regular.txt).
- symbols.ttf: from Noto Emoji, the symbols Ubuntu Light lacks that the screens show
  (play and back arrows, the tick) and egui's replacement square. Noto Emoji is under the
  SIL Open Font License (OFL.txt).

The test `fonts_cover_every_shown_character` (src/view/fonts.rs) fails when a screen's text
needs a character none of the fonts has; add it to SYMBOLS or MONOSPACE here and run again.

Run: python3 assets/fonts/make_fonts.py (needs fontTools: pip install fonttools)."""
import glob, pathlib
from fontTools import subset

here = pathlib.Path(__file__).parent
# The version bevy_egui's egui uses (Cargo.lock).
source = pathlib.Path(sorted(glob.glob(str(
    pathlib.Path.home() / ".cargo/registry/src/*/epaint_default_fonts-0.36.2/fonts")))[0])

PUNCTUATION = "«±·»×—•…−"
MONOSPACE = [*range(0x20, 0x7F), *range(0xA0, 0x100), *map(ord, PUNCTUATION)]
# ▶ ◀ ✔, egui's replacement character ◻ and the ⚠ of its debug-build warning.
SYMBOLS = [*map(ord, "▶◀✔◻⚠")]


def cut(font, unicodes, out):
    options = subset.Options()
    # Without the fonts' own hinting programs (a third of Hack's size after brotli): egui's
    # renderer (skrifa) then hints the outlines itself, as it does any font without them.
    options.hinting = False
    # Kept as egui reads them: kerning and names.
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    loaded = subset.load_font(str(source / font), options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(loaded)
    subset.save_font(loaded, str(here / out), options)
    print(out, (here / out).stat().st_size, "bytes")


cut("Hack-Regular.ttf", MONOSPACE, "hack-subset.ttf")
cut("NotoEmoji-Regular.ttf", SYMBOLS, "symbols.ttf")
for licence in ["Hack-Regular.txt", "OFL.txt"]:
    (here / licence).write_bytes((source / licence).read_bytes())
