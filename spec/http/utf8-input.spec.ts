import { request } from 'node:http';
import { expect } from 'chai';
import { ADMIN_AUTH, expectErrorResponse, useEndpoint } from './helpers.js';

const EX = 'http://example.com/';
const FORM = 'application/x-www-form-urlencoded';

/** The UTF-8 bytes of `before`, then `bad`, then the UTF-8 bytes of `after`. */
function withBytes(before: string, bad: readonly number[], after: string): Buffer {
  return Buffer.concat([Buffer.from(before, 'utf8'), Buffer.from(bad), Buffer.from(after, 'utf8')]);
}

/** Sends a request with a raw target and body through node:http; resolves with status and body text. */
function raw(url: string, method: string, headers: Readonly<Record<string, string>>, body?: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers: { authorization: ADMIN_AUTH, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('http: malformed UTF-8 in request texts is refused (400)', () => {
  const env = useEndpoint('utf8-input');
  let store: string;
  const count = (): Promise<number> => env.storeConnection(store).countFacts();

  before(async () => {
    store = await env.createStore();
    await env.storeConnection(store).importData('ADD', `<${EX}kept> <${EX}p> "é" .\n`);
  });

  it('refuses Turtle, TriG and Datalog content, naming the byte offset, and changes nothing', async () => {
    const prefix = `@prefix : <${EX}> .\n`;
    const bodies: Array<[string, Buffer, number]> = [
      ['text/turtle', withBytes(`${prefix}:a :p "a`, [0xc3, 0x28], '" .\n'), prefix.length + 8],
      ['application/trig', withBytes(`${prefix}:g { :a :p "`, [0xff], '" . }\n'), prefix.length + 12],
      ['application/x.datalog', withBytes(`${prefix}[:a, :p, "`, [0xc3, 0x28], '"] .\n'), prefix.length + 10],
    ];
    const before = await count();
    for (const [type, body, offset] of bodies) {
      for (const [method, query] of [['POST', ''], ['PATCH', '?operation=add-content'], ['PUT', '']] as const) {
        const res = await env.fetch(`/datastores/${store}/content${query}`, { method, headers: { 'content-type': type }, body });
        const text = await res.text();
        expect(res.status, `${type} ${method}: ${text}`).to.equal(400);
        expect(text, `${type} ${method}`).to.contain(`invalid UTF-8 byte sequence at byte offset ${offset}`);
        expect(await count(), `${type} ${method}`).to.equal(before);
      }
    }
  });

  it('refuses SPARQL queries over GET whose percent-decoded bytes are not UTF-8', async () => {
    for (const target of [`?query=ASK%20%7B%20FILTER("a%C3%28")%20%7D`, '?query=%FF', `?qu%C3%28ery=ASK%7B%7D`]) {
      const text = await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql${target}`), 400, 'ParsingError');
      expect(text, target).to.contain('invalid UTF-8 byte sequence at byte offset');
      expect(text, target).to.contain('query string');
    }
    const offset = await expectErrorResponse(await env.fetch(`/datastores/${store}/sparql?query=ASK%20%7B%20FILTER("a%C3%28")%20%7D`), 400, 'ParsingError');
    expect(offset).to.contain("byte offset 15 (line 1, column 16) of parameter 'query' in the query string");
    // a '%' without two hex digits stays as it is, as URLSearchParams keeps it
    const kept = await env.fetch(`/datastores/${store}/sparql?query=${encodeURIComponent('ASK { FILTER("100%" = "100%") }').replace(/%25/g, '%')}`);
    expect(kept.status, await kept.text()).to.equal(200);
  });

  it('refuses SPARQL query and update bodies and form bodies that are not UTF-8, changing nothing', async () => {
    const before = await count();
    const url = `${env.url}/datastores/${store}/sparql`;
    const cases: Array<[string, Buffer, string]> = [
      ['application/sparql-query', withBytes('SELECT * WHERE { ?s ?p "a', [0xc3, 0x28], '" }'), 'byte offset 25 (line 1, column 26) of the request body'],
      ['application/sparql-update', withBytes(`INSERT DATA {\n <${EX}a> <${EX}p> "`, [0xff], '" }'), 'byte offset 62 (line 2, column 49) of the request body'],
      [FORM, withBytes('update=INSERT+DATA+%7B+%3Chttp%3A%2F%2Fexample.com%2Fa%3E+%3Chttp%3A%2F%2Fexample.com%2Fp%3E+%22', [0xc3, 0x28], '%22+%7D'), 'of the form body'],
      [FORM, Buffer.from('update=INSERT+DATA+%7B+%3Chttp%3A%2F%2Fexample.com%2Fa%3E+%3Chttp%3A%2F%2Fexample.com%2Fp%3E+%22%ED%A0%80%22+%7D'), "byte offset 61 (line 1, column 62) of parameter 'update' in the form body"],
    ];
    for (const [type, body, where] of cases) {
      const answer = await raw(url, 'POST', { 'content-type': type }, body);
      expect(answer.status, answer.text).to.equal(400);
      expect(answer.text).to.match(/^ParsingError: invalid UTF-8 byte sequence at /);
      expect(answer.text).to.contain(where);
      expect(await count()).to.equal(before);
    }
  });

  it('refuses other texts read whole: prefixes, IRI lists', async () => {
    const bad = withBytes('@prefix a: <http://example.com/', [0xc3, 0x28], '> .\n');
    const prefixes = await raw(`${env.url}/datastores/${store}/prefixes`, 'PUT', { 'content-type': 'text/turtle' }, bad);
    expect(prefixes.status, prefixes.text).to.equal(400);
    expect(prefixes.text).to.contain('invalid UTF-8 byte sequence at byte offset 31');
    const list = await raw(`${env.url}/datastores/${store}/content?operation=add-content`, 'PATCH', { 'content-type': 'text/uri-list' }, withBytes('https://example.com/', [0xff], '\n'));
    expect(list.status, list.text).to.equal(400);
    expect(list.text).to.contain('invalid UTF-8 byte sequence at byte offset 20');
  });

  it('refuses Basic credentials that are not UTF-8 (401)', async () => {
    const credentials = Buffer.concat([Buffer.from('admin:admin-'), Buffer.from([0xff]), Buffer.from('secret')]).toString('base64');
    const text = await expectErrorResponse(await env.fetch('/datastores', { headers: { authorization: `Basic ${credentials}` } }), 401, 'AuthenticationError');
    expect(text).to.contain('malformed Basic credentials');
  });
});
