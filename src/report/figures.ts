/**
 * Shared figure builders: the figure shape (rows + vega-lite spec), the schema, and the layer and facet pieces that
 * the comparison, experiment and claim figures are made of. No rendering, no I/O; each figure keeps its rows, so the
 * CSV/JSON beside the plot is exactly what was drawn.
 */
import type { TopLevelSpec } from 'vega-lite';

export type Row = Record<string, number | string | null>;

export interface Figure {
  /** File stem, e.g. "tail-fractions". */
  readonly name: string;
  readonly title: string;
  /** One paragraph saying what is drawn and how to read it. */
  readonly caption: string;
  readonly rows: Row[];
  readonly spec: TopLevelSpec;
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

/**
 * Estimates with 95% CIs on a log y axis: error bars from `lo` to `hi` and a mark at the estimate, for the rows where
 * `filter` holds. @param o.x the x field definition; @param o.shared encodings of both layers (colour, …);
 * @param o.mark the estimate's mark (points, or a line with points); @param o.encoding its own encodings (tooltip,
 * shape); @param o.valueField the estimate's field (default 'value'); @param o.yTitle the y axis title.
 */
export function ciLayers(o: { filter?: string; x: Spec; shared?: Spec; mark: Spec; encoding?: Spec; valueField?: string; yTitle?: string }): Spec[] {
  const y = { field: o.valueField ?? 'value', type: 'quantitative', scale: { type: 'log' }, ...(o.yTitle ? { title: o.yTitle } : {}) };
  return [
    filtered(o.filter, { type: 'errorbar', ticks: true },
      { x: o.x, y: { field: 'lo', type: 'quantitative', scale: { type: 'log' }, title: null }, y2: { field: 'hi' }, ...o.shared }),
    filtered(o.filter, o.mark, { x: o.x, y, ...o.shared, ...o.encoding }),
  ];
}

/**
 * A figure with one panel per value of `panel` (at most three columns), panels sharing y and not x.
 * @param columns how many panels a row holds (at most 3).
 */
export function panelledSpec(rows: readonly Row[], columns: number, size: { width: number; height: number }, layer: Spec[], title: Spec): TopLevelSpec {
  return {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'panel' } },
    columns: Math.min(3, columns),
    spec: { ...size, layer },
    resolve: { scale: { x: 'independent' } },
    title,
  } as unknown as TopLevelSpec;
}

/** Markdown section of a figure: title, the SVG, caption and links to every file written beside it. */
export function figureSection(f: Pick<Figure, 'name' | 'title' | 'caption'>): string {
  return `### ${f.title}\n\n![${f.title}](figures/${f.name}.svg)\n\n${f.caption}\n\n` +
    `Files: [PNG](figures/${f.name}.png) · [SVG](figures/${f.name}.svg) · [vega-lite spec](figures/${f.name}.vl.json) · ` +
    `[data CSV](figures/${f.name}.csv) · [data JSON](figures/${f.name}.json)\n`;
}
