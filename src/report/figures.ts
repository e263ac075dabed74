/**
 * Shared figure builders: the figure shape (rows + vega-lite spec), the schema, and the layer and facet pieces that
 * the comparison, experiment and claim figures are made of. No rendering, no I/O; each figure keeps its rows, so the
 * CSV/JSON beside the plot is exactly what was drawn.
 */
import type { TopLevelSpec } from 'vega-lite';

export type Row = Record<string, number | string | boolean | null>;

/**
 * The fields { value, lo, hi } of an estimate with its 95 % interval in a figure's rows, so in the JSON and CSV beside
 * the figure, written in the project's one JSON convention for ∞ (io/json.ts: null with a flag, never a bare null):
 * finite numbers as they are; an interval open at an end (a percentile's cdf interval reaching level 1) with that
 * end null and `ci95Infinite: true` (null lo = −∞, null hi = +∞); a quantity infinite in theory (value +∞) with value,
 * lo and hi null and `infinite: true`. A bare null still means "no such value" (NaN; a curve row's lo and hi). For
 * quantities ≥ 0 (times, slowdowns, fractions): a value of −∞ is not expected and reads as no value.
 * @param valueField the name of the estimate's field (default 'value').
 * @example estimateFields(5, [2, Infinity]) // { value: 5, lo: 2, hi: null, ci95Infinite: true }
 */
export function estimateFields(value: number, ci95: readonly [number, number], valueField = 'value'): Row {
  if (value === Infinity) return { [valueField]: null, lo: null, hi: null, infinite: true };
  const [lo, hi] = ci95;
  const open = (x: number) => x === Infinity || x === -Infinity;
  return {
    [valueField]: Number.isFinite(value) ? value : null,
    lo: Number.isFinite(lo) ? lo : null,
    hi: Number.isFinite(hi) ? hi : null,
    ...(open(lo) || open(hi) ? { ci95Infinite: true } : {}),
  };
}

export interface Figure {
  /** File stem, e.g. "tail-fractions". */
  readonly name: string;
  readonly title: string;
  /** One paragraph saying what is drawn and how to read it. */
  readonly caption: string;
  readonly rows: Row[];
  readonly spec: TopLevelSpec;
  /** Also write figures/<name>.pdf (paper export, `WriteReportOptions.latex`). */
  readonly pdf?: boolean;
}

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** A vega-lite field definition or layer, loosely typed (the whole spec is checked when it is compiled). */
type Spec = Record<string, unknown>;

/** Picks up to `k` values spread over the sorted list (first, last, and some in between). */
export function spread(values: readonly number[], k: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length <= k) return sorted;
  const picked = new Set<number>();
  for (let j = 0; j < k; j++) picked.add(sorted[Math.round((j * (sorted.length - 1)) / (k - 1))]);
  return [...picked];
}

/** A layer restricted to the rows where the vega expression `filter` holds (all rows when it is undefined). */
export function filtered(filter: string | undefined, mark: Spec, encoding: Spec): Spec {
  return { ...(filter ? { transform: [{ filter }] } : {}), mark, encoding };
}

/** Drag to pan and wheel to zoom the axes of a panel in the interactive report (double-click resets); inert when rendered to SVG/PNG. */
const ZOOM = { name: 'zoom', select: 'interval', bind: 'scales' };

/**
 * Estimates with 95% CIs on a log y axis: error bars from `lo` to `hi` and a mark at the estimate, for the rows where
 * `filter` holds. Both layers carry the same y title, so the title survives layering. The rows keep the raw interval;
 * the bar's lower end is clamped only in the drawing (a log axis cannot show lo ≤ 0).
 * @param o.x the x field definition; @param o.shared encodings of both layers (colour, …);
 * @param o.mark the estimate's mark (points, or a line with points); @param o.encoding its own encodings (tooltip,
 * shape); @param o.valueField the estimate's field (default 'value'); @param o.yTitle the y axis title;
 * @param o.loFloor vega expression of the lowest drawn bar end (default a tenth of the estimate).
 * @param o.axisFloor the bottom of the y axis (a number, e.g. `logFloor` of the plotted values), instead of loFloor:
 * a bar whose interval reaches below it (lo ≤ 0 included) is drawn down to the axis and ends there in an open
 * triangle ▽ (`OPEN_END`), so a cut bar is never taken for a measured lower end.
 */
