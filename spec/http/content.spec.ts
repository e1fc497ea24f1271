import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { ImportResult, NotificationRow } from '../../lib/index.js';
import { NotificationAnswer } from '../../lib/http/resources/content-notifications.js';
import { parseUriList } from '../../lib/http/resources/content-body.js';
import { ADMIN_AUTH, expectEmpty, expectErrorResponse, parseCsv, readCsv, readJson, useEndpoint } from './helpers.js';
import { information, serveDocuments, streamBody, summaryLines, textAnswer, untyped } from './content-helpers.js';

const EX = 'http://example.com/';
const TTL = `@prefix ex: <${EX}> .\nex:a ex:p ex:b .\nex:b ex:p ex:c .\n`;

for (const variant of ['A', 'B'] as const) {
  describe(`http: /datastores/<ds>/content (variant ${variant})`, function () {
    this.timeout(20_000);
    // text/uri-list bodies list files of this directory and local http: URLs: the server's
    // sandbox is the directory (made before the server, which useEndpoint's hook creates)
    const parameters: Record<string, string> = { 'allowed-url-schemes-on-import': 'file,http' };
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'quadlog-content-'));
      parameters['sandbox-directory'] = dir;
    });
    after(() => rmSync(dir, { recursive: true, force: true }));
    const env = useEndpoint(`content-${variant}`, { variant, parameters });

    /** A new store with its content path and an in-process connection. */
    async function store(): Promise<{ name: string; path: string; count: () => Promise<number>; nquads: () => Promise<string[]> }> {
      const name = await env.createStore();
      const connection = env.storeConnection(name);
      return {
        name,
        path: `/datastores/${name}/content`,
        count: () => connection.countFacts({ factDomain: 'explicit' }),
        nquads: async () => (await connection.exportDataToString('application/n-quads')).split('\n').filter((l) => l !== '').sort(),
      };
    }

    function patch(path: string, operation: string, body: string, headers: Record<string, string> = untyped(), extra = ''): Promise<Response> {
      return env.fetch(`${path}?operation=${operation}${extra}`, { method: 'PATCH', headers, body });
    }

    describe('GET', () => {
      it('exports Turtle by default, and N-Triples, N-Quads and TriG as Accept asks', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL);
        await patch(s.path, 'add-content', `<${EX}x> <${EX}p> <${EX}y> <${EX}g> .`);
        const turtle = await env.fetch(s.path);
        expect(turtle.status).to.equal(200);
        expect(turtle.headers.get('content-type')).to.equal('text/turtle; charset=UTF-8');
        const text = await turtle.text();
        expect(text).to.contain(`<${EX}a>`).and.not.contain(`<${EX}x>`);
        const nt = await env.fetch(s.path, { headers: { accept: 'application/n-triples' } });
        expect(nt.headers.get('content-type')).to.equal('application/n-triples; charset=UTF-8');
        expect((await nt.text()).trim().split('\n').sort()).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> .`, `<${EX}b> <${EX}p> <${EX}c> .`]);
        const nq = await env.fetch(s.path, { headers: { accept: 'application/n-quads' } });
        expect((await nq.text()).trim().split('\n')).to.include(`<${EX}x> <${EX}p> <${EX}y> <${EX}g> .`);
        const trig = await env.fetch(s.path, { headers: { accept: 'text/html;q=0.9, application/trig' } });
        expect(trig.headers.get('content-type')).to.equal('application/trig; charset=UTF-8');
        expect(await trig.text()).to.match(/<http:\/\/example\.com\/g>\s*\{/);
      });

      it('honours fact-domain (default explicit) and exports rules as Datalog with rule-domain', async () => {
        const s = await store();
        const loaded = await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n[<${EX}a>, <${EX}p>, <${EX}b>] .`);
        expect(loaded.status).to.equal(200);
        const nt = (q: string): Promise<string> => env.fetch(`${s.path}${q}`, { headers: { accept: 'application/n-triples' } }).then((r) => r.text());
        expect((await nt('')).trim().split('\n')).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> .`]);
        expect((await nt('?fact-domain=derived')).trim().split('\n')).to.deep.equal([`<${EX}a> <${EX}q> <${EX}b> .`]);
        expect((await nt('?fact-domain=all')).trim().split('\n')).to.have.length(2);
        const rules = await env.fetch(s.path, { headers: { accept: 'application/x.datalog' } });
        expect(rules.status).to.equal(200);
        expect(rules.headers.get('content-type')).to.equal('application/x.datalog; charset=UTF-8');
        const text = await rules.text();
        expect(text).to.contain(':-').and.to.contain(`${EX}q`);
        expect(await (await env.fetch(`${s.path}?rule-domain=axioms`, { headers: { accept: 'application/x.datalog' } })).text()).not.to.contain(':-');
      });

      it('streams a large export as the bytes the API exports, unicode and escapes included', async () => {
        const name = await env.createStore();
        const connection = env.storeConnection(name);
        const lines = Array.from({ length: 20_000 }, (_, i) => `<${EX}s${i}> <${EX}p/é> "v ${i} \\\\ \\"q\\" \\n \\u0001 😀 日本"@en <${EX}g${i % 3}> .\n`);
        await connection.importData('ADD', lines.join(''), { mediaType: 'application/n-quads' });
        for (const type of ['application/n-quads', 'application/n-triples', 'text/turtle']) {
          const answer = await env.fetch(`/datastores/${name}/content${type === 'application/n-triples' ? '?fact-domain=all' : ''}`, { headers: { accept: type } });
          expect(answer.status).to.equal(200);
          const body = Buffer.from(await answer.arrayBuffer());
          const expected = await connection.exportDataToString(type, type === 'application/n-triples' ? { 'fact-domain': 'all' } : {});
          expect(body.equals(Buffer.from(expected, 'utf8')), type).to.equal(true);
          if (type === 'application/n-quads') expect(body.length).to.be.greaterThan(1_000_000);
        }
      });

      it('answers 406 when Accept names no export format, and 400 for parameters that do not apply', async () => {
        const s = await store();
        await expectErrorResponse(await env.fetch(s.path, { headers: { accept: 'application/sparql-results+json' } }), 406, 'NotAcceptableError');
        await expectErrorResponse(await env.fetch(`${s.path}?fact-domain=everything`, { headers: { accept: 'text/turtle' } }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${s.path}?fact-domain=all`, { headers: { accept: 'application/x.datalog' } }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch(`${s.path}?rule-domain=user`, { headers: { accept: 'text/turtle' } }), 400, 'BadRequestError');
        await expectErrorResponse(await env.fetch('/datastores/no-such-store/content'), 404, 'UnknownResourceError');
      });
    });

    describe('PATCH add-content', () => {
      it('answers 200 with the text summary (prefixes, then counts) when Accept is absent', async () => {
        const s = await store();
        const answer = await textAnswer(await patch(s.path, 'add-content', TTL));
        expect(answer.status).to.equal(200);
        expect(answer.contentType).to.equal('text/plain; charset=UTF-8');
        expect(answer.lines).to.deep.equal([`prefix: ex: = ${EX}`, ...summaryLines({ '#processed-facts': 2, '#changed-facts': 2 })]);
        expect(await s.count()).to.equal(2);
        // adding the same facts again changes nothing but still reports the summary
        const again = await textAnswer(await patch(s.path, 'add-content', TTL, untyped({ accept: 'text/plain' })));
        expect(again.status).to.equal(200);
        expect(information(again, '#changed-facts')).to.equal('0');
        expect(information(again, '#processed-facts')).to.equal('2');
      });

      it('answers with the notification table in the SPARQL answer format Accept names', async () => {
        const s = await store();
        const csv = await readCsv(await patch(s.path, 'add-content', TTL, untyped({ accept: 'text/csv' })));
        expect(csv.columns).to.deep.equal(['Type', 'Line', 'Column', 'Description', 'Value']);
        expect(csv.rows[0]).to.deep.equal(['prefix', '', '', 'ex:', EX]);
        expect(csv.records.find((r) => r['Description'] === '#changed-facts')).to.deep.include({ Type: 'information', Value: '2' });
        const json = await readJson(await patch(s.path, 'add-content', `<${EX}s> <${EX}p> "o" .`, untyped({ accept: 'application/sparql-results+json' })));
        expect(json.vars).to.deep.equal(['Type', 'Line', 'Column', 'Description', 'Value']);
        const changed = json.bindings.find((b) => b['Description']?.value === '#changed-facts');
        expect(changed?.['Value']).to.deep.equal({ type: 'literal', value: '1', datatype: 'http://www.w3.org/2001/XMLSchema#integer' });
        const aborted = json.bindings.find((b) => b['Description']?.value === '#aborted');
        expect(aborted?.['Value']?.value).to.equal('false');
        expect(aborted?.['Line']).to.equal(undefined);
        await expectErrorResponse(await patch(s.path, 'add-content', TTL, untyped({ accept: 'application/xml' })), 406, 'NotAcceptableError');
        expect(await s.count()).to.equal(3);
      });

      it('answers 400 with the error rows and the summary, and changes nothing, when the body has an error', async () => {
        const s = await store();
        const answer = await textAnswer(await patch(s.path, 'add-content', `<${EX}a> <${EX}p> <${EX}b> .\nthis is wrong .\n`, { 'content-type': 'application/n-triples' }));
        expect(answer.status).to.equal(400);
        expect(answer.contentType).to.equal('text/plain; charset=UTF-8');
        expect(answer.lines[0]).to.match(/^error: line 2: column 1: /);
        expect(answer.lines.slice(1)).to.deep.equal(summaryLines({ '#errors': 1, '#processed-facts': 1 }));
        expect(await s.count()).to.equal(0);
        const csv = await patch(s.path, 'add-content', 'this is wrong .', { 'content-type': 'application/n-triples', accept: 'text/csv' });
        expect(csv.status).to.equal(400);
        const rows = parseCsv(await csv.text());
        expect(rows[1]!.slice(0, 3)).to.deep.equal(['error', '1', '1']);
      });

      it('words an unknown prefix as the API does, with its position in the row', async () => {
        const s = await store();
        for (const type of ['text/turtle', 'application/x.datalog']) {
          const body = type === 'text/turtle' ? `<${EX}a> <${EX}p> <${EX}b> .\n<${EX}a> nope:p <${EX}c> .\n` : `[<${EX}a>, <${EX}p>, <${EX}b>] .\n[<${EX}a>, nope:p, <${EX}c>] .\n`;
          const answer = await textAnswer(await patch(s.path, 'add-content', body, { 'content-type': type }));
          expect(answer.status, type).to.equal(400);
          expect(answer.lines[0], type).to.equal(`error: line 2: column ${body.split('\n')[1]!.indexOf('nope:') + 1}: unknown prefix 'nope:': declare it in the input or add it to the store's prefixes`);
        }
        expect(await s.count()).to.equal(0);
      });

      it('puts default-graph triples into the graph named by default-graph', async () => {
        const s = await store();
        const res = await patch(s.path, 'add-content', TTL, untyped(), `&default-graph=${encodeURIComponent(`${EX}g`)}`);
        expect(res.status).to.equal(200);
        expect(await s.nquads()).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> <${EX}g> .`, `<${EX}b> <${EX}p> <${EX}c> <${EX}g> .`]);
      });

      it('adds Datalog rules and facts, counting the rules', async () => {
        const s = await store();
        const answer = await textAnswer(await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n[<${EX}a>, <${EX}p>, <${EX}b>] .`, { 'content-type': 'application/x.datalog' }));
        expect(answer.status, answer.text).to.equal(200);
        expect(answer.lines).to.deep.equal(summaryLines({ '#processed-facts': 1, '#changed-facts': 1, '#processed-rules': 1, '#changed-rules': 1 }));
        const derived = await env.fetch(`${s.path}?fact-domain=derived`, { headers: { accept: 'application/n-triples' } });
        expect((await derived.text()).trim()).to.equal(`<${EX}a> <${EX}q> <${EX}b> .`);
        const syntax = await textAnswer(await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p> .`, { 'content-type': 'application/x.datalog' }));
        expect(syntax.status).to.equal(400);
        expect(syntax.lines[0]).to.match(/^error: /);
      });
    });

    describe('PATCH add-content-update-prefixes', () => {
      it('adds the content and sets the prefixes the input defines', async () => {
        const s = await store();
        const connection = env.storeConnection(s.name);
        const answer = await textAnswer(await patch(s.path, 'add-content-update-prefixes', TTL));
        expect(answer.status).to.equal(200);
        expect(answer.lines[0]).to.equal(`prefix: ex: = ${EX}`);
        expect((await connection.getPrefixes()).get('ex:')).to.equal(EX);
        // plain add-content leaves the prefixes alone
        await patch(s.path, 'add-content', `@prefix other: <${EX}other#> .\nother:a other:b other:c .`);
        expect((await connection.getPrefixes()).has('other:')).to.equal(false);
      });
    });

    describe('PATCH delete-content', () => {
      it(variant === 'A' ? 'answers 204 with no body' : 'answers 200 with the summary', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL);
        const res = await patch(s.path, 'delete-content', `<${EX}a> <${EX}p> <${EX}b> .`);
        if (variant === 'A') {
          await expectEmpty(res, 204);
        } else {
          const answer = await textAnswer(res);
          expect(answer.status).to.equal(200);
          expect(answer.lines).to.deep.equal(summaryLines({ '#processed-facts': 1, '#changed-facts': 1 }));
        }
        expect(await s.nquads()).to.deep.equal([`<${EX}b> <${EX}p> <${EX}c> .`]);
        const bad = await textAnswer(await patch(s.path, 'delete-content', 'not a triple', { 'content-type': 'application/n-triples' }));
        expect(bad.status).to.equal(400);
        expect(bad.lines[0]).to.match(/^error: line 1: /);
      });

      it('deletes from the graph named by default-graph', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL, untyped(), `&default-graph=${encodeURIComponent(`${EX}g`)}`);
        const res = await patch(s.path, 'delete-content', `<${EX}a> <${EX}p> <${EX}b> .`, untyped(), `&default-graph=${encodeURIComponent(`${EX}g`)}`);
        expect(res.status).to.equal(variant === 'A' ? 204 : 200);
        expect(await s.nquads()).to.deep.equal([`<${EX}b> <${EX}p> <${EX}c> <${EX}g> .`]);
      });
    });

    describe('Content-Type', () => {
      it('detects the format when Content-Type is absent or empty', async () => {
        const s = await store();
        const nq = await textAnswer(await patch(s.path, 'add-content', `<${EX}a> <${EX}p> <${EX}b> <${EX}g> .\n`));
        expect(nq.status).to.equal(200);
        expect(await s.nquads()).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> <${EX}g> .`]);
        const trig = await textAnswer(await patch(s.path, 'add-content', `@prefix ex: <${EX}> .\nex:h { ex:c ex:p ex:d }`));
        expect(trig.status, trig.text).to.equal(200);
        expect(await s.nquads()).to.include(`<${EX}c> <${EX}p> <${EX}d> <${EX}h> .`);
        // a body sent without any Content-Type header at all (node:http)
        const raw = await streamBody(env.url + `${s.path}?operation=add-content`, { method: 'PATCH', headers: {}, first: `<${EX}e> <${EX}p> <${EX}f> .\n`, filler: '\n', totalBytes: 1 });
        expect(raw.status, raw.body).to.equal(200);
        expect(await s.count()).to.equal(3);
      });

      it('rejects a body that does not match the stated type, changing nothing', async () => {
        const s = await store();
        const answer = await textAnswer(await patch(s.path, 'add-content', TTL, { 'content-type': 'application/n-triples' }));
        expect(answer.status).to.equal(400);
        expect(answer.text).to.match(/does not match the stated type application\/n-triples/);
        const quads = await textAnswer(await patch(s.path, 'add-content', `<${EX}a> <${EX}p> <${EX}b> <${EX}g> .`, { 'content-type': 'text/turtle' }));
        expect(quads.status).to.equal(400);
        expect(await s.count()).to.equal(0);
      });

      it('rejects an unknown content type and never takes a form body for content', async () => {
        const s = await store();
        const unknown = await expectErrorResponse(await patch(s.path, 'add-content', TTL, { 'content-type': 'text/csv' }), 400, 'BadRequestError');
        expect(unknown).to.contain("unsupported media type 'text/csv' (supported: text/turtle, application/n-triples, application/n-quads, application/trig, application/ld+json, application/rdf+xml, application/x.datalog)");
        const form = await patch(s.path, 'add-content', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' });
        const text = await expectErrorResponse(form, 400, 'BadRequestError');
        expect(text).to.match(/form-urlencoded body is not content/);
        expect(await s.count()).to.equal(0);
      });
    });

    describe('text/uri-list bodies', () => {
      before(() => {
        writeFileSync(join(dir, 'one.ttl'), TTL);
        writeFileSync(join(dir, 'two.nt'), `<${EX}x> <${EX}p> <${EX}y> .\n`);
        writeFileSync(join(dir, 'rules.dlog'), `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n`);
      });
      const iri = (name: string): string => pathToFileURL(join(dir, name)).href;

      it('imports every listed IRI (file: and http:), skipping blank lines and comments', async () => {
        const s = await store();
        const web = await serveDocuments({ '/three.nq': { type: 'application/n-quads', body: `<${EX}m> <${EX}p> <${EX}n> <${EX}g> .\n` } });
        try {
          const list = `# a comment\n${iri('one.ttl')}\n\n${iri('two.nt')}\r\n${web.url}/three.nq\n`;
          const answer = await textAnswer(await patch(s.path, 'add-content', list, { 'content-type': 'text/uri-list' }));
          expect(answer.status, answer.text).to.equal(200);
          expect(information(answer, '#changed-facts')).to.equal('4');
          expect(await s.nquads()).to.include(`<${EX}m> <${EX}p> <${EX}n> <${EX}g> .`).and.to.include(`<${EX}x> <${EX}p> <${EX}y> .`);
          const rules = await textAnswer(await patch(s.path, 'add-content', iri('rules.dlog'), { 'content-type': 'text/uri-list' }));
          expect(information(rules, '#changed-rules')).to.equal('1');
        } finally {
          await web.close();
        }
      });

      it('forces the type of Imported-Content-Type, rejecting an item of another type', async () => {
        const s = await store();
        const ok = await patch(s.path, 'add-content', iri('two.nt'), { 'content-type': 'text/uri-list', 'imported-content-type': 'application/n-triples' });
        expect(ok.status).to.equal(200);
        const mismatch = await patch(s.path, 'add-content', `${iri('two.nt')}\n${iri('one.ttl')}`, { 'content-type': 'text/uri-list', 'imported-content-type': 'application/n-triples' });
        const text = await expectErrorResponse(mismatch, 400, 'ParsingError');
        expect(text).to.contain('one.ttl').and.to.contain('does not match the forced type');
        expect(await s.count()).to.equal(1);
      });

      it('rejects a list with no IRI, an unreadable IRI, and Imported-Content-Type on other bodies', async () => {
        const s = await store();
        const empty = await expectErrorResponse(await patch(s.path, 'add-content', '# nothing here\n\n', { 'content-type': 'text/uri-list' }), 400, 'BadRequestError');
        expect(empty).to.match(/at least one IRI/);
        await expectErrorResponse(await patch(s.path, 'add-content', iri('missing.nt'), { 'content-type': 'text/uri-list' }), 400, 'ParsingError');
        await expectErrorResponse(await patch(s.path, 'add-content', TTL, untyped({ 'imported-content-type': 'text/turtle' })), 400, 'BadRequestError');
        expect(await s.count()).to.equal(0);
      });

      it('parses uri-list text', () => {
        expect(parseUriList('# c\r\n a \n\n#x\nb\r')).to.deep.equal(['a', 'b']);
      });
    });

    describe('PUT, DELETE and POST', () => {
      it('PUT replaces every fact and rule with the body (204)', async () => {
        const s = await store();
        await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n[<${EX}a>, <${EX}p>, <${EX}b>] .`);
        await patch(s.path, 'add-content', `<${EX}a> <${EX}p> <${EX}b> <${EX}g> .`);
        const res = await env.fetch(s.path, { method: 'PUT', headers: untyped(), body: `<${EX}new> <${EX}p> <${EX}fact> .` });
        await expectEmpty(res, 204);
        expect(await s.nquads()).to.deep.equal([`<${EX}new> <${EX}p> <${EX}fact> .`]);
        const rules = await env.fetch(s.path, { headers: { accept: 'application/x.datalog' } });
        expect(await rules.text()).not.to.contain(':-');
      });

      it('PUT with a bad body answers 400 and keeps the old content (one transaction)', async () => {
        const s = await store();
        await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n[<${EX}a>, <${EX}p>, <${EX}b>] .`);
        const before = await s.nquads();
        const answer = await textAnswer(await env.fetch(s.path, { method: 'PUT', headers: { 'content-type': 'application/n-triples' }, body: `<${EX}x> <${EX}p> <${EX}y> .\nbroken line\n` }));
        expect(answer.status).to.equal(400);
        expect(answer.lines[0]).to.match(/^error: line 2: /);
        expect(await s.nquads()).to.deep.equal(before);
        const rules = await env.fetch(s.path, { headers: { accept: 'application/x.datalog' } });
        expect(await rules.text()).to.contain(':-');
      });

      it('PUT puts default-graph triples into the named graph', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL);
        await expectEmpty(await env.fetch(`${s.path}?default-graph=${encodeURIComponent(`${EX}g`)}`, { method: 'PUT', headers: untyped(), body: `<${EX}a> <${EX}p> <${EX}b> .` }), 204);
        expect(await s.nquads()).to.deep.equal([`<${EX}a> <${EX}p> <${EX}b> <${EX}g> .`]);
      });

      it('DELETE clears every fact and rule (204)', async () => {
        const s = await store();
        await patch(s.path, 'add-content', `[?x, <${EX}q>, ?y] :- [?x, <${EX}p>, ?y] .\n[<${EX}a>, <${EX}p>, <${EX}b>] .`);
        await expectEmpty(await env.fetch(s.path, { method: 'DELETE' }), 204);
        expect(await s.nquads()).to.deep.equal([]);
        expect(await (await env.fetch(s.path, { headers: { accept: 'application/x.datalog' } })).text()).not.to.contain(':-');
        await expectErrorResponse(await env.fetch(`${s.path}?facts=true`, { method: 'DELETE' }), 400, 'BadRequestError');
      });

      it('POST adds the body like add-content', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL);
        const answer = await textAnswer(await env.fetch(s.path, { method: 'POST', headers: untyped(), body: `<${EX}x> <${EX}p> <${EX}y> .` }));
        expect(answer.status).to.equal(200);
        expect(answer.lines).to.deep.equal(summaryLines({ '#processed-facts': 1, '#changed-facts': 1 }));
        expect(await s.count()).to.equal(3);
      });

      it('POST with connection=<id> adds in that connection (inside its transaction)', async () => {
        const s = await store();
        const created = await env.fetch(`/datastores/${s.name}/connections`, { method: 'POST' });
        expect(created.status).to.equal(201);
        const location = created.headers.get('location')!;
        const token = created.headers.get('service-authentication-token')!;
        const id = location.split('/').pop()!;
        const auth = { authorization: `Service ${token}` };
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: auth }), 204);
        const res = await env.fetch(`${s.path}?connection=${id}`, { method: 'POST', headers: untyped(auth), body: `<${EX}x> <${EX}p> <${EX}y> .` });
        expect(res.status, await res.clone().text()).to.equal(200);
        expect(information(await textAnswer(res), '#changed-facts')).to.equal('1');
        expect(await s.count()).to.equal(0);
        // a PUT in the same transaction replaces, still uncommitted
        await expectEmpty(await env.fetch(`${s.path}?connection=${id}`, { method: 'PUT', headers: untyped(auth), body: `<${EX}z> <${EX}p> <${EX}w> .` }), 204);
        expect(await s.count()).to.equal(0);
        await expectEmpty(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST', headers: auth }), 204);
        expect(await s.nquads()).to.deep.equal([`<${EX}z> <${EX}p> <${EX}w> .`]);
        await expectEmpty(await env.fetch(location, { method: 'DELETE', headers: auth }), 204);
      });

      it('a failed PUT inside an open transaction rolls that transaction back (the clearing cannot be undone alone)', async () => {
        const s = await store();
        await patch(s.path, 'add-content', TTL);
        const created = await env.fetch(`/datastores/${s.name}/connections`, { method: 'POST' });
        const location = created.headers.get('location')!;
        const auth = { authorization: `Service ${created.headers.get('service-authentication-token')!}` };
        const id = location.split('/').pop()!;
        await expectEmpty(await env.fetch(`${location}/transaction?operation=begin-read-write`, { method: 'POST', headers: auth }), 204);
        expect((await env.fetch(`${s.path}?connection=${id}`, { method: 'POST', headers: untyped(auth), body: `<${EX}x> <${EX}p> <${EX}y> .` })).status).to.equal(200);
        const failed = await textAnswer(await env.fetch(`${s.path}?connection=${id}`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/n-triples' }, body: 'broken' }));
        expect(failed.status).to.equal(400);
        await expectErrorResponse(await env.fetch(`${location}/transaction?operation=commit`, { method: 'POST', headers: auth }), 409, 'TransactionError');
        expect(await s.count()).to.equal(2);
        await expectEmpty(await env.fetch(location, { method: 'DELETE', headers: auth }), 204);
      });
    });

    describe('PATCH add-axioms and delete-axioms', () => {
      const ONTOLOGY = `@prefix ex: <${EX}> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\nex:Student rdfs:subClassOf ex:Person .\nex:ann a ex:Student .\n`;

      it('adds axioms from a source graph, reporting #processed-axioms and #changed-axioms', async () => {
        const s = await store();
        const sg = encodeURIComponent(`${EX}sg`);
        await patch(s.path, 'add-content', ONTOLOGY, untyped(), `&default-graph=${sg}`);
        await patch(s.path, 'add-content', `<${EX}bob> a <${EX}Student> .`);
        const added = await textAnswer(await patch(s.path, 'add-axioms', '', {}, `&source-graph=${sg}`));
        expect(added.status).to.equal(200);
        expect(added.lines).to.deep.equal(['information: #processed-axioms = 1', 'information: #changed-axioms = 1']);
        const types = async (): Promise<number> => {
          const res = await env.fetch(`/datastores/${s.name}/sparql?query=${encodeURIComponent(`ASK { <${EX}bob> a <${EX}Person> }`)}`, { headers: { accept: 'application/sparql-results+json' } });
          return (await readJson(res)).boolean ? 1 : 0;
        };
        expect(await types()).to.equal(1);
        const csv = await readCsv(await patch(s.path, 'add-axioms', '', { accept: 'text/csv' }, `&source-graph=${sg}`));
        expect(csv.rows).to.deep.equal([
          ['information', '', '', '#processed-axioms', '1'],
          ['information', '', '', '#changed-axioms', '0'],
        ]);
        const removed = await textAnswer(await patch(s.path, 'delete-axioms', '', {}, `&source-graph=${sg}`));
        expect(removed.lines).to.deep.equal(['information: #processed-axioms = 1', 'information: #changed-axioms = 1']);
        expect(await types()).to.equal(0);
      });

      it('extracts ABox assertions with assertions=true into the destination graph', async () => {
        const s = await store();
        const sg = encodeURIComponent(`${EX}sg`);
        await patch(s.path, 'add-content', ONTOLOGY, untyped(), `&default-graph=${sg}`);
        const res = await textAnswer(await patch(s.path, 'add-axioms', '', {}, `&source-graph=${sg}&destination-graph=${encodeURIComponent(`${EX}dg`)}&assertions=true`));
        expect(res.status, res.text).to.equal(200);
        expect(information(res, '#changed-axioms')).to.equal('1');
        const ask = await env.fetch(`/datastores/${s.name}/sparql?query=${encodeURIComponent(`ASK { GRAPH <${EX}dg> { <${EX}ann> a <${EX}Person> } }`)}`, { headers: { accept: 'application/sparql-results+json' } });
        expect((await readJson(ask)).boolean).to.equal(true);
      });

      it('reports axioms outside OWL 2 RL as warnings (200) and refuses bad parameters', async () => {
        const s = await store();
        const existential = `@prefix ex: <${EX}> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\nex:Student rdfs:subClassOf [ a owl:Restriction ; owl:onProperty ex:takes ; owl:someValuesFrom ex:Course ] .\n`;
        await patch(s.path, 'add-content', existential);
        const answer = await textAnswer(await patch(s.path, 'add-axioms', '', {}));
        expect(answer.status).to.equal(200);
        expect(answer.lines[0]).to.match(/^warning: /);
        await expectErrorResponse(await patch(s.path, 'add-axioms', '', {}, '&assertions=maybe'), 400, 'BadRequestError');
        await expectErrorResponse(await patch(s.path, 'add-axioms', '', {}, '&default-graph=x'), 400, 'BadRequestError');
      });
    });

    describe('operations and parameters', () => {
      it('refuses a missing or unknown operation and unknown parameters', async () => {
        const s = await store();
        const missing = await expectErrorResponse(await env.fetch(s.path, { method: 'PATCH', headers: untyped(), body: TTL }), 400, 'BadRequestError');
        expect(missing).to.match(/operation/);
        await expectErrorResponse(await patch(s.path, 'replace-everything', TTL), 400, 'BadRequestError');
        const unknown = await expectErrorResponse(await patch(s.path, 'add-content', TTL, untyped(), '&colour=blue'), 400, 'BadRequestError');
        expect(unknown).to.match(/colour/);
        await expectErrorResponse(await patch(s.path, 'add-content', TTL, untyped({ 'notify-immediately': 'soon' })), 400, 'BadRequestError');
        // the graph store protocol's default and graph parameters are ignored
        expect((await patch(s.path, 'add-content', TTL, untyped(), '&default')).status).to.equal(200);
        expect(await s.count()).to.equal(2);
      });
    });

    describe('Notify-Immediately', () => {
      it('answers like without the header when there are neither errors nor warnings', async () => {
        const s = await store();
        const answer = await textAnswer(await patch(s.path, 'add-content', TTL, untyped({ 'notify-immediately': 'true' })));
        expect(answer.status).to.equal(200);
        expect(answer.lines).to.deep.equal([`prefix: ex: = ${EX}`, ...summaryLines({ '#processed-facts': 2, '#changed-facts': 2 })]);
      });

      it('streams an early error (400) while a 100 MB body is still arriving, without deadlock', async function () {
        this.timeout(60_000);
        const s = await store();
        const filler = `<${EX}s> <${EX}p> "a literal that makes this N-Triples line about a hundred bytes long" .\n`;
        const result = await streamBody(`${env.url}${s.path}?operation=add-content`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/n-triples', 'notify-immediately': 'true' },
          first: 'this first line is a syntax error\n',
          filler,
          totalBytes: 100 * 1024 * 1024,
        });
        expect(result.status).to.equal(400);
        expect(result.sent).to.be.greaterThan(100 * 1024 * 1024);
        // the answer started long before the body was sent
        expect(result.sentAtHeaders).to.be.lessThan(result.sent / 2);
        const lines = result.body.trim().split('\n');
        expect(lines[0]).to.match(/^error: line 1: column 1: /);
        expect(lines).to.include('information: #errors = 1').and.to.include('information: #changed-facts = 0');
        expect(await s.count()).to.equal(0);
      });

      it('also drains a large body whose import stops at its first error (detected Turtle)', async function () {
        this.timeout(60_000);
        const s = await store();
        const result = await streamBody(`${env.url}${s.path}?operation=add-content`, {
          method: 'PATCH',
          headers: { 'notify-immediately': 'true', accept: 'text/csv' },
          first: 'this is not Turtle\n',
          filler: `<${EX}s> <${EX}p> <${EX}o> .\n`,
          totalBytes: 20 * 1024 * 1024,
        });
        expect(result.status).to.equal(400);
        expect(result.headers['content-type']).to.match(/^text\/csv/);
        const rows = parseCsv(result.body);
        expect(rows[0]).to.deep.equal(['Type', 'Line', 'Column', 'Description', 'Value']);
        expect(rows[1]![0]).to.equal('error');
      });
    });
  });
}

