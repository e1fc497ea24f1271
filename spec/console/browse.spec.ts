/**
 * The console's store-level features in headless Chromium: a role that sees one store finds it
 * open after sign-in; a click on an IRI of an answer opens it in the Browse tab, with its facts
 * as subject and object marked explicit or derived, "why?" opening the explanation (open at its
 * first levels), and its classes with their instance counts; the store overview's class and
 * property counts; exports of the store and of a named graph hold the bytes the endpoint sends;
 * the guest entry of the sign-in form (only on a server with a guest role); the keyboard help
 * panel; the store types explained where a store is created.
 *
 * Screenshots go to a temporary directory, or to docs/console/ when
 * QUADLOG_UPDATE_SCREENSHOTS=1 (browse.png, overview.png, export.png, help.png).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { Server, type ServerConnection } from '../../lib/index.js';
import { startEndpoint, type EndpointHandle } from '../../lib/http/index.js';
import { consoleBundle } from '../helpers/console-bundle.js';
import { launchChromium } from './browser.js';
import { ConsoleRig, watchPage } from './console-rig.js';
import { SHORTCUTS } from '../../console/src/shortcuts.js';
import { datalogFact, typedIri } from '../../console/src/browse.js';
import { exportFileName, STORE_FORMATS } from '../../console/src/export.js';
import { pictureHeight } from '../../console/src/graph.js';
import { iriOfTitle, type Term } from '../../console/src/terms.js';

const ROLE = 'admin';
const PASSWORD = 'browse-secret-8812';
const EX = 'http://example.com/family#';
const AUTH = `Basic ${Buffer.from(`${ROLE}:${PASSWORD}`).toString('base64')}`;

const DATA = `@prefix ex: <${EX}> .
ex:alice a ex:Person ; ex:parentOf ex:bob ; ex:name "Alice" .
ex:bob a ex:Person ; ex:parentOf ex:carol .
ex:carol a ex:Person .
ex:dan a ex:Person .
ex:rex a ex:Dog .
`;
const PETS = `<${EX}rex> <${EX}ownedBy> <${EX}alice> .\n<${EX}rex> <${EX}age> "3"^^<http://www.w3.org/2001/XMLSchema#integer> .\n`;
const RULES = `@prefix ex: <${EX}> .
[?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] .
[?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .
`;

describe('web console: browsing, export, guest entry and help in headless Chromium', function () {
  this.timeout(120_000);

  let rig: ConsoleRig | undefined;
  let shots = '';
  let admin: ServerConnection;
  let endpoint: EndpointHandle;
  let browser: Browser;
  let page: Page;
  let problems: string[] = [];

  before(async function () {
    this.timeout(900_000);
    rig = await ConsoleRig.start({ name: 'console-browse', role: ROLE, password: PASSWORD, parameters: { 'create-guest-role': 'true' }, context: { acceptDownloads: true } });
    ({ shots, admin, endpoint, browser, page, problems } = rig);
    admin.createDataStore('family');
    const ds = admin.newDataStoreConnection('family');
    try {
      await ds.importData('ADDITION_UPDATE_PREFIXES', DATA, { mediaType: 'text/turtle' });
      await ds.importData('ADD', `<${EX}pets> { ${PETS} }`, { mediaType: 'application/trig' });
      await ds.importData('ADD', RULES, { mediaType: 'application/x.datalog' });
    } finally {
      ds.close();
    }
    admin.grantPrivileges('guest', '|datastores', 'read');
    admin.grantPrivileges('guest', '>datastores', 'read');
  });

  after(async () => {
    await rig?.close();
  });

  async function tab(name: string): Promise<void> {
    await page.click(`.tabs [data-tab=${name}]`);
    await page.waitForSelector(`.tabs [data-tab=${name}][aria-selected=true]`);
  }

  /** The bytes the endpoint answers a GET of `path` with, as the admin role. */
  async function fetched(path: string, accept: string): Promise<Buffer> {
    const response = await fetch(`${endpoint.url}${path}`, { headers: { authorization: AUTH, accept } });
    expect(response.status, path).to.equal(200);
    return Buffer.from(await response.arrayBuffer());
  }

  it('opens the one store the role sees right after sign-in', async () => {
    await page.goto(`${endpoint.url}/console/`);
    await page.fill('[data-role=role]', ROLE);
    await page.fill('[data-role=password]', PASSWORD);
    await page.click('[data-role=sign-in]');
    await page.waitForSelector('.store-view[data-store=family]');
    await page.waitForSelector('[data-role=store-list] button[data-store=family][aria-current=true]');
  });

  it('explains the store types where a store is created', async () => {
    const text = page.locator('[data-role=store-type-text]');
    expect(await text.textContent()).to.contain('default');
    await page.selectOption('[data-role=new-store-type]', 'parallel-ww');
    expect(await text.textContent()).to.contain('wide (64-bit)');
    await page.selectOption('[data-role=new-store-type]', 'parallel-nn');
  });

  it('opens an IRI clicked in a query answer in the Browse tab: its facts, explicit and derived marked, and its classes', async () => {
    await page.waitForSelector('.store-view[data-explanation=present]');
    await page.click('.cm-content');
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('SELECT ?person WHERE { ?person a ex:Person } ORDER BY ?person');
    await page.keyboard.press('Control+Enter');
    const cell = page.locator(`[data-role=answer] td.term-iri[title="<${EX}alice>"]`);
    await cell.waitFor();
    await cell.click();
    await page.waitForSelector('.tabs [data-tab=browse][aria-selected=true]');
    await page.waitForSelector('.browse-iri:has-text("ex:alice")');

    const subject = page.locator('[data-role=browse-facts-subject]');
    await subject.waitFor();
    // every fact of the page gets its mark
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-role=browse-facts-subject] tbody tr')];
      return rows.length > 0 && rows.every((r) => r.hasAttribute('data-kind'));
    });
    const kinds = await subject.locator('tbody tr').evaluateAll((rows) => rows.map((r) => `${r.querySelector('td')?.textContent ?? ''} ${r.querySelectorAll('td')[1]?.textContent ?? ''} ${r.getAttribute('data-kind') ?? ''}`));
    expect(kinds).to.include.members(['ex:parentOf ex:bob explicit', 'ex:ancestorOf ex:bob derived', 'ex:ancestorOf ex:carol derived', 'rdf:type ex:Person explicit', 'ex:name Alice explicit']);
    expect(kinds).to.have.length(5);
    expect(await subject.locator('tr[data-kind=derived] [data-role=why]').count()).to.equal(2);
    expect(await subject.locator('tr[data-kind=explicit] [data-role=why]').count()).to.equal(0);

    // as object: rex owns alice in the named graph pets
    const object = page.locator('[data-role=browse-facts-object]');
    await object.waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-role=browse-facts-object] tbody tr')].every((r) => r.hasAttribute('data-kind')));
    expect(await object.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent).join(' ')))).to.deep.equal(['ex:rex ex:ownedBy ex:pets explicit']);

    // its class, with the number of instances of the class
    const classes = page.locator('[data-role=browse-class-table] tbody tr');
    await classes.first().waitFor();
    expect(await classes.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent).join(' ')))).to.deep.equal(['ex:Person 4']);
    await page.screenshot({ path: join(shots, 'browse.png') });
  });

  it('opens a derived fact’s explanation from “why?”, the tree open at its first levels', async () => {
    const why = page.locator('[data-role=browse-facts-subject] tr[data-kind=derived]:has(td[data-iri$="#carol"]) [data-role=why]');
    await why.click();
    await page.waitForSelector('.tabs [data-tab=explanation][aria-selected=true]');
    expect(await page.inputValue('[data-role=fact]')).to.equal(`[<${EX}alice>, <${EX}ancestorOf>, <${EX}carol>]`);
    const root = page.locator('[data-role=proof] > details.proof-node');
    await root.waitFor();
    expect(await root.getAttribute('open')).to.not.equal(null);
    // the root's rule instance and the derived body fact below it are shown without a click
    const inner = root.locator(':scope > .rule-instance > details.proof-node');
    await inner.waitFor();
    expect(await inner.getAttribute('open')).to.not.equal(null);
    expect(await inner.locator(':scope > summary code').textContent()).to.equal('[ex:alice, ex:ancestorOf, ex:bob]');
  });

  it('browses from IRI to IRI, and shows the store overview with class and property counts', async () => {
    await tab('browse');
    await page.waitForSelector('.browse-iri:has-text("ex:alice")');
    await page.click('[data-role=browse-facts-subject] td[data-iri$="#bob"]');
    await page.waitForSelector('.browse-iri:has-text("ex:bob")');
    // and from the keyboard: Enter on a focused IRI
    await page.waitForSelector('[data-role=browse-facts-subject] td[data-iri$="#carol"]');
    await page.focus('[data-role=browse-facts-subject] td[data-iri$="#carol"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('.browse-iri:has-text("ex:carol")');
    await page.click('[data-role=browse-overview]');
    const classes = page.locator('[data-role=overview-class-table] tbody tr');
    await classes.first().waitFor();
    expect(await classes.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent).join(' ')))).to.deep.equal(['ex:Person 4', 'ex:Dog 1']);
    const properties = page.locator('[data-role=overview-property-table] tbody tr');
    await properties.first().waitFor();
    const counts = await properties.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent).join(' ')));
    expect(counts).to.include.members(['rdf:type 5', 'ex:ancestorOf 3', 'ex:parentOf 2', 'ex:name 1']);
    const graphs = page.locator('[data-role=overview-graph-table] tbody tr');
    await graphs.first().waitFor();
    expect(await graphs.evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent).join(' ')))).to.deep.equal(['ex:pets 2']);
    await page.waitForSelector('[data-role=browse-total]:has-text("11 facts")');
    await page.screenshot({ path: join(shots, 'overview.png') });
    // a class of the overview opens in Browse
    await page.click('[data-role=overview-class-table] td[data-iri$="#Dog"]');
    await page.waitForSelector('.browse-iri:has-text("ex:Dog")');
  });

  it('exports the store as a download holding the bytes the endpoint sends', async () => {
    await tab('export');
    await page.waitForSelector(`[data-role=export-graph] option[value="${EX}pets"]`, { state: 'attached' });
    await page.selectOption('[data-role=export-format]', 'application/n-quads');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-role=export]')]);
    expect(download.suggestedFilename()).to.equal('family.nq');
    const saved = await readFile(await download.path());
    const expected = await fetched('/datastores/family/content?fact-domain=explicit', 'application/n-quads');
    expect(saved.equals(expected)).to.equal(true);
    // explicit facts only: 8 in the default graph, 2 in pets
    expect(saved.toString('utf8').trim().split('\n')).to.have.length(10);
    await page.waitForSelector('[data-role=export-status][data-state=done]');

    // with the derived facts too
    await page.selectOption('[data-role=export-domain]', 'all');
    const [all] = await Promise.all([page.waitForEvent('download'), page.click('[data-role=export]')]);
    const allBytes = await readFile(await all.path());
    expect(allBytes.equals(await fetched('/datastores/family/content?fact-domain=all', 'application/n-quads'))).to.equal(true);
    expect(allBytes.toString('utf8')).to.contain(`<${EX}alice> <${EX}ancestorOf> <${EX}carol> .`);

    // the rules
    await page.selectOption('[data-role=export-format]', 'application/x.datalog');
    const [rules] = await Promise.all([page.waitForEvent('download'), page.click('[data-role=export]')]);
    expect(rules.suggestedFilename()).to.equal('family.dlog');
    expect((await readFile(await rules.path())).equals(await fetched('/datastores/family/content?rule-domain=user', 'application/x.datalog'))).to.equal(true);
  });

  it('exports one named graph', async () => {
    await page.selectOption('[data-role=export-graph]', `${EX}pets`);
    await page.selectOption('[data-role=export-format]', 'application/n-triples');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-role=export]')]);
    await page.waitForSelector('[data-role=export-status][data-state=done]:has-text("family-pets.nt")');
    await page.screenshot({ path: join(shots, 'export.png') });
    expect(download.suggestedFilename()).to.equal('family-pets.nt');
    const saved = await readFile(await download.path());
    const query = encodeURIComponent(`CONSTRUCT { ?s ?p ?o } WHERE { GRAPH <${EX}pets> { ?s ?p ?o } }`);
    expect(saved.equals(await fetched(`/datastores/family/sparql?query=${query}`, 'application/n-triples'))).to.equal(true);
    expect(saved.toString('utf8').trim().split('\n').sort()).to.deep.equal(PETS.trim().split('\n').sort());
  });

  it('lists the keyboard shortcuts in a help panel opened with ? outside text fields and with its button', async () => {
    // in a text field, ? is typed, not a command
    await page.click('[data-role=new-store-name]');
    await page.keyboard.type('?');
    expect(await page.inputValue('[data-role=new-store-name]')).to.equal('?');
    expect(await page.locator('[data-role=help-panel]').isVisible()).to.equal(false);
    await page.fill('[data-role=new-store-name]', '');
    await page.click('.store-view h2');
    await page.keyboard.type('?');
    await page.waitForSelector('[data-role=help-panel][open]');
    const rows = await page.locator('[data-role=help-panel] [data-role=shortcut]').evaluateAll((r) => r.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).to.deep.equal(SHORTCUTS.map((s) => [s.keys, s.action, s.where]));
    await page.screenshot({ path: join(shots, 'help.png') });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-role=help-panel]:not([open])', { state: 'attached' });
    await page.click('[data-role=help]');
    await page.waitForSelector('[data-role=help-panel][open]');
    await page.click('[data-role=help-close]');
    await page.waitForSelector('[data-role=help-panel]:not([open])', { state: 'attached' });
  });

  it('offers a guest entry on a server with a guest role: the guest sees its one store open', async () => {
    const guestContext = await browser.newContext();
    try {
      const guestPage = await guestContext.newPage();
      const guestProblems = watchPage(guestPage);
      const sent: Array<string | undefined> = [];
      guestPage.on('request', (request) => {
        if (request.url().includes('/datastores')) void request.allHeaders().then((headers) => sent.push(headers['authorization']));
      });
      await guestPage.goto(`${endpoint.url}/console/`);
      await guestPage.click('[data-role=sign-in-guest]');
      await guestPage.waitForSelector('[data-role=signed-in-as]:has-text("guest")');
      await guestPage.waitForSelector('.store-view[data-store=family]');
      await guestPage.waitForSelector('[data-role=store-list] button[data-store=family][aria-current=true]');
      expect(sent.length).to.be.greaterThan(0);
      expect(sent.filter((a) => a !== undefined && !a.startsWith('Service '))).to.deep.equal([]);
      expect(guestProblems).to.deep.equal([]);
    } finally {
      await guestContext.close();
    }
  });

  it('met no script error on the way', () => {
    expect(problems).to.deep.equal([]);
  });
});

