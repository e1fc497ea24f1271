/**
 * The query tab's tools in headless Chromium: downloading an answer (each format's bytes are
 * those the endpoint answers for that Accept header), copying it, the plan, the marker of a
 * syntax error at its line, charts of an aggregate answer, the keys of shortcuts.ts, and the
 * history across a reload (with the time each query took).
 *
 * Screenshots (download.png, plan.png, chart.png) go to a temporary directory, or to
 * docs/console/ when QUADLOG_UPDATE_SCREENSHOTS=1.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import type { ServerConnection } from '../../lib/index.js';
import type { EndpointHandle } from '../../lib/http/index.js';
import { ConsoleRig } from './console-rig.js';

const ROLE = 'admin';
const PASSWORD = 'query-tools-secret-8080';
const EX = 'http://example.com/shop#';
const STORE = 'shop';

const SELECT = 'SELECT ?item ?price WHERE { ?item ex:price ?price } ORDER BY ?item';
const CONSTRUCT = 'CONSTRUCT { ?item ex:in ?c } WHERE { ?item ex:category ?c }';
const AGGREGATE = 'SELECT ?category (COUNT(?item) AS ?items) (SUM(?price) AS ?total) WHERE { ?item ex:category ?category ; ex:price ?price } GROUP BY ?category ORDER BY ?category';

/** The shop: 6 items in 3 categories, with prices. */
function shopData(): string {
  const items: Array<[string, string, string]> = [
    ['i1', 'books', '12.5'],
    ['i2', 'books', '7'],
    ['i3', 'books', '20'],
    ['i4', 'games', '45'],
    ['i5', 'games', '30'],
    ['i6', 'tools', '8.25'],
  ];
  return [`@prefix ex: <${EX}> .`, ...items.map(([i, c, p]) => `ex:${i} ex:category ex:${c} ; ex:price ${p} ; ex:label "Item ${i}" .`), ''].join('\n');
}

