/**
 * The web console end to end, in headless Chromium (Debian's `chromium`, driven by
 * playwright-core; spec/helpers/browser.ts installs it when it is missing): sign-in, stores,
 * imports with their notifications, queries paged through a cursor, CONSTRUCT pictures,
 * interruption, updates, the live view of an answer, rules, prefixes, properties, sign-out,
 * and what the browser keeps (nothing another site could reuse).
 *
 * The tests of the first `describe` follow one another on one page, as a person would work.
 * Nothing waits for a time: every step waits for what the page shows. Screenshots of the main
 * screens go to a temporary directory, or to docs/console/ when QUADLOG_UPDATE_SCREENSHOTS=1
 * (`npm run console:screenshots`).
 */
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ConnectionFactory, Server, type ServerConnection } from '../../lib/index.js';
import { createRequestHandler, startEndpoint, type EndpointHandle, type RequestHandler } from '../../lib/http/index.js';
import { consoleBundle } from '../helpers/console-bundle.js';
import { launchChromium } from './browser.js';
import { listen, type Listening } from '../helpers/listen.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ROLE = 'admin';
const PASSWORD = 'console-secret-4711';
const EX = 'http://example.com/family#';

/** Where screenshots go: docs/console/ when asked for, else a temporary directory. */
function screenshotDirectory(work: string): string {
  return process.env['QUADLOG_UPDATE_SCREENSHOTS'] === '1' ? join(ROOT, 'docs', 'console') : join(work, 'screenshots');
}

/** Records CSP violations (an init script runs before the page's own, whatever its CSP). */
const VIOLATION_RECORDER = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push(e.violatedDirective + ' ' + (e.sourceFile || '') + ':' + e.lineNumber + ' ' + (e.sample || ''));
  });
