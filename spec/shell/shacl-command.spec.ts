import { expect } from 'chai';
import { Parser } from 'n3';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { Shell } from '../../lib/commands/index.js';
import { normalise } from './helpers.js';

const SETUP = `dstore create shapes
prefix ex: <http://example.com/>
prefix sh: <http://www.w3.org/ns/shacl#>
import > ex:shapes ! ex:PersonShape sh:targetClass ex:Person ; sh:property [ sh:path ex:name ; sh:minCount 1 ] .
import ! ex:ann a ex:Person ; ex:name "Ann" . ex:bob a ex:Person .
import > ex:data ! ex:carl a ex:Person ; ex:name "Carl" .
`;

describe('shell: validate', () => {
  let server: Server;
  let shell: Shell;
  let out = '';
  let err = '';

  before(async () => {
    server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
    shell = new Shell({ connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'), io: { write: (t) => void (out += t), error: (t) => void (err += t) } });
    await shell.run(SETUP);
    expect(err).to.equal('');
    out = '';
  });

  after(async () => {
    await shell.close();
    await server.shutdown();
  });

  async function run(text: string): Promise<string> {
    out = '';
    err = '';
    const result = await shell.run(text, { source: 's' });
    expect(err, text).to.equal('');
    expect(result.status, text).to.equal('completed');
    return normalise(out).replace(/\([\d.]+ m?s\)/g, '(<t>)');
  }

  it('prints the results of the default graph against a shapes graph as a table', async () => {
    const text = await run('validate UNDEF with ex:shapes');
    expect(text).to.contain('focus node').and.contain('ex:bob').and.contain('<http://example.com/name>').and.contain('sh:MinCountConstraintComponent').and.contain('sh:Violation');
    expect(text).to.contain('The data does not conform to the shapes: 1 validation result');
    expect(text).not.to.contain('ex:ann');
  });

  it('validates a named graph, and the explicit facts only', async () => {
    expect(await run('validate ex:data with ex:shapes')).to.contain('The data conforms to the shapes: 0 validation results');
    expect(await run('validate ex:data with ex:shapes explicit')).to.contain('The data conforms');
    // bob is a Person without a name; only explicit facts, none derived
    expect(await run('validate UNDEF with ex:shapes all')).to.contain('1 validation result');
    expect(await run('validate UNDEF with ex:shapes derived')).to.contain('The data conforms');
  });

  it('prints the report in an RDF format with as', async () => {
    const text = await run('validate with <http://example.com/shapes> as application/n-triples');
    const quads = new Parser({ format: 'N-Triples' }).parse(text);
    expect(quads.some((q) => q.predicate.value === 'http://www.w3.org/ns/shacl#conforms' && q.object.value === 'false')).to.equal(true);
  });

  it('names what is wrong in its arguments', async () => {
    err = '';
    await shell.run('validate with', { source: 's' });
    expect(err).to.contain('with needs the shapes graph');
    err = '';
    await shell.run('validate UNDEF with ex:shapes nonsense', { source: 's' });
    expect(err).to.contain("unexpected 'nonsense'");
  });
});
