/**
 * Long SPARQL texts are parsed on the parsing thread: the same algebra as in place (terms
 * rebuilt), the same errors, and a parse that the interrupter or the deadline stops ends at once
 * (the next one gets a fresh thread).
 */
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { Interrupter } from '../../lib/model/control.js';
import { InterruptedError, QueryCompilationError } from '../../lib/model/errors.js';
import { compileQueryOffThread, OFF_THREAD_PARSE_CHARS, OFF_THREAD_PARSE_DEPTH, parseUpdateOffThread } from '../../lib/sparql/parse-off-thread.js';
import { compileQuery, parseUpdate } from '../../lib/sparql/parse.js';

const PREFIXES = new Map([['ex:', 'http://example.com/']]);
const BASE = 'http://example.com/base/';
/** An algebra as text, its RDF terms written by what they are (whatever class made them). */
function canonical(tree: unknown): string {
  return JSON.stringify(tree, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && 'termType' in value) {
      const t = value as { termType: string; value: string; language?: string; datatype?: { value: string } };
      return t.termType === 'Quad' ? value : `${t.termType} ${t.value} ${t.language ?? ''} ${t.datatype?.value ?? ''}`;
    }
    return value;
  });
}
const go = (): { interrupter: Interrupter; deadline: number } => ({ interrupter: new Interrupter(), deadline: Infinity });
const values = (n: number, v = 'x'): string => `VALUES ?${v} { ${Array.from({ length: n }, (_, i) => `"${i}"@en ex:i${i} ${i} <rel${i}> "t${i}"^^ex:dt`).join(' ')} }`;

describe('sparql: parsing long texts on the parsing thread', function () {
  this.timeout(60_000);

  it('gives the algebra of the parse in place, terms and all, for a long text', async () => {
    const text = `SELECT * WHERE { ?s ex:p ?o . ${values(1000)} FILTER(?o != "x") }`;
    expect(text.length).to.be.at.least(OFF_THREAD_PARSE_CHARS);
    const here = compileQuery(`${text} `, PREFIXES, BASE);
    const there = await compileQueryOffThread(text, PREFIXES, BASE, go());
    expect(canonical(there.algebra)).to.equal(canonical(here.algebra));
    expect(canonical(there.algebra)).to.contain('Literal 0 en');
    expect(there.parsed.base).to.equal(here.parsed.base);
    // the same text again comes from the cache
    expect(await compileQueryOffThread(text, PREFIXES, BASE, go())).to.equal(there);
  });

  it('answers a long query through a store as a short one would', async () => {
    await using server = await Server.create({ roleName: 'a', password: 'b', parameters: { 'password-hashing': 'fast' } });
    await using sc = await ConnectionFactory.newServerConnection(server.url, 'a', 'b');
    sc.createDataStore('s');
    await using ds = sc.newDataStoreConnection('s');
    await ds.importData('ADD', Array.from({ length: 300 }, (_, i) => `<http://example.com/s${i}> <http://example.com/p> "v${i}" .`).join('\n'));
    const wanted = Array.from({ length: 5000 }, (_, i) => `"v${i * 2}"`).join(' ');
    const long = `SELECT ?s WHERE { ?s <http://example.com/p> ?o . VALUES ?o { ${wanted} } } ORDER BY ?s`;
    expect(long.length).to.be.at.least(OFF_THREAD_PARSE_CHARS);
    const answer = await ds.evaluateQuery(long);
    const short = await ds.evaluateQuery('SELECT ?s WHERE { ?s <http://example.com/p> ?o . FILTER(STRLEN(?o) > 0 && xsd:integer(SUBSTR(?o, 2)) / 2 = FLOOR(xsd:integer(SUBSTR(?o, 2)) / 2)) } ORDER BY ?s');
    expect(answer.type === 'bindings' && answer.rows.length).to.equal(150);
    expect(answer).to.deep.equal(short);
  });

  it('takes deeply nested texts there too', async () => {
    const depth = OFF_THREAD_PARSE_DEPTH + 20;
    const text = `ASK { FILTER(${'('.repeat(depth)}1${')'.repeat(depth)} = 1) }`;
    const here = compileQuery(`${text} `, PREFIXES, BASE);
    expect(canonical((await compileQueryOffThread(text, PREFIXES, BASE, go())).algebra)).to.equal(canonical(here.algebra));
  });

  it('reports the same syntax errors', async () => {
    const text = `SELECT * WHERE { ${values(1000)} ?s ?p }`;
    let inPlace = '';
    try {
      compileQuery(text, PREFIXES, BASE);
    } catch (e) {
      inPlace = (e as Error).message;
    }
    expect(inPlace).to.not.equal('');
    const error = await compileQueryOffThread(`${text} `, PREFIXES, BASE, go()).then(() => undefined, (e: unknown) => e as Error);
    expect(error).to.be.instanceOf(QueryCompilationError);
    expect(error!.message).to.equal(inPlace);
  });

  it('parses long updates there', async () => {
    const text = `INSERT { ?x ex:p ?y } WHERE { ${values(1000)} BIND(1 AS ?y) }`;
    const here = parseUpdate(text, PREFIXES, BASE);
    expect(canonical(await parseUpdateOffThread(text, PREFIXES, BASE, undefined, go()))).to.equal(canonical(here));
  });

  it('stops at an interrupt or the deadline, and parses the next text on a fresh thread', async () => {
    const huge = `${Array.from({ length: 100000 }, (_, i) => `PREFIX p${i}: <http://example.com/${i}#>`).join('\n')}\nASK {}`;
    const interrupter = new Interrupter();
    const interrupted = compileQueryOffThread(huge, PREFIXES, BASE, { interrupter, deadline: Infinity }).then(() => undefined, (e: unknown) => e);
    setImmediate(() => interrupter.interrupt());
    expect(await interrupted).to.be.instanceOf(InterruptedError);
    const late = await compileQueryOffThread(`${huge} `, PREFIXES, BASE, { interrupter: new Interrupter(), deadline: performance.now() }).then(() => undefined, (e: unknown) => e as Error);
    expect(late).to.be.instanceOf(InterruptedError);
    expect(late!.message).to.contain('time limit');
    const text = `ASK { ${values(1000, 'z')} }`;
    expect((await compileQueryOffThread(text, PREFIXES, BASE, go())).algebra.type).to.equal('ask');
  });
});