`;

/** What went wrong in a page: uncaught errors and console errors other than failed loads. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // a request answered with an error status is logged by Chromium; those are expected here
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  return problems;
}

async function violations(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('window.__violations || []');
}

describe('web console: end to end in headless Chromium', function () {
  this.timeout(120_000);

  let work = '';
  let shots = '';
  let server: Server;
  let admin: ServerConnection;
  let endpoint: EndpointHandle;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];
  const sentHeaders: Array<{ url: string; headers: Record<string, string> }> = [];

  before(async function () {
    // the first run on a machine without Chromium installs it (apt-get)
    this.timeout(900_000);
    work = await mkdtemp(join(tmpdir(), 'quadlog-console-e2e-'));
    shots = screenshotDirectory(work);
    await mkdir(shots, { recursive: true });
    await consoleBundle();
    server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
    admin = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
    endpoint = await startEndpoint(server, { port: 0 });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 820 } });
    page = await context.newPage();
    await page.addInitScript({ content: VIOLATION_RECORDER });
    problems = watch(page);
    page.on('request', (request) => {
      void request.allHeaders().then((headers) => sentHeaders.push({ url: request.url(), headers }));
    });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await endpoint?.close();
    admin?.close();
    await server?.shutdown();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const status = (): ReturnType<Page['locator']> => page.locator('[data-role=query-panel] [data-role=status]');

  /** The outcome number of the query status now (the next outcome is one more). */
  async function outcome(): Promise<number> {
    return Number(await status().getAttribute('data-seq'));
  }

  /** Replaces the editor's text. */
  async function write(text: string): Promise<void> {
    await page.click('.cm-content');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  /** Runs the editor's text with Ctrl-Enter and waits for its outcome; returns the status text. */
  async function run(text: string, state: 'done' | 'error' = 'done'): Promise<string> {
    await write(text);
    const seq = await outcome();
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector(`[data-role=query-panel] [data-role=status][data-seq="${seq + 1}"]`);
    const shown = (await status().textContent()) ?? '';
    expect(await status().getAttribute('data-state'), shown).to.equal(state);
    return shown;
  }

  /** Clicks a pager button and waits for the page that starts at `first`. */
  async function turn(button: 'next' | 'previous' | 'first', first: number): Promise<void> {
    const seq = await outcome();
    await page.click(`[data-role=${button}]`);
    await page.waitForSelector(`[data-role=query-panel] [data-role=status][data-seq="${seq + 1}"]`);
    await page.waitForSelector(`[data-role=range][data-first="${first}"]`);
  }

  async function tab(name: string): Promise<void> {
    await page.click(`.tabs [data-tab=${name}]`);
    await page.waitForSelector(`.tabs [data-tab=${name}][aria-selected=true]`);
  }

  async function facts(store: string, query: string): Promise<string[]> {
    const ds = admin.newDataStoreConnection(store);
    try {
      const answer = await ds.evaluateQuery(query);
      return answer.type === 'bindings' ? answer.rows.map((r) => r.map((t) => t?.value ?? '').join(' ')) : [];
    } finally {
      ds.close();
    }
  }

  it('serves the page with its Content-Security-Policy and shows the sign-in form', async () => {
    const response = await page.goto(`${endpoint.url}/console/`);
    expect(response?.status()).to.equal(200);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).to.contain("default-src 'none'");
    expect(csp).to.contain("script-src 'self'");
    expect(csp).to.contain("connect-src 'self'");
    await page.waitForSelector('[data-role=sign-in-form]');
    await page.screenshot({ path: join(shots, 'sign-in.png') });
  });

  it('refuses a wrong password', async () => {
    await page.fill('[data-role=role]', ROLE);
    await page.fill('[data-role=password]', 'not-the-password');
    await page.click('[data-role=sign-in]');
    await page.waitForSelector('[data-role=sign-in-error]:has-text("Wrong role name or password")');
  });

  it('signs in with a role and password', async () => {
    await page.fill('[data-role=role]', ROLE);
    await page.fill('[data-role=password]', PASSWORD);
    await page.click('[data-role=sign-in]');
    await page.waitForSelector(`[data-role=signed-in-as]:has-text("signed in as ${ROLE}")`);
  });

  it('creates a store', async () => {
    await page.fill('[data-role=new-store-name]', 'family');
    await page.click('[data-role=create-store]');
    await page.waitForSelector('.store-view[data-store=family]');
    await page.waitForSelector('[data-role=store-list] button[data-store=family][aria-current=true]');
    expect(admin.listDataStores()).to.include('family');
  });

  it('imports a Turtle file with an error, showing the error with its line; nothing is imported', async () => {
    const bad = join(work, 'bad.ttl');
    await writeFile(bad, [`@prefix ex: <${EX}> .`, 'ex:alice ex:parentOf ex:bob .', 'ex:bob ex:parentOf ex:carol ex:dave .', 'ex:carol ex:parentOf ex:dan .', ''].join('\n'));
    await tab('import');
    await page.setInputFiles('[data-role=file-input]', bad);
    const entry = page.locator('li.import[data-file="bad.ttl"][data-state=failed]');
    await entry.waitFor();
    expect(await entry.locator('[data-role=import-status]').textContent()).to.match(/failed: 1 error/);
    const error = entry.locator('tr[data-type=error]').first();
    expect(await error.locator('[data-role=line]').textContent()).to.equal('3');
    expect(Number(await error.locator('[data-role=column]').textContent())).to.be.above(0);
    await page.screenshot({ path: join(shots, 'import.png') });
    expect(await facts('family', 'SELECT * WHERE { ?s ?p ?o }')).to.deep.equal([]);
  });

  it('imports facts, 10,000 more facts and rules from chosen files, with progress and summaries', async () => {
    const family = join(work, 'family.ttl');
    const many = join(work, 'values.ttl');
    const rules = join(work, 'family.dlog');
    await writeFile(family, [`@prefix ex: <${EX}> .`, 'ex:alice ex:parentOf ex:bob .', 'ex:bob ex:parentOf ex:carol .', 'ex:carol ex:parentOf ex:dan .', 'ex:bob ex:name "Bob"@en .', ''].join('\n'));
    const lines = [`@prefix ex: <${EX}> .`];
    for (let i = 1; i <= 10_000; i++) lines.push(`ex:n${String(i).padStart(5, '0')} ex:value ${i} .`);
    await writeFile(many, `${lines.join('\n')}\n`);
    await writeFile(rules, [`@prefix ex: <${EX}> .`, '[?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] .', '[?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .', ''].join('\n'));
    await page.setInputFiles('[data-role=file-input]', [family, many, rules]);
    for (const name of ['family.ttl', 'values.ttl', 'family.dlog']) {
      const entry = page.locator(`li.import[data-file="${name}"][data-state=done]`);
      await entry.waitFor();
      expect(await entry.locator('progress').evaluate((p: HTMLProgressElement) => p.value)).to.equal(1);
    }
    expect(await page.locator('li.import[data-file="values.ttl"] [data-role=import-status]').textContent()).to.contain('10000 facts');
    expect(await page.locator('li.import[data-file="family.dlog"] [data-role=import-status]').textContent()).to.contain('2 rules');
    expect(await facts('family', `SELECT ?d WHERE { <${EX}alice> <${EX}ancestorOf> ?d }`)).to.have.members([`${EX}bob`, `${EX}carol`, `${EX}dan`]);
  });

  it('offers the store’s prefixes as completions in the editor', async () => {
    await tab('query');
    await write('SELECT * WHERE { ?s ');
    await page.keyboard.type('e');
    await page.waitForSelector('.cm-tooltip-autocomplete li:has-text("ex:")');
    await page.keyboard.press('Escape');
  });

  it('runs a query, showing IRIs shortened by the prefixes and the time taken', async () => {
    const shown = await run('SELECT ?person ?descendant WHERE { ?person ex:ancestorOf ?descendant } ORDER BY ?person ?descendant');
    expect(shown).to.match(/Rows 1–6 of 6 · first page in \d+(\.\d+)? m?s/);
    const first = page.locator('table[data-role=answer] tbody tr').first();
    expect(await first.locator('td').nth(1).textContent()).to.equal('ex:alice');
    expect(await first.locator('td').nth(1).getAttribute('title')).to.equal(`<${EX}alice>`);
    await page.screenshot({ path: join(shots, 'query.png') });
  });

  it('pages through 10,000 answers a page at a time, never holding more than a page', async () => {
    await page.selectOption('[data-role=page-size]', '1000');
    await run('SELECT ?n ?v WHERE { ?n ex:value ?v } ORDER BY ?v');
    const rows = page.locator('table[data-role=answer] tbody tr');
    await page.waitForSelector('[data-role=range][data-first="1"][data-last="1000"][data-more=true]');
    expect(await rows.count()).to.equal(1000);
    expect(await rows.first().locator('td').nth(1).textContent()).to.equal('ex:n00001');
    for (let first = 1001; first <= 9001; first += 1000) {
      await turn('next', first);
      expect(await rows.count()).to.equal(1000);
      expect(await rows.first().locator('td').nth(0).textContent()).to.equal(String(first));
    }
    await page.waitForSelector('[data-role=range][data-first="9001"][data-last="10000"][data-more=false]');
    expect(await page.locator('[data-role=range]').textContent()).to.equal('Rows 9001–10000 of 10000');
    expect(await rows.last().locator('td').nth(1).textContent()).to.equal('ex:n10000');
    expect(await page.locator('[data-role=next]').isDisabled()).to.equal(true);
    await turn('previous', 8001);
    expect(await rows.first().locator('td').nth(2).textContent()).to.match(/^8001/);
    await turn('first', 1);
    await turn('next', 1001);
    expect(await rows.count()).to.equal(1000);
    await page.selectOption('[data-role=page-size]', '100');
  });

  it('goes back past the pages it keeps by reading the cursor again from the start', async () => {
    await run('SELECT ?n ?v WHERE { ?n ex:value ?v } ORDER BY ?v');
    const rows = page.locator('table[data-role=answer] tbody tr');
    for (let first = 101; first <= 1101; first += 100) await turn('next', first);
    // the ten pages read last are kept; the tenth step back needs the cursor opened again
    for (let first = 1001; first >= 101; first -= 100) await turn('previous', first);
    expect(await rows.count()).to.equal(100);
    expect(await rows.first().locator('td').nth(1).textContent()).to.equal('ex:n00101');
    await turn('next', 201);
    expect(await rows.first().locator('td').nth(1).textContent()).to.equal('ex:n00201');
    await turn('next', 301);
    expect(await rows.last().locator('td').nth(1).textContent()).to.equal('ex:n00400');
  });

  it('shows CONSTRUCT answers as a table of triples and as a node-link picture', async () => {
    await run('CONSTRUCT { ?x ex:ancestorOf ?y } WHERE { ?x ex:ancestorOf ?y }');
    expect(await page.locator('table[data-role=answer] tbody tr').count()).to.equal(6);
    expect(await page.locator('table[data-role=answer] thead th').allTextContents()).to.deep.equal(['#', '?subject', '?predicate', '?object']);
    await page.click('[data-role=view-graph]');
    await page.waitForSelector('svg.graph');
    expect(await page.locator('svg.graph g.node').count()).to.equal(4);
    expect(await page.locator('svg.graph g.edge').count()).to.equal(6);
    expect(await page.locator('svg.graph g.node text').allTextContents()).to.include.members(['ex:alice', 'ex:dan']);
    await page.screenshot({ path: join(shots, 'graph.png'), fullPage: true });
    await page.click('[data-role=view-table]');
  });

  it('stops a long query with the Stop button', async () => {
    // 10^12 combinations: it would run for hours
    await write('SELECT (COUNT(*) AS ?n) WHERE { ?a ex:value ?b . ?c ex:value ?d . ?e ex:value ?f }');
    const seq = await outcome();
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('[data-role=query-panel] [data-role=status][data-state=running]');
    // wait until the endpoint is evaluating it (the cursor's PATCH is a running request)
    const running = async (): Promise<boolean> => {
      const res = await fetch(`${endpoint.url}/requests`, { headers: { authorization: `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`, accept: 'text/csv' } });
      return /PATCH,[^\n]*cursors/.test(await res.text());
    };
    while (!(await running())) await new Promise((r) => setImmediate(r));
    await page.click('[data-role=stop]');
    await page.waitForSelector(`[data-role=query-panel] [data-role=status][data-seq="${seq + 1}"]`);
    expect(await status().getAttribute('data-state')).to.equal('stopped');
    expect(await status().textContent()).to.match(/^Stopped after/);
    while (await running()) await new Promise((r) => setImmediate(r));
    expect(await page.locator('[data-role=stop]').isDisabled()).to.equal(true);
  });

  it('runs an update, whose consequences the rules derive', async () => {
    expect(await run('INSERT DATA { ex:zoe ex:parentOf ex:alice }')).to.match(/^Update done in/);
    expect(await facts('family', `SELECT ?d WHERE { <${EX}zoe> <${EX}ancestorOf> ?d }`)).to.have.length(4);
    expect(await run('SELECT ?d WHERE { ex:zoe ex:ancestorOf ?d }')).to.match(/^Rows 1–4 of 4/);
  });

  it('shows a query’s error', async () => {
    expect(await run('SELECT ?x WHERE { ?x', 'error')).to.match(/40\d|Error/);
  });

  it('keeps a query history in the tab’s session', async () => {
    const options = await page.locator('[data-role=history] option').allTextContents();
    expect(options[0]).to.match(/^History \(\d+\)$/);
    expect(options.some((o) => o.startsWith('INSERT DATA { ex:zoe'))).to.equal(true);
  });

  it('follows a SELECT answer live: a commit elsewhere adds a highlighted row, a deletion strikes it out and removes it', async () => {
    const streams = async (): Promise<boolean> => {
      const res = await fetch(`${endpoint.url}/requests`, { headers: { authorization: `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`, accept: 'text/csv' } });
      return /GET,[^\n]*sparql/.test(await res.text());
    };
    const head = page.locator('[data-role=live-status]');
    const rows = page.locator('table[data-role=live-answer] tbody tr');
    await write('SELECT ?person WHERE { ?person ex:ancestorOf ex:dan }');
    await page.click('[data-role=live]');
    await page.waitForSelector('[data-role=live][aria-pressed=true]');
    await page.waitForSelector('[data-role=live-status][data-rows="4"]');
    await page.waitForSelector('[data-role=query-panel] [data-role=status][data-state=live]');
    expect((await rows.allTextContents()).sort()).to.deep.equal(['ex:alice', 'ex:bob', 'ex:carol', 'ex:zoe']);
    const first = Number(await head.getAttribute('data-version'));
    const writer = admin.newDataStoreConnection('family');
    try {
      // a commit from another connection: the rules derive that eve is an ancestor of dan
      await writer.importData('ADD', `<${EX}eve> <${EX}parentOf> <${EX}zoe> .`);
      await page.waitForSelector('table[data-role=live-answer] tr[data-live=added]:has-text("ex:eve")');
      await page.waitForSelector('[data-role=live-status][data-rows="5"]');
      expect(Number(await head.getAttribute('data-version'))).to.equal(first + 1);
      expect(await page.locator('[data-role=live-notice]').isHidden()).to.equal(true);
      await page.screenshot({ path: join(shots, 'live.png') });
      await writer.importData('DELETE', `<${EX}eve> <${EX}parentOf> <${EX}zoe> .`);
      await page.waitForSelector('table[data-role=live-answer] tr[data-live=removed]:has-text("ex:eve")');
      await page.waitForSelector('table[data-role=live-answer] tr:has-text("ex:eve")', { state: 'detached' });
      await page.waitForSelector('[data-role=live-status][data-rows="4"]');
      expect(Number(await head.getAttribute('data-version'))).to.equal(first + 2);
      expect((await rows.allTextContents()).sort()).to.deep.equal(['ex:alice', 'ex:bob', 'ex:carol', 'ex:zoe']);
    } finally {
      writer.close();
    }
    // toggled off: the stream ends at the endpoint
    await page.click('[data-role=live]');
    await page.waitForSelector('[data-role=live][aria-pressed=false]');
    expect(await status().getAttribute('data-state')).to.equal('stopped');
    expect(await status().textContent()).to.equal(`Live answer stopped at version ${first + 2}.`);
    while (await streams()) await new Promise((r) => setTimeout(r, 10));
    // leaving the query tab stops it too
    await page.click('[data-role=live]');
    await page.waitForSelector('[data-role=query-panel] [data-role=status][data-state=live]');
    expect(await streams()).to.equal(true);
    await tab('rules');
    await tab('query');
    await page.waitForSelector('[data-role=live][aria-pressed=false]');
    while (await streams()) await new Promise((r) => setTimeout(r, 10));
    // only SELECT queries are followed
    await write('ASK { ex:alice ex:ancestorOf ex:dan }');
    await page.click('[data-role=live]');
    await page.waitForSelector('[data-role=query-panel] [data-role=status][data-state=error]:has-text("Live answers are for SELECT queries")');
    expect(await page.locator('[data-role=live]').getAttribute('aria-pressed')).to.equal('false');
  });

  it('lists the rules and the rules from axioms', async () => {
    await tab('rules');
    const pre = page.locator('[data-role=rules-user] pre');
    await pre.waitFor();
    expect(await pre.textContent()).to.contain('ancestorOf');
    await page.waitForSelector('[data-role=rules-axioms]');
  });

  it('edits prefixes in place', async () => {
    await tab('prefixes');
    const added = page.locator('[data-role=prefixes] tr[data-prefix=""]');
    await added.locator('[data-role=prefix-name]').fill('schema:');
    await added.locator('[data-role=prefix-iri]').fill('http://schema.org/');
    await added.locator('[data-role=prefix-add]').click();
    const row = page.locator('[data-role=prefixes] tr[data-prefix="schema:"]');
    await row.waitFor();
    const prefixesNow = async (): Promise<ReadonlyMap<string, string>> => {
      const ds = admin.newDataStoreConnection('family');
      try {
        return await ds.getPrefixes();
      } finally {
        ds.close();
      }
    };
    expect((await prefixesNow()).get('schema:')).to.equal('http://schema.org/');
    const name = row.locator('[data-role=prefix-name]');
    await name.fill('sdo:');
    await name.press('Enter');
    await page.waitForSelector('[data-role=prefixes] tr[data-prefix="sdo:"]');
    const prefixes = await prefixesNow();
    expect(prefixes.get('sdo:')).to.equal('http://schema.org/');
    expect(prefixes.has('schema:')).to.equal(false);
    await page.screenshot({ path: join(shots, 'prefixes.png') });
  });

  it('shows the explanation tab only when the endpoint explains facts', async () => {
    const probe = await fetch(`${endpoint.url}/datastores/family/explanation`, { headers: { authorization: `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}` } });
    await page.waitForSelector('.store-view[data-explanation]');
    const present = await page.locator('.store-view').getAttribute('data-explanation');
    if (probe.status === 501) {
      expect(present).to.equal('absent');
      expect(await page.locator('.tabs [data-tab=explanation]').count()).to.equal(0);
    } else {
      expect(present).to.equal('present');
      expect(await page.locator('.tabs [data-tab=explanation]').count()).to.equal(1);
    }
  });

  it('explains a derived fact as a proof tree of grounded rule instances', async () => {
    await tab('explanation');
    await page.fill('[data-role=fact]', '[ex:alice, ex:ancestorOf, ex:dan]');
    await page.click('.explanation-panel button[type=submit]');
    const root = page.locator('[data-role=proof] > details.proof-node');
    await root.waitFor();
    const summary = root.locator(':scope > summary');
    expect(await summary.textContent()).to.contain('[ex:alice, ex:ancestorOf, ex:dan]').and.contain('derived');
    // the tree opens at its first levels: the root's rule instance shows without a click
    expect(await root.getAttribute('open')).to.not.equal(null);
    const rule = root.locator(':scope > .rule-instance > .rule').first();
    await rule.waitFor();
    expect(await rule.textContent()).to.contain('[ex:alice, ex:ancestorOf, ex:dan] :- [ex:alice, ex:ancestorOf, ex:carol], [ex:carol, ex:parentOf, ex:dan] .');
    expect(await root.locator(':scope > .rule-instance > .proof-leaf code').allTextContents()).to.include('[ex:carol, ex:parentOf, ex:dan]');
    expect(await root.locator(':scope > .rule-instance > details.proof-node > summary code').allTextContents()).to.include('[ex:alice, ex:ancestorOf, ex:carol]');
    await page.screenshot({ path: join(shots, 'explanation.png') });
  });

  it('validates a graph with SHACL and shows the results', async () => {
    const ds = admin.newDataStoreConnection('family');
    try {
      await ds.importData('ADD', `@prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <${EX}> .
        ex:ParentShape sh:targetSubjectsOf ex:parentOf ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .`, { defaultGraph: `${EX}shapes` });
    } finally {
      ds.close();
    }
    await page.waitForSelector('.store-view[data-shacl=present]');
    await tab('shacl');
    await page.fill('[data-role=shapes-graph]', `${EX}shapes`);
    await page.click('.shacl-panel button[type=submit]');
    const verdict = page.locator('[data-role=shacl-verdict]');
    await verdict.waitFor();
    expect(await verdict.getAttribute('data-conforms')).to.equal('false');
    const rows = page.locator('[data-role=shacl-results] tbody tr');
    expect(await rows.count()).to.be.greaterThan(0);
    const first = await rows.first().locator('td').allTextContents();
    expect(first[0]).to.match(/^<http:\/\/example\.com\/family#/);
    expect(first[1]).to.equal(`<${EX}name>`);
    expect(first[3]).to.equal('sh:MinCountConstraintComponent');
    expect(first[5]).to.equal('sh:Violation');
    await page.screenshot({ path: join(shots, 'shacl.png') });
    // the default graph holds no shapes: it conforms
    await page.fill('[data-role=shapes-graph]', '');
    await page.click('.shacl-panel button[type=submit]');
    await page.waitForSelector('[data-role=shacl-verdict][data-conforms=true]');
  });

  it('shows a store’s properties and deletes a store', async () => {
    await page.fill('[data-role=new-store-name]', 'scratch');
    await page.click('[data-role=create-store]');
    await page.waitForSelector('.store-view[data-store=scratch]');
    await tab('properties');
    await page.waitForSelector('[data-role=properties] th:has-text("name")');
    await page.screenshot({ path: join(shots, 'properties.png') });
    await page.click('[data-role=delete-store]');
    await page.click('[data-role=confirm-delete]');
    await page.waitForSelector('.main .empty:has-text("Deleted scratch")');
    await page.waitForSelector('[data-role=store-list] button[data-store=family]');
    expect(await page.locator('[data-role=store-list] button[data-store=scratch]').count()).to.equal(0);
    expect(admin.listDataStores()).not.to.include('scratch');
  });

  it('keeps no credentials where the browser would send them by itself', async () => {
    expect(await context.cookies()).to.deep.equal([]);
    expect(await page.evaluate('document.cookie')).to.equal('');
    expect(await page.evaluate('localStorage.length')).to.equal(0);
    const session = await page.evaluate<string>('JSON.stringify(sessionStorage)');
    expect(session).not.to.contain(PASSWORD);
    expect(session).not.to.contain(Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64'));
    // the console's own requests: credentials stated by the page, never a cookie
    expect(sentHeaders.length).to.be.above(20);
    for (const { url, headers } of sentHeaders) {
      expect(headers, url).not.to.have.property('cookie');
      // (headers of a request still running when listed may lack those the network adds)
      if (headers['authorization'] !== undefined && headers['sec-fetch-site'] !== undefined) expect(headers['sec-fetch-site'], url).to.equal('same-origin');
    }
    // a request the browser sends by itself, with whatever it holds for the origin, carries nothing
    const other = await context.newPage();
    try {
      const response = await other.goto(`${endpoint.url}/console/licenses.txt`);
      expect(response?.status()).to.equal(200);
      const headers = await response!.request().allHeaders();
      expect(headers).not.to.have.property('authorization');
      expect(headers).not.to.have.property('cookie');
    } finally {
      await other.close();
    }
  });

  it('signs out: back to the sign-in form, the history cleared', async () => {
    await page.click('[data-role=sign-out]');
    await page.waitForSelector('[data-role=sign-in-form]');
    expect(await page.evaluate('sessionStorage.length')).to.equal(0);
    expect(await page.locator('[data-role=signed-in-as]').count()).to.equal(0);
  });

  it('met no CSP violation and no script error on the way', async () => {
    expect(await violations(page)).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });
});

describe('web console: what another site can do through the browser', function () {
  this.timeout(120_000);

  let work = '';
  let server: Server;
  let admin: ServerConnection;
  let handler: RequestHandler;
  let api: Listening;
  let evil: Listening;
  let browser: Browser;
  const received: Array<{ method: string; url: string; headers: Record<string, string | string[] | undefined> }> = [];
  /** What the other site's page could do, as it reported it. */
  let report: Record<string, string> | undefined;

  before(async function () {
    this.timeout(900_000);
    work = await mkdtemp(join(tmpdir(), 'quadlog-console-xsite-'));
    await consoleBundle();
    server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
    admin = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
    admin.createDataStore('kept');
    // the interface mounted under /kg of a server of our own, which records what arrives
    handler = createRequestHandler(server, { prefix: '/kg' });
    api = await listen((req, res) => {
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      handler(req, res);
    });
    const target = `${api.url}/kg`;
    // another site (localhost is another site than 127.0.0.1) whose page tries to use the endpoint
    const page = `<!doctype html><title>other site</title><body><script>
      (async () => {
        const results = {};
        try { const r = await fetch(${JSON.stringify(target)} + '/datastores', { credentials: 'include' }); results.read = 'read ' + r.status; }
        catch (e) { results.read = 'blocked'; }
        try { await fetch(${JSON.stringify(target)} + '/datastores/evil-fetch?type=parallel-nn', { method: 'POST', mode: 'no-cors', credentials: 'include' }); results.write = 'sent'; }
        catch (e) { results.write = 'failed'; }
        await fetch('/report', { method: 'POST', body: JSON.stringify(results) });
        const form = document.createElement('form');
        form.method = 'POST';
        form.action = ${JSON.stringify(target)} + '/datastores/evil-form?type=parallel-nn';
        document.body.append(form);
        form.submit();
      })();
    </script></body>`;
    evil = await listen((req, res) => {
      if (req.url === '/report') {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          report = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
          res.writeHead(204).end();
        });
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8' });
      res.end(page);
    });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await evil?.close();
    await api?.close();
    await handler?.close();
    admin?.close();
    await server?.shutdown();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('signs in to the console under a prefix, and another site’s requests then carry no credentials and change nothing', async () => {
    const context = await browser.newContext();
    try {
      const consolePage = await context.newPage();
      await consolePage.goto(`${api.url}/kg/console/`);
      await consolePage.fill('[data-role=role]', ROLE);
      await consolePage.fill('[data-role=password]', PASSWORD);
      await consolePage.click('[data-role=sign-in]');
      await consolePage.waitForSelector('[data-role=store-list] button[data-store=kept]');
      expect(received.some((r) => r.url.startsWith('/kg/datastores') && r.headers['authorization'] !== undefined)).to.equal(true);

      const port = new URL(evil.url).port;
      const other = await context.newPage();
      await other.goto(`http://localhost:${port}/`);
      // the page reports, then its form's POST navigates away (and fails: 401); wait until it has arrived
      while (!received.some((r) => r.url.includes('evil-form'))) await new Promise((r) => setImmediate(r));
      // it could not read the answer (no CORS grant), and its requests were sent without credentials
      expect(report).to.deep.equal({ read: 'blocked', write: 'sent' });
      const crossSite = received.filter((r) => r.headers['sec-fetch-site'] === 'cross-site');
      expect(crossSite.map((r) => `${r.method} ${r.url}`)).to.include.members(['GET /kg/datastores', 'POST /kg/datastores/evil-fetch?type=parallel-nn', 'POST /kg/datastores/evil-form?type=parallel-nn']);
      for (const r of crossSite) {
        expect(r.headers, r.url).not.to.have.property('authorization');
        expect(r.headers, r.url).not.to.have.property('cookie');
      }
      expect(admin.listDataStores()).to.deep.equal(['kept']);
      // the console page is still signed in: its credentials were never the browser's
      await consolePage.click('[data-store=kept]');
      await consolePage.waitForSelector('.store-view[data-store=kept]');
    } finally {
      await context.close();
    }
  });

  it('grants no other origin a CORS read, not even on a preflight', async () => {
    const preflight = await fetch(`${api.url}/kg/datastores`, { method: 'OPTIONS', headers: { origin: 'http://localhost:1', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(null);
    expect(preflight.headers.get('access-control-allow-headers')).to.equal(null);
    const page = await fetch(`${api.url}/kg/console/`, { headers: { origin: 'http://localhost:1' } });
    expect(page.headers.get('access-control-allow-origin')).to.equal(null);
    expect(page.headers.get('set-cookie')).to.equal(null);
  });
});

describe('web console: variant A of the interface', function () {
  this.timeout(120_000);

  let server: Server;
  let endpoint: EndpointHandle;
  let browser: Browser;

  before(async function () {
    this.timeout(900_000);
    await consoleBundle();
    server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
    const admin = await ConnectionFactory.newServerConnection(server.url, ROLE, PASSWORD);
    try {
      admin.createDataStore('numbers');
      const ds = admin.newDataStoreConnection('numbers');
      const lines: string[] = [];
      for (let i = 0; i < 300; i++) lines.push(`<${EX}n${i}> <${EX}value> ${i} .`);
      await ds.importData('ADD', lines.join('\n'));
      ds.close();
    } finally {
      admin.close();
    }
    endpoint = await startEndpoint(server, { port: 0, variant: 'A' });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await endpoint?.close();
    await server?.shutdown();
  });

  it('stops a long query by interrupting its connection (there is no /requests in variant A)', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(`${endpoint.url}/console/`);
      await page.fill('[data-role=role]', ROLE);
      await page.fill('[data-role=password]', PASSWORD);
      await page.click('[data-role=sign-in]');
      await page.click('[data-role=store-list] button[data-store=numbers]');
      await page.waitForSelector('.store-view[data-store=numbers]');
      await page.click('.cm-content');
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(`SELECT (COUNT(*) AS ?n) WHERE { ?a <${EX}value> ?b . ?c <${EX}value> ?d . ?e <${EX}value> ?f }`);
      const opened = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('operation=open'));
      await page.keyboard.press('Control+Enter');
      await page.waitForSelector('[data-role=status][data-state=running]');
      await opened;
      const interrupted = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('operation=interrupt'));
      await page.click('[data-role=stop]');
      await interrupted;
      await page.waitForSelector('[data-role=status][data-state=stopped]');
      expect(await page.locator('[data-role=status]').textContent()).to.match(/^Stopped after/);
      expect(problems).to.deep.equal([]);
    } finally {
      await context.close();
    }
  });
});
