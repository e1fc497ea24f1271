/**
 * Charts of aggregate answers: a SELECT answer with one label column and one or more numeric
 * columns (a GROUP BY with COUNT, SUM, AVG …) drawn as bars or lines in SVG, one series per
 * numeric column, with axes, ticks and a legend. {@link chartData} says whether an answer
 * can be charted (and reads it); {@link chartPicture} draws it. Nothing here needs a library.
 * @module
 */
import { h, s } from './dom.js';
import { type Answer, type Prefix, showTerm } from './terms.js';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = new Set(
  ['integer', 'decimal', 'double', 'float', 'long', 'int', 'short', 'byte', 'nonNegativeInteger', 'nonPositiveInteger', 'negativeInteger', 'positiveInteger', 'unsignedLong', 'unsignedInt', 'unsignedShort', 'unsignedByte'].map((t) => XSD + t),
);

/** The most categories drawn (the rest of the page is left out of the picture, not the table). */
export const MAX_CATEGORIES = 100;

/** A chartable answer: the labels and, per numeric column, its values (null where unbound). */
export interface ChartData {
  /** The label column's variable. */
  readonly labelVariable: string;
  /** One label per row. */
  readonly labels: readonly string[];
  /** One series per numeric column. */
  readonly series: ReadonlyArray<{ readonly variable: string; readonly values: ReadonlyArray<number | null> }>;
}

/** The kinds of chart. */
export type ChartKind = 'bar' | 'line';

/**
 * Reads an answer as a chart, or undefined when it is not one: at least one row, exactly one
 * column that is not numeric (the labels) and at least one column whose bound values are all
 * numeric literals (and bound in some row).
 */
export function chartData(answer: Answer, prefixes: readonly Prefix[]): ChartData | undefined {
  if (answer.rows.length === 0 || answer.variables.length < 2) return undefined;
  const numeric = answer.variables.map((_, i) => {
    let bound = 0;
    for (const row of answer.rows) {
      const term = row[i];
      if (term === undefined) continue;
      if (term.type !== 'literal' || term.datatype === undefined || !NUMERIC.has(term.datatype) || !Number.isFinite(Number(term.value))) return false;
      bound++;
    }
    return bound > 0;
  });
  const labelColumns = numeric.flatMap((n, i) => (n ? [] : [i]));
  if (labelColumns.length !== 1) return undefined;
  const label = labelColumns[0]!;
  const rows = answer.rows.slice(0, MAX_CATEGORIES);
  return {
    labelVariable: answer.variables[label]!,
    labels: rows.map((row) => showTerm(row[label], prefixes).text),
    series: answer.variables.flatMap((variable, i) => (numeric[i] ? [{ variable, values: rows.map((row) => (row[i] === undefined ? null : Number(row[i].value))) }] : [])),
  };
}

/** Round tick values from at or below `min` to at or above `max` (about five steps). */
export function ticks(min: number, max: number): number[] {
  if (min === max) return [min];
  const raw = (max - min) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((m) => m >= raw) ?? 10 * magnitude;
  const result: number[] = [];
  const last = Math.ceil(max / step - 1e-9) * step;
  for (let v = Math.floor(min / step + 1e-9) * step; v <= last + step / 1e6; v += step) result.push(Number(v.toPrecision(12)));
  return result;
}

function short(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function number(n: number): string {
  return Math.abs(n) >= 1e6 || (Math.abs(n) < 1e-3 && n !== 0) ? n.toExponential(2) : String(Number(n.toPrecision(6)));
}

const WIDTH = 900;
const HEIGHT = 340;
const MARGIN = { left: 64, right: 16, top: 16, bottom: 88 };

/** The chart of `data` as bars or lines (a figure holding the SVG and its legend). */
export function chartPicture(data: ChartData, kind: ChartKind): HTMLElement {
  const values = data.series.flatMap((series) => series.values.filter((v): v is number => v !== null));
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values);
  const axis = ticks(low, high === low ? low + 1 : high);
  const top = Math.max(high, axis[axis.length - 1] ?? high);
  const bottom = Math.min(low, axis[0] ?? low);
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const y = (v: number): number => MARGIN.top + plotHeight - ((v - bottom) / (top - bottom || 1)) * plotHeight;
  const band = plotWidth / data.labels.length;
  const x = (i: number): number => MARGIN.left + band * (i + 0.5);
  const svg = s('svg', { class: `chart chart-${kind}`, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': `${kind} chart of ${data.series.map((x) => `?${x.variable}`).join(', ')} by ?${data.labelVariable}`, 'data-role': 'chart', 'data-kind': kind });
  // the value axis: grid lines and their numbers
  for (const tick of axis) {
    svg.append(
      s('line', { class: 'grid', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(tick), y2: y(tick) }),
      s('text', { class: 'tick', x: MARGIN.left - 6, y: y(tick) + 4, 'text-anchor': 'end' }, number(tick)),
    );
  }
  svg.append(s('line', { class: 'axis', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: y(0), y2: y(0) }));
  // the categories, slanted when there are many
  const every = Math.max(1, Math.ceil(data.labels.length / 40));
  data.labels.forEach((label, i) => {
    if (i % every !== 0) return;
    const tx = x(i);
    const ty = HEIGHT - MARGIN.bottom + 14;
    svg.append(s('text', { class: 'category', x: tx, y: ty, 'text-anchor': 'end', transform: `rotate(-35 ${tx} ${ty})` }, s('title', {}, label), short(label, 18)));
  });
  const count = data.series.length;
  data.series.forEach((series, k) => {
    const group = s('g', { class: `series series-${k % 6}`, 'data-variable': series.variable });
    if (kind === 'bar') {
      const width = Math.max(1, (band * 0.8) / count);
      series.values.forEach((v, i) => {
        if (v === null) return;
        const left = x(i) - (band * 0.8) / 2 + width * k;
        const y0 = y(Math.max(v, 0));
        group.append(s('rect', { class: 'bar', x: left, y: y0, width, height: Math.max(Math.abs(y(v) - y(0)), 0.5), 'data-label': data.labels[i], 'data-value': v }, s('title', {}, `${data.labels[i]}: ${number(v)} (?${series.variable})`)));
      });
    } else {
      const points = series.values.flatMap((v, i) => (v === null ? [] : [`${x(i).toFixed(1)},${y(v).toFixed(1)}`]));
      group.append(s('polyline', { class: 'line', points: points.join(' ') }));
      series.values.forEach((v, i) => {
        if (v === null) return;
        group.append(s('circle', { class: 'point', cx: x(i), cy: y(v), r: 3, 'data-label': data.labels[i], 'data-value': v }, s('title', {}, `${data.labels[i]}: ${number(v)} (?${series.variable})`)));
      });
    }
    svg.append(group);
  });
  const legend = h(
    'p',
    { class: 'chart-legend' },
    ...data.series.map((series, k) => h('span', { class: `legend-item series-${k % 6}` }, h('span', { class: 'swatch' }), `?${series.variable}`)),
    h('span', { class: 'hint' }, ` by ?${data.labelVariable}`),
  );
  return h('figure', { class: 'chart-figure' }, svg, legend);
}