describe('http: content notification answers (Notify-Immediately streaming)', () => {
  let server: HttpServer;
  let url = '';
  /** Senders of the held-back errors, one per request, in arrival order. */
  const gates: Array<() => void> = [];

  const row = (type: NotificationRow['type'], description: string, value = '', line?: number): NotificationRow => ({ type, description, value, ...(line !== undefined ? { line, column: 1 } : {}) });

  const result = (rows: NotificationRow[], errors: number, warnings: number): ImportResult => ({
    rows: [
      ...rows,
      row('information', '#aborted', 'false'),
      row('information', '#errors', String(errors)),
      row('information', '#warnings', String(warnings)),
      row('information', '#processed-facts', '3'),
      row('information', '#changed-facts', '0'),
      row('information', '#processed-rules', '0'),
      row('information', '#changed-rules', '0'),
      row('information', '#processed-axioms', '0'),
      row('information', '#changed-axioms', '0'),
    ],
    errors,
    warnings,
    processedFacts: 3,
    changedFacts: 0,
    processedRules: 0,
    changedRules: 0,
    processedAxioms: 0,
    changedAxioms: 0,
    prefixes: new Map(),
    text: '',
  });

  before(async () => {
    // a server that reports a prefix, a warning and, once the test lets it (after it has the
    // answer's headers), an error through the answer of a content update, the way an import
    // reports them
    server = createServer((req, res) => {
      const mediaType = req.url === '/csv' ? 'text/csv' : 'text/plain';
      const answer = new NotificationAnswer(res, mediaType, true);
      const prefix = row('prefix', 'ex:', EX);
      const warning = row('warning', 'something odd', '', 1);
      const error = row('error', 'something wrong', '', 2);
      answer.onNotification(prefix);
      answer.onNotification(warning);
      gates.push(() => {
        answer.onNotification(error);
        answer.finish(result([prefix, warning, error], 1, 1), 'summary');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers 202 at a warning that precedes any error, then streams the error and the summary', async () => {
    // the headers arrive while the error is held back: fetch resolves before it is sent
    const res = await fetch(`${url}/text`, { headers: { authorization: ADMIN_AUTH } });
    expect(res.status).to.equal(202);
    gates.shift()!();
    const lines = (await res.text()).trim().split('\n');
    expect(lines.slice(0, 3)).to.deep.equal([`prefix: ex: = ${EX}`, 'warning: line 1: column 1: something odd', 'error: line 2: column 1: something wrong']);
    expect(lines.slice(3)).to.deep.equal(summaryLines({ '#errors': 1, '#warnings': 1, '#processed-facts': 3 }));
  });

  it('streams the same rows in an answer format', async () => {
    const res = await fetch(`${url}/csv`);
    expect(res.status).to.equal(202);
    gates.shift()!();
    const rows = parseCsv(await res.text());
    expect(rows.slice(0, 4)).to.deep.equal([
      ['Type', 'Line', 'Column', 'Description', 'Value'],
      ['prefix', '', '', 'ex:', EX],
      ['warning', '1', '1', 'something odd', ''],
      ['error', '2', '1', 'something wrong', ''],
    ]);
    expect(rows).to.have.length(4 + 9);
  });
});