describe('web console: no guest entry on a server without a guest role', function () {
  this.timeout(120_000);
  let server: Server;
  let endpoint: EndpointHandle;
  let browser: Browser;

  before(async function () {
    this.timeout(900_000);
    await consoleBundle();
    server = await Server.create({ roleName: ROLE, password: PASSWORD, parameters: { 'password-hashing': 'fast' } });
    endpoint = await startEndpoint(server, { port: 0 });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await endpoint?.close();
    await server?.shutdown();
  });

  it('shows the sign-in form without “Continue as guest”', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      // the page asks once whether a request without credentials is refused
      const probed = page.waitForResponse((r) => r.url().endsWith('/datastores') && r.request().headers()['authorization'] === undefined);
      await page.goto(`${endpoint.url}/console/`);
      expect((await probed).status()).to.equal(401);
      await page.waitForSelector('[data-role=sign-in-form]');
      expect(await page.locator('[data-role=sign-in-guest]').count()).to.equal(0);
      // no store: nothing opens after sign-in
      await page.fill('[data-role=role]', ROLE);
      await page.fill('[data-role=password]', PASSWORD);
      await page.click('[data-role=sign-in]');
      await page.waitForSelector('[data-role=store-list] li.hint');
      expect(await page.locator('.store-view').count()).to.equal(0);
    } finally {
      await context.close();
    }
  });
});