export function ciLayers(o: {
  filter?: string;
  x: Spec;
  shared?: Spec;
  mark: Spec;
  encoding?: Spec;
  valueField?: string;
  /** One line, or several (an array). */
  yTitle: string | readonly string[];
  loFloor?: string;
  axisFloor?: number;
}): Spec[] {
  const v = o.valueField ?? 'value';
  const scale = { type: 'log', ...(o.axisFloor !== undefined ? { domainMin: o.axisFloor } : {}) };
  const y = { field: v, type: 'quantitative', scale, title: o.yTitle };
  const floor = o.axisFloor !== undefined ? `${o.axisFloor}` : (o.loFloor ?? `datum['${v}'] / 10`);
  const bars = [...(o.filter ? [{ filter: o.filter }] : []), { filter: 'isValid(datum.lo) && isValid(datum.hi)' }];
  return [
    {
      transform: [...bars, { calculate: `max(datum.lo, ${floor})`, as: 'loDrawn' }],
      mark: { type: 'errorbar', ticks: true },
      // the estimate's tooltip on the bar too: vega-lite's default would list the internal loDrawn
      encoding: { x: o.x, y: { ...y, field: 'loDrawn' }, y2: { field: 'hi' }, ...o.shared, ...tooltipOf(o.encoding) },
    },
    ...(o.axisFloor !== undefined
      ? [
          {
            transform: [...bars, { filter: `datum.lo < ${o.axisFloor}` }, { calculate: `${o.axisFloor}`, as: 'loDrawn' }],
            mark: { type: 'point', shape: 'triangle-down', filled: false, size: 45, strokeWidth: 1.2 },
            encoding: { x: o.x, y: { ...y, field: 'loDrawn' }, ...o.shared, ...tooltipOf(o.encoding) },
          },
        ]
      : []),
    { ...filtered(o.filter, o.mark, { x: o.x, y, ...o.shared, ...o.encoding }), params: [ZOOM] },
  ];
}

/** The tooltip entry of an encoding (or none). */
function tooltipOf(encoding: Spec | undefined): Spec {
  return encoding?.tooltip ? { tooltip: encoding.tooltip } : {};
}

/** The sign at the lower end of a bar cut by the axis (`ciLayers` with axisFloor), as captions name it. */
export const OPEN_END = '▽';

/** The sign at the upper end of an interval open at +∞, drawn to the right edge of its panel (x axis), as captions name it. */
export const OPEN_END_RIGHT = '▷';

/**
 * The bottom of a log axis for `values`: the power of ten at or below the smallest positive one (1 when there is none),
 * so every value is drawn and a bar cut at it (`ciLayers` axisFloor) ends on a labelled tick.
 */
export function logFloor(values: readonly number[]): number {
  const positive = values.filter((x) => Number.isFinite(x) && x > 0);
  return positive.length === 0 ? 1 : 10 ** Math.floor(Math.log10(Math.min(...positive)));
}

/**
 * The distinct values of `field` in `rows`, ordered by the numbers in `keys` (then text), for a facet's `sort`: so
 * "n = 20" comes before "n = 100" and "d = 2" before "d = 10". Text keys compare as text.
 */
export function facetOrder(rows: readonly Row[], field: string, keys: readonly string[]): string[] {
  const first = new Map<string, Row>();
  for (const r of rows) if (r[field] !== null && !first.has(String(r[field]))) first.set(String(r[field]), r);
  const cmp = (a: unknown, b: unknown) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));
  return [...first.entries()]
    .sort(([, a], [, b]) => {
      for (const k of keys) {
        const c = cmp(a[k], b[k]);
        if (c !== 0) return c;
      }
      return 0;
    })
    .map(([v]) => v);
}

/**
 * A log axis for values in [floor/10, 1] with ticks at the powers of ten only (no crowded minor labels in a browser),
 * labelled 1, 0.1, 0.01, 0.001, 1e-4, 1e-5, … (not 0.000001).
 */
export function logAxis(floor: number): Spec {
  const values: number[] = [];
  for (let k = 0; Number(`1e-${k}`) >= floor / 10; k++) values.push(Number(`1e-${k}`));
  return { values, labelExpr: "datum.value >= 1e-3 ? format(datum.value, '~g') : format(datum.value, '.0e')" };
}

/**
 * A log scale's domain over the positive `values`, widened on each side by `fraction` of its span in decades (by a
 * factor of at least 1.15), so that marks at the smallest and largest value sit inside the plot, not half cut by its
 * border. Use with `nice: false`.
 */
export function paddedLogDomain(values: readonly number[], fraction = 0.05): [number, number] {
  const positive = values.filter((x) => Number.isFinite(x) && x > 0);
  const lo = Math.min(...positive);
  const hi = Math.max(...positive);
  const factor = Math.max(1.15, (hi / lo) ** fraction);
  return [lo / factor, hi * factor];
}

