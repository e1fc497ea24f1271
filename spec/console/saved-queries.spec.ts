/**
 * Saved queries in the web console, in headless Chromium: a query saved from the query tab is
 * listed, is there after the page is reloaded (and the role signs in again), opens into the
 * editor, and is listed for another role that may read the store, which cannot save (the
 * endpoint's refusal is shown); a saved query is deleted with two clicks. The panel is the
 * query tab's (console/src/saved.ts, mounted by console/src/query.ts). With
 * QUADLOG_UPDATE_SCREENSHOTS=1 the screenshot of the panel goes to docs/console/.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { ServerConnection } from '../../lib/index.js';
import type { EndpointHandle } from '../../lib/http/index.js';
import { ConsoleRig, watchPage } from './console-rig.js';

const ADMIN = 'admin';
const ADMIN_PASSWORD = 'saved-admin-secret';
const READER = 'reader';
const READER_PASSWORD = 'saved-reader-secret';
const STORE = 'library';
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const QUERY = 'PREFIX ex: <http://example.com/>\nSELECT ?book WHERE { ?book a ex:Book }';

describe('web console: saved queries in headless Chromium', function () {
  this.timeout(120_000);

  let rig: ConsoleRig | undefined;
  let work = '';
  let admin: ServerConnection;
  let endpoint: EndpointHandle;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[] = [];

  before(async function () {
    // the first run on a machine without Chromium installs it (apt-get)
    this.timeout(900_000);
    rig = await ConsoleRig.start({ name: 'console-saved', role: ADMIN, password: ADMIN_PASSWORD });
    ({ work, admin, endpoint, browser, context, page, problems } = rig);
    admin.createDataStore(STORE);
    await admin.createRole(READER, READER_PASSWORD);
    admin.grantPrivileges(READER, '|datastores', 'read');
    admin.grantPrivileges(READER, `|datastores|${STORE}`, 'read');
    admin.createDataStore('elsewhere');
  });

  after(async () => {
    // (the browser's closing closes the contexts the tests opened too)
    await rig?.close();
  });

  const panel = (): ReturnType<Page['locator']> => page.locator(`.store-view[data-store=${STORE}] [data-role=saved-queries-panel]`);
  const savedNames = async (): Promise<string[]> => panel().locator('[data-role=saved-queries] li[data-name]').evaluateAll((items) => items.map((li) => li.getAttribute('data-name') ?? ''));

  /** A new browser context and page (no session of the console from the tests before). */
  async function freshPage(): Promise<void> {
    await context.close();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    watchPage(page, problems);
  }

  /** Loads the console, signs in and opens the store's query tab. */
  async function openStore(role: string, password: string): Promise<void> {
    await page.goto(`${endpoint.url}/console/`);
    await page.fill('[data-role=role]', role);
    await page.fill('[data-role=password]', password);
    await page.click('[data-role=sign-in]');
    await page.waitForSelector(`[data-role=signed-in-as]:has-text("signed in as ${role}")`);
    await page.click(`[data-role=store-list] button[data-store=${STORE}]`);
    await page.waitForSelector(`.store-view[data-store=${STORE}] [data-role=query-panel]`);
    await panel().waitFor();
  }

  /** Replaces the editor's text. */
  async function write(text: string): Promise<void> {
    await page.click(`.store-view[data-store=${STORE}] .cm-content`);
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(text);
  }

  const editorText = (): Promise<string> => page.locator(`.store-view[data-store=${STORE}] .cm-content`).evaluate((e) => (e as HTMLElement).innerText.replace(/\u00a0/g, ' '));

  it('saves the editor’s query under a name; it is listed and kept on the server', async () => {
    await openStore(ADMIN, ADMIN_PASSWORD);
    await panel().locator('[data-role=saved-queries] li.hint').waitFor();
    await write(QUERY);
    await panel().locator('[data-role=saved-query-name]').fill('all books');
    await panel().locator('[data-role=save-query]').click();
    await panel().locator('[data-role=saved-queries] li[data-name="all books"]').waitFor();
    expect(await panel().locator('[data-role=saved-status]').textContent()).to.equal('Saved all books.');
    expect(await panel().locator('li[data-name="all books"]').textContent()).to.contain(ADMIN);
    // the screenshot of docs/console.md, written there with QUADLOG_UPDATE_SCREENSHOTS=1
    const shot = process.env['QUADLOG_UPDATE_SCREENSHOTS'] === '1' ? join(ROOT, 'docs', 'console', 'saved-queries.png') : join(work, 'saved-queries.png');
    await page.screenshot({ path: shot });
    const ds = admin.newDataStoreConnection(STORE);
    try {
      expect((await ds.getSavedQuery('all books')).text).to.equal(QUERY);
    } finally {
      ds.close();
    }
  });

  it('shows the line and column of a query that does not parse, and saves nothing', async () => {
    await write('SELECT ?x WHERE {\n  ?x ?y\n}');
    await panel().locator('[data-role=saved-query-name]').fill('broken');
    await panel().locator('[data-role=save-query]').click();
    await panel().locator('[data-role=saved-status][data-state=error]').waitFor();
    expect(await panel().locator('[data-role=saved-status]').textContent()).to.match(/line 3, column 1/);
    expect(await savedNames()).to.deep.equal(['all books']);
  });

  it('still lists the saved query after a reload, and opens it into the editor', async () => {
    await page.reload();
    await openStore(ADMIN, ADMIN_PASSWORD);
    await panel().locator('[data-role=saved-queries] li[data-name="all books"]').waitFor();
    await write('ASK {}');
    await panel().locator('li[data-name="all books"] [data-role=open-saved-query]').click();
    expect(await editorText()).to.equal(QUERY);
    expect(await panel().locator('[data-role=saved-query-name]').inputValue()).to.equal('all books');
  });

  it('lists it for another role that may read the store, which cannot save (the refusal is shown)', async () => {
    await freshPage();
    await openStore(READER, READER_PASSWORD);
    await panel().locator('[data-role=saved-queries] li[data-name="all books"]').waitFor();
    expect(await panel().locator('li[data-name="all books"]').textContent()).to.contain(ADMIN);
    await panel().locator('li[data-name="all books"] [data-role=open-saved-query]').click();
    expect(await editorText()).to.equal(QUERY);
    await panel().locator('[data-role=saved-query-name]').fill('mine');
    await panel().locator('[data-role=save-query]').click();
    await panel().locator('[data-role=saved-status][data-state=error]').waitFor();
    expect(await panel().locator('[data-role=saved-status]').textContent()).to.contain('AccessDeniedError');
    expect(await savedNames()).to.deep.equal(['all books']);
  });

  it('deletes a saved query with two clicks (the first asks)', async () => {
    await freshPage();
    await openStore(ADMIN, ADMIN_PASSWORD);
    const remove = panel().locator('li[data-name="all books"] [data-role=delete-saved-query]');
    await remove.click();
    expect(await remove.textContent()).to.equal('Delete?');
    expect(await savedNames()).to.deep.equal(['all books']);
    await remove.click();
    await panel().locator('[data-role=saved-queries] li.hint').waitFor();
    expect(await savedNames()).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
  });
});
