import { expect } from 'chai';
import { InterruptedError } from '../../lib/index.js';
import { bigNTriples, expectError, useServer } from '../helpers/server.js';

/** An aggregate over 27 million combinations: it hands over no row until the end, hours away. */
const ENDLESS = 'SELECT (COUNT(*) AS ?n) WHERE { ?a <http://example.com/big/p> ?b . ?c <http://example.com/big/p> ?d . ?f <http://example.com/big/p> ?g }';

describe('api: interrupting and closing cursors whose query is running', () => {
  const env = useServer('cursor-interrupt');

  async function bigStore() {
    const ds = await env.newStore();
    expect((await ds.importData('ADD', bigNTriples(300))).errors).to.equal(0);
    return ds;
  }

  it('interrupt() stops the query of a page being read (InterruptedError); the connection serves the next call', async () => {
    const ds = await bigStore();
    const cursor = ds.createCursor(ENDLESS);
    setTimeout(() => ds.interrupt(), 50);
    await expectError(cursor.open(10), InterruptedError);
    cursor.close();
    const other = ds.createCursor('ASK { ?s ?p ?o }');
    expect((await other.open()).rows).to.deep.equal([[]]);
    other.close();
  });

  it('closing a cursor stops its running query: the page being read fails', async () => {
    const ds = await bigStore();
    const cursor = ds.createCursor(ENDLESS);
    const page = cursor.open(10);
    setTimeout(() => cursor.close(), 50);
    await expectError(page, InterruptedError);
  });

  it('interrupt() leaves an open cursor alone while none of its pages is being read', async () => {
    const ds = await bigStore();
    const cursor = ds.createCursor('SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s');
    const first = await cursor.open(1);
    expect(first.more).to.equal(true);
    ds.interrupt();
    const second = await cursor.advance(1);
    expect(second.position).to.equal(1);
    expect(second.rows).to.have.length(1);
    cursor.close();
  });
});
