/**
 * RDF 1.2 terms in a server directory: facts holding triple terms (nested ones too) and
 * literals with a base direction, and what rules derive through triple term patterns, are the
 * same after a restart from the log, after a restart from a snapshot (compaction) with a log
 * after it, and after the writing process is killed (SIGKILL); the triple term index is
 * rebuilt, so rules keep matching triple terms by their parts. Nothing changed on disk for
 * them (terms are logged and snapshotted as their canonical bytes, a triple term after its
 * parts), so the log and snapshot formats keep their versions, and a directory written before
 * RDF 1.2 (a fixture) loads unchanged and takes triple terms afterwards.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConnectionFactory } from '../../lib/api/connection-factory.js';
import type { DataStoreConnection } from '../../lib/api/data-store-connection.js';
import { TRANSACTION_CODEC_VERSION } from '../../lib/persistence/transaction-record.js';
import { Server, type ServerOptions } from '../../lib/server/server.js';
import { factsWithStatus } from '../helpers/facts.js';
import { useTempDir } from './helpers.js';

const OLD_DIRECTORY = fileURLToPath(new URL('fixtures/rdf11-server-directory', import.meta.url));
const FIXTURE = fileURLToPath(new URL('fixtures/triple-terms-writer.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '@prefix : <http://e/> .\n@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n';
const DATALOG = { mediaType: 'application/x.datalog' } as const;

const FIRST =
  PREFIX +
  '[:r1, rdf:reifies, <<( :a :says "hi"@en--ltr )>>] . [:r1, :source, :wiki] .\n' +
  '[:r2, rdf:reifies, <<( :doc :quotes <<( :b :says "مرحبا"@ar--rtl )>> )>>] . [:r2, :source, :news] .\n' +
  '[:c, :label, "x"@en--rtl] .\n' +
  '[?s, :assertedBy, ?who] :- [?r, rdf:reifies, <<( ?s ?p ?o )>>], [?r, :source, ?who] .\n' +
  '[?s, :stated, <<( ?s :label ?l )>>] :- [?s, :label, ?l] .\n';
const SECOND = PREFIX + '[:r3, rdf:reifies, <<( :c :label "x"@en--rtl )>>] . [:r3, :source, :blog] . [:d, :label, "y"@fr--ltr] .\n';

function options(directory: string): ServerOptions {
  return { roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast', persistence: 'file', 'server-directory': directory } };
}

/** Every fact of store `s` of a server opened on `dir`, with its status; `body` runs before the server shuts down. */
async function factsAfterRestart(dir: string, body?: (ds: DataStoreConnection) => Promise<void>): Promise<string[]> {
  const server = await Server.create(options(dir));
  try {
    if (body) {
      using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
      await body(ds);
    }
    return factsWithStatus(server, 's');
  } finally {
    await server.shutdown();
  }
}

/** The facts a server that never restarted has after the two texts. */
async function expectedFacts(): Promise<string[]> {
  const server = await Server.create({ roleName: 'admin', password: 'secret', parameters: { 'password-hashing': 'fast' } });
  try {
    using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
    sc.createDataStore('s');
    using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
    await ds.importData('ADD', FIRST, DATALOG);
    await ds.importData('ADD', SECOND, DATALOG);
    return factsWithStatus(server, 's');
  } finally {
    await server.shutdown();
  }
}

/** Runs the writer fixture on `dir` until it committed both texts, then kills it with SIGKILL. */
async function writeAndKill(dir: string, mode: 'compact' | 'log'): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dir, JSON.stringify(FIRST), mode, JSON.stringify(SECOND)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.on('exit', (code, signal) => reject(new Error(`the fixture exited early (${code ?? signal}): ${stderr}`)));
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('committed\n')) resolve();
    });
  });
  child.kill('SIGKILL');
  await exited;
}

