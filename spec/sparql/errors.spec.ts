import { expect } from 'chai';
import { type DataStoreConnection, QueryCompilationError, sparqlOperationType } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';
import { useEndpoint } from '../http/helpers.js';

const ADVICE = "declare it in the input or add it to the store's prefixes";

/** The message `evaluateQuery` (or `evaluateUpdate`) fails with on `text`. */
async function messageOf(ds: DataStoreConnection, kind: 'query' | 'update', text: string): Promise<string> {
  const e = await expectError(kind === 'query' ? ds.evaluateQuery(text) : ds.evaluateUpdate(text), QueryCompilationError);
  return e.message;
}

describe('sparql: error messages', () => {
  const env = useServer('sparql-errors');
  let ds: DataStoreConnection;

  before(async () => {
    ds = await env.newStore();
    await ds.setPrefix('st:', 'http://example.com/store#');
  });

  describe('syntax errors', () => {
    it('name the unexpected token and its position, without the parser’s list of expected tokens', async () => {
      expect(await messageOf(ds, 'query', 'SELEC * WHERE {}')).to.equal("syntax error in the SPARQL query at line 1, column 1: unexpected 'SELEC'");
      expect(await messageOf(ds, 'query', 'SELECT * WHERE { ?s ?p }')).to.equal("syntax error in the SPARQL query at line 1, column 24: unexpected '}'");
      expect(await messageOf(ds, 'query', 'SELECT * WHERE { ?s ?p ?o } LIMIT x')).to.equal("syntax error in the SPARQL query at line 1, column 35: unexpected 'x'");
      expect(await messageOf(ds, 'query', 'SELECT * WHERE { ?s ?p ?o FILTER(?o > ) }')).to.equal("syntax error in the SPARQL query at line 1, column 39: unexpected ')'");
    });

    it('count lines and columns from 1, whatever the line ends, and skip comments', async () => {
      expect(await messageOf(ds, 'query', 'SELECT *\nWHERE {\n  ?s ?p\n}')).to.equal("syntax error in the SPARQL query at line 4, column 1: unexpected '}'");
      expect(await messageOf(ds, 'query', 'SELECT *\r\nWHERE { # a comment\r\n  ?s ?p # another\r\n}')).to.equal("syntax error in the SPARQL query at line 4, column 1: unexpected '}'");
      expect(await messageOf(ds, 'query', 'ASK {\n  ?s <p> "abc }')).to.equal('syntax error in the SPARQL query at line 2, column 10: unexpected \'"abc }\'');
    });

    it('say when the text stops short', async () => {
      expect(await messageOf(ds, 'query', 'ASK {')).to.equal('syntax error in the SPARQL query at line 1, column 6: unexpected end of the query');
      expect(await messageOf(ds, 'update', 'INSERT DATA {\n')).to.equal('syntax error in the SPARQL update at line 2, column 1: unexpected end of the update');
    });

    it('give positions in the text as written, although sparqljs is handed a rewritten one', async () => {
      // `\u0078` is unescaped and `+5` becomes a typed literal before sparqljs reads the text
      const text = 'SELECT * WHERE { <http://e/\\u0078> <http://e/p> +5 . ?s ?p }';
      expect(await messageOf(ds, 'query', text)).to.equal(`syntax error in the SPARQL query at line 1, column ${text.lastIndexOf('}') + 1}: unexpected '}'`);
      const update = 'INSERT DATA { [ <http://e/p> 1 ] . <http://e/a> <http://e/b> }';
      expect(await messageOf(ds, 'update', update)).to.equal(`syntax error in the SPARQL update at line 1, column ${update.lastIndexOf('}') + 1}: unexpected '}'`);
    });

    it('are worded the same for updates', async () => {
      expect(await messageOf(ds, 'update', 'INSRT DATA { <http://e/a> <http://e/b> <http://e/c> }')).to.equal("syntax error in the SPARQL update at line 1, column 1: unexpected 'INSRT'");
      expect(await messageOf(ds, 'update', 'INSERT DATA { <http://e/a> <http://e/b> }')).to.equal("syntax error in the SPARQL update at line 1, column 41: unexpected '}'");
      await expectError(ds.setCommitProcedure('DELETE { ?s ?p }'), QueryCompilationError).then((e) =>
        expect(e.message).to.equal("syntax error in the SPARQL update at line 1, column 16: unexpected '}'"),
      );
    });
  });

  describe('unknown prefixes', () => {
    it('are named with the position of their first use and what to do', async () => {
      expect(await messageOf(ds, 'query', 'SELECT * WHERE { ?s ex:p ?o }')).to.equal(`unknown prefix 'ex:' at line 1, column 21: ${ADVICE}`);
      expect(await messageOf(ds, 'query', 'PREFIX ex: <http://e/>\nSELECT * WHERE {\n  ?s ex:p "ex:q" ; zz:r ?o }')).to.equal(`unknown prefix 'zz:' at line 3, column 20: ${ADVICE}`);
      expect(await messageOf(ds, 'query', 'SELECT * WHERE { ?s :p ?o }')).to.equal(`unknown prefix ':' at line 1, column 21: ${ADVICE}`);
      expect(await messageOf(ds, 'update', 'INSERT DATA {\n  ex:a <http://e/b> <http://e/c> }')).to.equal(`unknown prefix 'ex:' at line 2, column 3: ${ADVICE}`);
    });

    it('are not reported for the store’s prefixes or declared ones', async () => {
      expect(await ds.evaluateQuery('SELECT * WHERE { ?s st:p ?o }')).to.include({ type: 'bindings' });
      expect(await ds.evaluateQuery('PREFIX ex: <http://e/> ASK { ?s ex:p ?o }')).to.deep.equal({ type: 'boolean', value: false });
    });
  });

  describe('sparqlOperationType', () => {
    it('words a text without a query form as evaluating it does', async () => {
      for (const [kind, text] of [
        ['query', 'SELEC * WHERE {}'],
        ['query', '  # comment\n  SELEKT *'],
        ['query', 'PREFIX : SELECT * {}'],
        ['query', 'PREFIX ex <http://e/> SELECT * {}'],
        ['query', 'BASE <http://e/>\nPREFIX ex:'],
        ['update', 'INSRT DATA {}'],
        ['update', 'PREFIX ex: <http://e/>\nBASE ex:a INSERT DATA {}'],
      ] as const) {
        const expected = await messageOf(ds, kind, text);
        expect(expected, text).to.match(/^syntax error in the SPARQL (query|update) at line \d+, column \d+: unexpected /);
        const e = await expectError(() => sparqlOperationType(text, kind), QueryCompilationError);
        expect(e.message, text).to.equal(expected);
      }
    });

    it('names the text a query by default', async () => {
      const e = await expectError(() => sparqlOperationType('SELEC *'), QueryCompilationError);
      expect(e.message).to.equal("syntax error in the SPARQL query at line 1, column 1: unexpected 'SELEC'");
    });
  });
});

describe('sparql: error messages over HTTP', () => {
  const env = useEndpoint('sparql-errors');

  it('are those of the in-process calls', async () => {
    const store = await env.createStore();
    const ds = env.storeConnection(store);
    const cases = [
      ['query', 'SELEC * WHERE {}'],
      ['query', 'SELECT * WHERE {\n  ?s ?p\n}'],
      ['query', 'SELECT * WHERE { ?s ex:p ?o }'],
      ['update', 'INSRT DATA {}'],
      ['update', 'INSERT DATA { ex:a <http://e/b> <http://e/c> }'],
    ] as const;
    for (const [kind, text] of cases) {
      const expected = await messageOf(ds, kind, text);
      const res = await env.fetch(`/datastores/${store}/sparql`, {
        method: 'POST',
        headers: { 'Content-Type': kind === 'query' ? 'application/sparql-query' : 'application/sparql-update' },
        body: text,
      });
      expect(res.status, text).to.equal(400);
      expect((await res.text()).trim(), text).to.equal(`QueryCompilationError: ${expected}`);
    }
  });
});
