/**
 * Text widths from a TrueType font's own advance widths (tables head, hhea, hmtx and a format-4 cmap), so figures laid
 * out headless (vega without a canvas) get the real width of their labels and titles instead of vega's estimate of
 * 0.8 em per character, which left an empty right margin of about a fifth of every figure. Kerning is ignored.
 */
import { readFileSync } from 'node:fs';

/** Advance widths of one font: `width(text, fontSize)` in px. */
export interface FontWidths {
  width(text: string, fontSize: number): number;
}

/**
 * Reads the advance widths of the TrueType font at `file`.
 * @throws Error when the font has no Windows BMP (format 4) cmap.
 */
export function readFontWidths(file: string): FontWidths {
  const buf = readFileSync(file);
  const u16 = (o: number) => buf.readUInt16BE(o);
  const tables = new Map<string, number>();
  for (let k = 0, n = u16(4); k < n; k++) {
    const rec = 12 + 16 * k;
    tables.set(buf.toString('latin1', rec, rec + 4), buf.readUInt32BE(rec + 8));
  }
  const table = (tag: string) => {
    const o = tables.get(tag);
    if (o === undefined) throw new Error(`font ${file} has no ${tag} table`);
    return o;
  };
  const unitsPerEm = u16(table('head') + 18);
  const metrics = u16(table('hhea') + 34);
  const hmtx = table('hmtx');
  const advance = (glyph: number) => u16(hmtx + 4 * Math.min(glyph, metrics - 1));
  const cmap = table('cmap');
  let sub = -1;
  for (let k = 0, n = u16(cmap + 2); k < n; k++) {
    const rec = cmap + 4 + 8 * k;
    const offset = cmap + buf.readUInt32BE(rec + 4);
    if (u16(rec) === 3 && u16(rec + 2) === 1 && u16(offset) === 4) sub = offset;
  }
  if (sub < 0) throw new Error(`font ${file} has no format-4 Unicode cmap`);
  const segments = u16(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segments + 2;
  const deltas = starts + 2 * segments;
  const rangeOffsets = deltas + 2 * segments;
  const glyphOf = (code: number): number => {
    for (let s = 0; s < segments; s++) {
      if (code > u16(ends + 2 * s)) continue;
      const start = u16(starts + 2 * s);
      if (code < start) return 0;
      const ro = u16(rangeOffsets + 2 * s);
      if (ro === 0) return (code + u16(deltas + 2 * s)) & 0xffff;
      const g = u16(rangeOffsets + 2 * s + ro + 2 * (code - start));
      return g === 0 ? 0 : (g + u16(deltas + 2 * s)) & 0xffff;
    }
    return 0;
  };
  const cache = new Map<number, number>();
  const units = (code: number) => {
    let w = cache.get(code);
    if (w === undefined) cache.set(code, (w = code > 0xffff ? unitsPerEm : advance(glyphOf(code))));
    return w;
  };
  return {
    width(text: string, fontSize: number): number {
      let total = 0;
      for (const ch of text) total += units(ch.codePointAt(0)!);
      return (total / unitsPerEm) * fontSize;
    },
  };
}
