/**
 * Test helper: what the Chromium specs of the console set up alike. A server with an admin
 * role, the console's bundle, an HTTP endpoint on an ephemeral port, a browser page of
 * 1280×800, a fresh work directory, where screenshots go, and the page's problems (uncaught
 * errors, and console errors other than failed loads).
 * @module
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { ConnectionFactory, Server, type ServerConnection } from '../../lib/index.js';
import { startEndpoint, type EndpointHandle } from '../../lib/http/index.js';
import { consoleBundle } from '../helpers/console-bundle.js';
import { launchChromium } from './browser.js';

/** The repository's root. */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Collects what goes wrong in `page` into `problems`: uncaught errors, and console errors other than failed loads. */
export function watchPage(page: Page, problems: string[] = []): string[] {
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Where screenshots go: docs/console/ with QUADLOG_UPDATE_SCREENSHOTS=1, else the work directory. */
export function screenshotDirectory(work: string): string {
  return process.env['QUADLOG_UPDATE_SCREENSHOTS'] === '1' ? join(ROOT, 'docs', 'console') : join(work, 'screenshots');
}

/** How a {@link ConsoleRig} starts. */
export interface ConsoleRigOptions {
  /** The prefix of the work directory's name. */
  readonly name: string;
  /** The admin role and its password. */
  readonly role: string;
  readonly password: string;
  /** Server parameters besides fast password hashing. */
  readonly parameters?: Readonly<Record<string, string>>;
  /** Options of the browser context besides the viewport. */
  readonly context?: BrowserContextOptions;
}

/** A running server, endpoint and browser page for one spec. */
export class ConsoleRig {
  private constructor(
    /** The work directory (removed by close). */
    readonly work: string,
    /** Where screenshots go (made). */
    readonly shots: string,
    /** The server. */
    readonly server: Server,
    /** A connection of the admin role. */
    readonly admin: ServerConnection,
    /** The endpoint serving the console. */
    readonly endpoint: EndpointHandle,
    /** The browser. */
    readonly browser: Browser,
    /** The browser context. */
    readonly context: BrowserContext,
    /** The page. */
    readonly page: Page,
    /** The page's problems so far. */
    readonly problems: string[],
  ) {}

  /** Starts everything (a first run on a machine without Chromium installs it: give the hook time). */
  static async start(options: ConsoleRigOptions): Promise<ConsoleRig> {
    const work = await mkdtemp(join(tmpdir(), `quadlog-${options.name}-`));
    const shots = screenshotDirectory(work);
    await mkdir(shots, { recursive: true });
    await consoleBundle();
    const server = await Server.create({ roleName: options.role, password: options.password, parameters: { 'password-hashing': 'fast', ...options.parameters } });
    const admin = await ConnectionFactory.newServerConnection(server.url, options.role, options.password);
    const endpoint = await startEndpoint(server, { port: 0 });
    const browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options.context });
    const page = await context.newPage();
    return new ConsoleRig(work, shots, server, admin, endpoint, browser, context, page, watchPage(page));
  }

  /** Stops everything and removes the work directory. */
  async close(): Promise<void> {
    await this.context.close();
    await this.browser.close();
    await this.endpoint.close();
    this.admin.close();
    await this.server.shutdown();
    await rm(this.work, { recursive: true, force: true });
  }
}
