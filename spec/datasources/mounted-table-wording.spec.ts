import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { BadRequestError } from '../../lib/index.js';
import { expectError, useServer } from '../helpers/server.js';

describe('datasources: a mounted table is a data-source table, not a built-in one, in errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quadlog-mounted-wording-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'people.csv'), 'id,name\n1,Ann\n');
  const env = useServer('datasources-mounted-wording', { 'sandbox-directory': dir, 'allowed-url-schemes-on-import': 'file' });

  it('refuses SPARQL updates of a mounted table saying its facts come from its data source', async () => {
    const ds = await env.newStore();
    await ds.registerDataSource('peopleDS', 'delimitedFile', { file: 'people.csv' });
    await ds.createTupleTable('People', { 'data-source-name': 'peopleDS', columns: '2', '1': 'http://ex.org/p/{1}', '1.datatype': 'iri', '2': '{2}' });
    for (const [update, verb] of [
      ['INSERT DATA { TT People { <http://ex.org/p/2> <http://ex.org/Bo> } }', 'inserted'],
      ['INSERT { TT People { ?p <http://ex.org/Bo> } } WHERE { BIND(<http://ex.org/p/3> AS ?p) }', 'inserted'],
    ] as const) {
      const e = await expectError(ds.evaluateUpdate(update), BadRequestError);
      expect(e.message, update).to.include("tuple table 'People' is a data-source table: its facts come from its data source").and.include(`cannot be ${verb}`);
      expect(e.message, update).not.to.include('built in');
    }
    // a built-in table keeps its wording
    const e = await expectError(ds.evaluateUpdate('INSERT DATA { TT SKOLEM { <http://ex.org/a> <http://ex.org/x> } }'), BadRequestError);
    expect(e.message).to.include("tuple table 'SKOLEM' is built in: its facts are computed by the store and cannot be inserted");
  });
});