describe('console: browse and export helpers (no browser)', () => {
  it('writes facts in the Datalog of the explanation resource, IRIs and literals escaped, none with blank nodes', () => {
    const iri = (value: string): Term => ({ type: 'uri', value });
    expect(datalogFact({ subject: iri(`${EX}a`), predicate: iri(`${EX}p`), object: { type: 'literal', value: 'say "hi"\n', lang: 'en' }, graph: undefined })).to.equal(`[<${EX}a>, <${EX}p>, "say \\"hi\\"\\n"@en]`);
    expect(datalogFact({ subject: iri(`${EX}a`), predicate: iri(`${EX}p`), object: iri('http://x/a b>'), graph: iri(`${EX}g`) })).to.equal(`[<${EX}a>, <${EX}p>, <http://x/a\\u0020b\\u003E>] <${EX}g>`);
    expect(datalogFact({ subject: { type: 'bnode', value: 'b0' }, predicate: iri(`${EX}p`), object: iri(`${EX}a`), graph: undefined })).to.equal(undefined);
  });

  it('reads the IRI a user types: <…>, a prefixed name of the store, a full IRI', () => {
    const prefixes = [{ name: 'ex:', iri: EX }];
    expect(typedIri(' ex:alice ', prefixes)).to.equal(`${EX}alice`);
    expect(typedIri(`<${EX}bob>`, prefixes)).to.equal(`${EX}bob`);
    expect(typedIri('http://example.org/x', prefixes)).to.equal('http://example.org/x');
    expect(typedIri('alice', prefixes)).to.equal(undefined);
    expect(typedIri('', prefixes)).to.equal(undefined);
  });

  it('reads the IRI of an answer cell’s tooltip, and only of an IRI', () => {
    expect(iriOfTitle(`<${EX}alice>`)).to.equal(`${EX}alice`);
    expect(iriOfTitle('"<x>"')).to.equal(undefined);
    expect(iriOfTitle('_:b0')).to.equal(undefined);
  });

  it('names export files after the store and the graph', () => {
    expect(exportFileName('family', undefined, 'trig')).to.equal('family.trig');
    expect(exportFileName('family', `${EX}pets`, 'nt')).to.equal('family-pets.nt');
    expect(exportFileName('my store', 'http://example.com/graphs/2024/', 'ttl')).to.equal('my_store-2024.ttl');
    expect(STORE_FORMATS[0]?.mediaType).to.equal('application/trig');
  });

  it('gives the graph picture the proportions of the window, within bounds', () => {
    expect(pictureHeight(1280, 800)).to.equal(Math.round((900 * 500) / 960));
    expect(pictureHeight(2560, 400)).to.equal(360);
    expect(pictureHeight(500, 3000)).to.equal(900);
  });
});