describe('web console: query tools in headless Chromium', function () {
  this.timeout(120_000);

  let rig: ConsoleRig | undefined;
  let shots = '';
  let admin: ServerConnection;
  let endpoint: EndpointHandle;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  before(async function () {
    this.timeout(900_000);
    rig = await ConsoleRig.start({ name: 'query-tools', role: ROLE, password: PASSWORD, context: { acceptDownloads: true } });
    ({ shots, admin, endpoint, context, page, problems } = rig);
    admin.createDataStore(STORE);
    const ds = admin.newDataStoreConnection(STORE);
    try {
      await ds.setPrefix('ex:', EX);
      await ds.importData('ADD', shopData(), { mediaType: 'text/turtle' });
    } finally {
      ds.close();
    }
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: endpoint.url });
  });

  after(async () => {
    await rig?.close();
  });

  const status = (): ReturnType<Page['locator']> => page.locator('[data-role=query-panel] [data-role=status]');

  async function outcome(): Promise<number> {
    return Number(await status().getAttribute('data-seq'));
  }

  /**
   * Waits for an outcome of the status after `seq`; returns its state and text. (A number above
   * `seq`, not `seq + 1` exactly: a page polled on a busy machine can pass a value unseen.)
   */
  async function next(seq: number): Promise<{ state: string; text: string }> {
    await page.waitForFunction((after) => Number(document.querySelector('[data-role=query-panel] [data-role=status]')?.getAttribute('data-seq') ?? '0') > after, seq);
    return { state: (await status().getAttribute('data-state')) ?? '', text: (await status().textContent()) ?? '' };
  }

  async function write(text: string): Promise<void> {
    await page.click('.cm-content');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  /** Presses keys (or clicks a button) and waits for the outcome. */
  async function act(action: () => Promise<void>): Promise<{ state: string; text: string }> {
    const seq = await outcome();
    await action();
    return next(seq);
  }

  async function run(text: string): Promise<{ state: string; text: string }> {
    await write(text);
    return act(() => page.keyboard.press('Control+Enter'));
  }

  /** Signs in and opens the query tab of the shop. */
  async function signInToQueryTab(): Promise<void> {
    await page.goto(`${endpoint.url}/console/`);
    await page.fill('[data-role=role]', ROLE);
    await page.fill('[data-role=password]', PASSWORD);
    await page.click('[data-role=sign-in]');
    await page.waitForSelector(`[data-role=store-list] button[data-store=${STORE}]`);
    if ((await page.locator(`.store-view[data-store=${STORE}]`).count()) === 0) await page.click(`[data-role=store-list] button[data-store=${STORE}]`);
    await page.waitForSelector(`.store-view[data-store=${STORE}]`);
    await page.click('.tabs [data-tab=query]');
    await page.waitForSelector('[data-role=query-panel] .cm-content');
  }

  /** The bytes the endpoint answers for `query` with `accept`. */
  async function endpointBytes(query: string, accept: string): Promise<Buffer> {
    const res = await fetch(`${endpoint.url}/datastores/${STORE}/sparql`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`, 'content-type': 'application/sparql-query', accept },
      body: `PREFIX ex: <${EX}>\n${query}`,
    });
    expect(res.status).to.equal(200);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Downloads the editor's answer in `format` (by the button, or by Ctrl-Shift-S); returns the file's name and bytes. */
  async function download(mediaType: string, by: 'button' | 'keys' = 'button'): Promise<{ name: string; bytes: Buffer }> {
    await page.selectOption('[data-role=download-format]', mediaType);
    const seq = await outcome();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      by === 'button' ? page.click('[data-role=download]') : page.click('.cm-content').then(() => page.keyboard.press('Control+Shift+S')),
    ]);
    const shown = await next(seq);
    expect(shown.state, shown.text).to.equal('done');
    const path = await file.path();
    return { name: file.suggestedFilename(), bytes: await readFile(path) };
  }

  it('signs in and opens the query tab', async () => {
    await signInToQueryTab();
  });

  it('downloads a SELECT answer as CSV, TSV, SPARQL JSON and SPARQL XML: the bytes the endpoint answers for each', async () => {
    const ran = await run(`PREFIX ex: <${EX}>\n${SELECT}`);
    expect(ran.text).to.match(/^Rows 1–6 of 6/);
    const offered = await page.locator('[data-role=download-format] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).to.deep.equal(['text/csv', 'text/tab-separated-values', 'application/sparql-results+json', 'application/sparql-results+xml']);
    const extensions: Record<string, string> = { 'text/csv': 'csv', 'text/tab-separated-values': 'tsv', 'application/sparql-results+json': 'srj', 'application/sparql-results+xml': 'srx' };
    for (const [mediaType, extension] of Object.entries(extensions)) {
      const { name, bytes } = await download(mediaType);
      expect(name).to.match(new RegExp(`^${STORE}-\\d{4}-\\d{2}-\\d{2}-\\d{6}\\.${extension}$`));
      expect(bytes.equals(await endpointBytes(SELECT, mediaType)), `${mediaType}: ${bytes.toString()}`).to.equal(true);
    }
    // the CSV holds the six items
    const csv = (await download('text/csv')).bytes.toString('utf8');
    expect(csv.split('\r\n').filter((l) => l !== '')).to.have.length(7);
    expect(csv).to.contain(`${EX}i1,12.5`);
    await page.screenshot({ path: join(shots, 'download.png') });
  });

  it('downloads a CONSTRUCT answer as Turtle and N-Triples; Ctrl-Shift-S downloads too', async () => {
    await write(`PREFIX ex: <${EX}>\n${CONSTRUCT}`);
    const offered = await page.locator('[data-role=download-format] option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(offered).to.deep.equal(['text/turtle', 'application/n-triples']);
    const turtle = await download('text/turtle');
    expect(turtle.name).to.match(/\.ttl$/);
    expect(turtle.bytes.equals(await endpointBytes(CONSTRUCT, 'text/turtle'))).to.equal(true);
    const nt = await download('application/n-triples', 'keys');
    expect(nt.name).to.match(/\.nt$/);
    expect(nt.bytes.equals(await endpointBytes(CONSTRUCT, 'application/n-triples'))).to.equal(true);
    expect(nt.bytes.toString('utf8').trim().split('\n')).to.have.length(6);
  });

  it('copies the answer in the chosen format to the clipboard', async () => {
    await write(`PREFIX ex: <${EX}>\n${SELECT}`);
    await page.selectOption('[data-role=download-format]', 'text/tab-separated-values');
    const shown = await act(() => page.click('[data-role=copy]'));
    expect(shown.state, shown.text).to.equal('done');
    expect(shown.text).to.match(/^Copied the answer \(TSV, \d+ bytes\)/);
    const copied = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(copied).to.equal((await endpointBytes(SELECT, 'text/tab-separated-values')).toString('utf8'));
  });

  it('an update offers no download', async () => {
    await write('INSERT DATA { ex:i7 ex:price 1 }');
    expect(await page.locator('[data-role=download]').isDisabled()).to.equal(true);
    expect(await page.locator('[data-role=copy]').isDisabled()).to.equal(true);
  });

  it('shows the plan of the query with the Plan button and with Ctrl-Shift-Enter', async () => {
    await write(`PREFIX ex: <${EX}>\nSELECT ?item ?c WHERE {\n  ?item ex:category ?c .\n  ?item ex:price ?p .\n  FILTER(?p > 10)\n}`);
    let shown = await act(() => page.click('[data-role=plan]'));
    expect(shown.state, shown.text).to.equal('done');
    expect(shown.text).to.match(/^Plan in \d+(\.\d+)? m?s/);
    const plan = (await page.locator('[data-role=plan-text]').textContent()) ?? '';
    expect(plan).to.match(/^algebra:\n/);
    expect(plan).to.contain(`?item <${EX}category> ?c`);
    expect(plan).to.match(/answers: 4, evaluated in [\d.]+ ms/);
    await page.screenshot({ path: join(shots, 'plan.png') });
    await run(`PREFIX ex: <${EX}>\n${SELECT}`);
    expect(await page.locator('[data-role=plan-text]').count()).to.equal(0);
    await page.click('.cm-content');
    shown = await act(() => page.keyboard.press('Control+Shift+Enter'));
    expect(shown.state).to.equal('done');
    await page.waitForSelector('[data-role=plan-text]');
  });

  it('marks a syntax error at its line and column, with the caret there', async () => {
    const text = `PREFIX ex: <${EX}>\nSELECT ?item\nWHERE {\n  ?item ex:price ?p .\n  FILTER(?p > )\n}`;
    const shown = await run(text);
    expect(shown.state).to.equal('error');
    expect(shown.text).to.match(/line 5, column 15/);
    const position = page.locator('[data-role=status] [data-role=error-position]');
    expect(await position.getAttribute('data-line')).to.equal('5');
    expect(await position.getAttribute('data-column')).to.equal('15');
    // the underline is on the fifth line, from the column on: ')'
    const lines = page.locator('.cm-content .cm-line');
    await page.waitForSelector('.cm-error-underline');
    expect(await lines.nth(4).locator('.cm-error-underline').count()).to.equal(1);
    expect(await page.locator('.cm-error-underline').textContent()).to.equal(')');
    for (const i of [0, 1, 2, 3, 5]) expect(await lines.nth(i).locator('.cm-error-underline').count()).to.equal(0);
    // the marker in the gutter is beside line 5
    const marker = page.locator('[data-role=error-marker]').filter({ hasText: '●' });
    const markerBox = (await marker.last().boundingBox())!;
    const lineBox = (await lines.nth(4).boundingBox())!;
    expect(Math.abs(markerBox.y + markerBox.height / 2 - (lineBox.y + lineBox.height / 2))).to.be.below(lineBox.height / 2);
    // the caret is at line 5, column 15: typing there completes the filter
    await page.keyboard.type('5');
    expect(await page.locator('.cm-error-underline').count()).to.equal(0);
    expect(await lines.nth(4).textContent()).to.equal('  FILTER(?p > 5)');
    const fixed = await act(() => page.keyboard.press('Control+Enter'));
    expect(fixed.state, fixed.text).to.equal('done');
    expect(fixed.text).to.match(/^Rows 1–6 of 6/);
  });

  it('marks an error at the end of the text; F8 goes back to it', async () => {
    const shown = await run('SELECT ?x WHERE { ?x');
    expect(shown.state).to.equal('error');
    expect(shown.text).to.match(/line 1, column 21/);
    await page.waitForSelector('.cm-error-underline');
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('F8');
    await page.keyboard.type(' ?y ?z }');
    expect(await page.locator('.cm-content .cm-line').first().textContent()).to.equal('SELECT ?x WHERE { ?x ?y ?z }');
  });

  it('offers bar and line charts of an aggregate answer', async () => {
    const shown = await run(`PREFIX ex: <${EX}>\n${AGGREGATE}`);
    expect(shown.state, shown.text).to.equal('done');
    await page.waitForSelector('[data-role=chart-table][aria-selected=true]');
    expect(await page.locator('table[data-role=answer] tbody tr').count()).to.equal(3);
    await page.click('[data-role=chart-bar]');
    await page.waitForSelector('svg[data-role=chart][data-kind=bar]');
    const bars = page.locator('svg[data-role=chart] g[data-variable=items] rect.bar');
    expect(await bars.count()).to.equal(3);
    expect(await bars.evaluateAll((rects) => rects.map((r) => [r.getAttribute('data-label'), r.getAttribute('data-value')]))).to.deep.equal([
      ['ex:books', '3'],
      ['ex:games', '2'],
      ['ex:tools', '1'],
    ]);
    const totals = await page.locator('svg[data-role=chart] g[data-variable=total] rect.bar').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-value'))));
    expect(totals).to.deep.equal([39.5, 75, 8.25]);
    // taller for more
    const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('height'))));
    expect(heights[0]).to.be.above(heights[1]!);
    expect(heights[1]).to.be.above(heights[2]!);
    expect(await page.locator('.chart-legend').textContent()).to.contain('?items');
    await page.screenshot({ path: join(shots, 'chart.png'), fullPage: true });
    await page.click('[data-role=chart-line]');
    await page.waitForSelector('svg[data-role=chart][data-kind=line]');
    expect(await page.locator('svg[data-role=chart] polyline.line').count()).to.equal(2);
    expect(await page.locator('svg[data-role=chart] g[data-variable=items] circle.point').count()).to.equal(3);
    await page.click('[data-role=chart-table]');
    await page.waitForSelector('table[data-role=answer]');
    // an answer without numbers is a table only
    await run(`PREFIX ex: <${EX}>\nSELECT ?item ?label WHERE { ?item ex:label ?label }`);
    expect(await page.locator('[data-role=chart-bar]').count()).to.equal(0);
  });

  it('lists the store’s saved queries in the query tab: save the editor’s text, open it again', async () => {
    const text = `PREFIX ex: <${EX}>\n${AGGREGATE}`;
    await write(text);
    await page.fill('[data-role=query-panel] [data-role=saved-query-name]', 'totals by category');
    await page.click('[data-role=query-panel] [data-role=save-query]');
    await page.waitForSelector('[data-role=query-panel] [data-role=saved-queries] li[data-name="totals by category"]');
    await write('SELECT * WHERE { ?s ?p ?o }');
    await page.click('[data-role=query-panel] li[data-name="totals by category"] [data-role=open-saved-query]');
    expect(await page.locator('.cm-content').evaluate((e) => (e as HTMLElement).innerText)).to.equal(text);
    // the formats follow the text put into the editor
    expect(await page.locator('[data-role=download-format] option').count()).to.equal(4);
  });

  it('Escape stops a running query', async () => {
    await write(`PREFIX ex: <${EX}>\nSELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l . ?m ?n2 ?o . ?q ?r ?s . ?t ?u ?v }`);
    const seq = await outcome();
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-role=query-panel] [data-role=status][data-state=running]');
    await page.keyboard.press('Escape');
    const shown = await next(seq);
    // 18^7 combinations: only a stop ends it
    expect(shown.state, shown.text).to.equal('stopped');
  });

  it('keeps the history, with the time each query took, across a reload', async () => {
    const text = `PREFIX ex: <${EX}>\n${AGGREGATE}`;
    await run(text);
    await page.reload();
    await signInToQueryTab();
    const first = page.locator('[data-role=history] option').nth(1);
    expect(await first.textContent()).to.match(/^PREFIX ex: .* · \d+(\.\d+)? m?s$/);
    expect(Number(await first.getAttribute('data-ms'))).to.be.at.least(0);
    expect(await page.locator('.cm-content').evaluate((e) => (e as HTMLElement).innerText)).to.equal(text);
    // the queries run before the reload are all there
    expect(await page.locator('[data-role=history] option').count()).to.be.at.least(6);
  });

  it('met no script error on the way', () => {
    expect(problems).to.deep.equal([]);
  });
});