describe('persistence: triple terms and base directions', function () {
  this.timeout(60_000);
  const tmp = useTempDir('quadlog-triple-terms-');
  let expected: string[];

  before(async () => {
    expected = await expectedFacts();
    // the data is what the spec is about: triple terms, nested, directions, derived through patterns
    expect(expected).to.include('DefaultTriples(<http://e/r2> <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> (<http://e/doc> <http://e/quotes> (<http://e/b> <http://e/says> "مرحبا"@ar--rtl))) E');
    expect(expected).to.include('DefaultTriples(<http://e/c> <http://e/assertedBy> <http://e/blog>) D');
    expect(expected).to.include('DefaultTriples(<http://e/d> <http://e/stated> (<http://e/d> <http://e/label> "y"@fr--ltr)) D');
  });

  /** After a restart the triple term index answers rules: a new reifier of an existing triple term derives its provenance. */
  async function stillMatches(ds: DataStoreConnection): Promise<void> {
    await ds.importData('ADD', PREFIX + '[:r4, rdf:reifies, <<( :d :label "y"@fr--ltr )>>] . [:r4, :source, :late] .', DATALOG);
    await ds.importData('DELETE', PREFIX + '[:r4, rdf:reifies, <<( :d :label "y"@fr--ltr )>>] . [:r4, :source, :late] .', DATALOG);
  }

  for (const mode of ['log', 'compact'] as const) {
    it(`are the same after a restart from ${mode === 'log' ? 'the log' : 'a snapshot and the log after it'}, and after SIGKILL`, async () => {
      const dir = join(tmp.path, `server-${mode}`);
      {
        const server = await Server.create(options(dir));
        try {
          using sc = await ConnectionFactory.newServerConnection(server.url, 'admin', 'secret');
          sc.createDataStore('s');
          using ds = await ConnectionFactory.newDataStoreConnection(server.url, 's', 'admin', 'secret');
          await ds.importData('ADD', FIRST, DATALOG);
          if (mode === 'compact') await ds.compact();
          await ds.importData('ADD', SECOND, DATALOG);
        } finally {
          await server.shutdown();
        }
      }
      expect(await factsAfterRestart(dir)).to.deep.equal(expected);
      const derived: string[] = [];
      await factsAfterRestart(dir, async (ds) => {
        await ds.importData('ADD', PREFIX + '[:r4, rdf:reifies, <<( :d :label "y"@fr--ltr )>>] . [:r4, :source, :late] .', DATALOG);
        const answer = await ds.evaluateQuery('SELECT ?who WHERE { <http://e/d> <http://e/assertedBy> ?who }');
        if (answer.type === 'bindings') for (const r of answer.rows) derived.push(r[0]!.value);
        await stillMatches(ds);
      });
      expect(derived).to.deep.equal(['http://e/late']);
      expect(await factsAfterRestart(dir)).to.deep.equal(expected);

      const killed = join(tmp.path, `killed-${mode}`);
      await writeAndKill(killed, mode);
      expect(await factsAfterRestart(killed)).to.deep.equal(expected);
    });
  }

  it('loads a directory written before RDF 1.2 unchanged, and takes triple terms into it', async () => {
    // the log record codec is the one the old directory was written with
    expect(TRANSACTION_CODEC_VERSION).to.equal(1);
    const dir = join(tmp.path, 'old');
    await cp(OLD_DIRECTORY, dir, { recursive: true, filter: (from) => !from.endsWith('README.md') });
    const e = (local: string): string => `<http://e/${local}>`;
    const old = [
      `DefaultTriples(${e('a')} ${e('anc')} ${e('b')}) D`,
      `DefaultTriples(${e('a')} ${e('anc')} ${e('c')}) D`,
      `DefaultTriples(${e('a')} ${e('anc')} ${e('d')}) D`,
      `DefaultTriples(${e('a')} ${e('p')} ${e('b')}) E`,
      `DefaultTriples(${e('b')} ${e('anc')} ${e('c')}) D`,
      `DefaultTriples(${e('b')} ${e('anc')} ${e('d')}) D`,
      `DefaultTriples(${e('b')} ${e('label')} "y") E`,
      `DefaultTriples(${e('b')} ${e('p')} ${e('c')}) E`,
      `DefaultTriples(${e('c')} ${e('anc')} ${e('d')}) D`,
      `DefaultTriples(${e('c')} ${e('label')} "x"@en) E`,
      `DefaultTriples(${e('c')} ${e('n')} "1"^^<http://www.w3.org/2001/XMLSchema#integer>) E`,
      `DefaultTriples(${e('c')} ${e('p')} ${e('d')}) E`,
      `DefaultTriples(${e('d')} ${e('label')} "z"@fr) E`,
    ];
    expect(await factsAfterRestart(dir)).to.deep.equal(old);
    await factsAfterRestart(dir, async (ds) => {
      await ds.importData('ADD', PREFIX + '[:r, rdf:reifies, <<( :a :p :b )>>] . [:c, :label, "w"@en--ltr] .', DATALOG);
      await ds.compact();
    });
    const now = await factsAfterRestart(dir);
    expect(now).to.include(`DefaultTriples(${e('r')} <http://www.w3.org/1999/02/22-rdf-syntax-ns#reifies> (${e('a')} ${e('p')} ${e('b')})) E`);
    expect(now).to.include(`DefaultTriples(${e('c')} ${e('label')} "w"@en--ltr) E`);
    expect(now.filter((l) => !l.includes('<http://e/r>') && !l.includes('"w"'))).to.deep.equal(old);
  });
});