/** Axis tick values at the numbers present in `values` (sorted, distinct), so no label at the ends is dropped. */
export function ticksAt(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** The label of an n tick: 2, 50, 500, 1k, 10k (compact thousands); `N_LABEL_EXPR` is the same in vega. */
export function nLabel(n: number): string {
  return n >= 1000 ? `${+(n / 1000).toPrecision(6)}k` : `${+n.toPrecision(6)}`;
}
export const N_LABEL_EXPR = "datum.value >= 1000 ? format(datum.value / 1000, '~g') + 'k' : format(datum.value, '~g')";

/**
 * Tick values for a log n axis of `widthPx` pixels over `domain` whose labels never touch: the sorted distinct
 * `values`, left to right, each kept only when its label (`nLabel`, 10 px DejaVu Sans, ~6.4 px a character) clears
 * the previous kept one by 4 px; the largest value is always kept (the one before it is dropped when they collide).
 * At n = 2, 3, 4, 5, 10, … on 300 px this keeps 2, 3, 5, 10 (4 sat between 3 and 5: "2 3 45").
 */
export function nTicks(values: readonly number[], domain: readonly [number, number], widthPx: number): number[] {
  const sorted = ticksAt(values).filter((v) => v >= domain[0] && v <= domain[1] && v > 0);
  const span = Math.log(domain[1] / domain[0]);
  const x = (v: number) => (widthPx * Math.log(v / domain[0])) / span;
  const half = (v: number) => (nLabel(v).length * 6.4) / 2;
  const clear = (a: number, b: number) => x(b) - x(a) >= half(a) + half(b) + 4;
  const kept: number[] = [];
  for (const v of sorted) if (kept.length === 0 || clear(kept[kept.length - 1], v)) kept.push(v);
  const last = sorted[sorted.length - 1];
  if (last !== undefined && kept[kept.length - 1] !== last) {
    while (kept.length > 1 && !clear(kept[kept.length - 1], last)) kept.pop();
    kept.push(last);
  }
  return kept;
}

/** The d3 format of every number a tooltip shows: 4 significant digits. */
export const TIP_FORMAT = '.4~g';

/**
 * One tooltip entry: the row's `field` shown under `title`, the field's own words (never an internal name such as
 * `signedError`), numbers to 4 significant digits unless `format` says otherwise (e.g. '' for a count).
 */
export function tip(field: string, title: string, numeric = true): Spec {
  return { field, title, ...(numeric ? { format: TIP_FORMAT } : {}) };
}

/**
 * A symmetric-log y scale and its ticks for signed values (errors that change sign): linear within ±`constant`,
 * logarithmic beyond, ticks at 0 and ±10^k up to the largest |value|. `constant` is the power of ten at or below the
 * smallest non-zero |value| (so small errors stay apart from 0).
 */
export function symlogScale(values: readonly number[]): { scale: Spec; ticks: number[] } {
  const abs = values.filter((v) => Number.isFinite(v) && v !== 0).map(Math.abs);
  const lo = abs.length ? Math.floor(Math.log10(Math.min(...abs))) : -3;
  const hi = abs.length ? Math.ceil(Math.log10(Math.max(...abs))) : 0;
  const powers: number[] = [];
  for (let k = lo; k <= Math.max(lo, hi); k++) powers.push(Number(`1e${k}`));
  const ticks = [...powers.map((p) => -p).reverse(), 0, ...powers];
  return { scale: { type: 'symlog', constant: Number(`1e${lo}`) }, ticks };
}

/**
 * Splits `text` into lines of at most `maxChars` characters at spaces (a longer word stays whole), so a figure's
 * title is no wider than its panels and adds no empty right margin.
 */
export function wrapText(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A figure's title block, wrapped to `widthPx` (the panels' width) plus room for the y axis and legend: title at 13 px, subtitle lines at 11 px, anchored
 * left. Character widths are estimated (about 0.6 em for DejaVu Sans).
 */
export function titleBlock(text: string, widthPx: number, subtitle: readonly string[] = []): Spec {
  const chars = (fontSize: number) => Math.max(30, Math.floor((widthPx + 120) / (0.6 * fontSize)));
  const sub = subtitle.flatMap((s) => wrapText(s, chars(11)));
  return { text: wrapText(text, chars(13)), fontSize: 13, anchor: 'start', ...(sub.length ? { subtitle: sub, subtitleFontSize: 11 } : {}) };
}

/**
 * A figure with one panel per value of `panel` (at most three columns), panels sharing y and not x, in the order
 * `order` (see `facetOrder`). @param columns how many panels a row holds (at most 3); @param transform vega-lite
 * transforms applied to the rows before faceting (e.g. a floor for a log axis: the rows stay raw).
 */
export function panelledSpec(
  rows: readonly Row[],
  o: {
    columns: number;
    size: { width: number; height: number };
    layer: Spec[];
    title: string;
    subtitle?: string[];
    order: string[];
    transform?: Spec[];
  },
): TopLevelSpec {
  const columns = Math.max(1, Math.min(3, o.columns, o.order.length));
  return {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    ...(o.transform ? { transform: o.transform } : {}),
    facet: { field: 'panel', type: 'nominal', title: null, sort: o.order, header: { labelLimit: 0 } },
    columns,
    spec: { ...o.size, layer: o.layer },
    resolve: { scale: { x: 'independent' } },
    title: titleBlock(o.title, columns * (o.size.width + 60), o.subtitle),
  } as unknown as TopLevelSpec;
}

/** Markdown section of a figure: title, the SVG, caption and links to every file written beside it. */
export function figureSection(f: Pick<Figure, 'name' | 'title' | 'caption'>): string {
  return (
    `### ${f.title}\n\n![${f.title}](figures/${f.name}.svg)\n\n${f.caption}\n\n` +
    `Files: [PNG](figures/${f.name}.png) · [SVG](figures/${f.name}.svg) · [vega-lite spec](figures/${f.name}.vl.json) · ` +
    `[data CSV](figures/${f.name}.csv) · [data JSON](figures/${f.name}.json)\n`
  );
}
