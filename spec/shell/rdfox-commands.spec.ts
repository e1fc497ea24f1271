import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { Shell, type ShellIO } from '../../lib/commands/index.js';
import { endpointOf } from '../../lib/shell/session.js';
import { normalise, tempDir } from './helpers.js';

/** A shell of a fresh in-process server (with the endpoint control `quadlog shell` gives it, unless `remote`), its output collected. */
async function newShell(options: { readonly root?: string; readonly remote?: boolean; readonly io?: Partial<ShellIO>; readonly parameters?: Readonly<Record<string, string>> } = {}) {
  const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', ...options.parameters } });
  let out = '';
  let err = '';
  const shell = new Shell({
    connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
    io: { write: (t) => void (out += t), error: (t) => void (err += t), ...options.io },
    ...(options.remote ? { remote: true } : { files: { readText: (p: string) => readFile(p, 'utf8'), createWriter: () => Promise.reject(new Error('no files')) }, endpoint: endpointOf(server) }),
    variables: options.root !== undefined ? { 'dir.root': options.root } : {},
  });
  return {
    shell,
    /** The output so far (timings as <t>), and forgets it. */
    take(): string {
      const text = normalise(out).replace(/evaluated in [\d.]+ ms/g, 'evaluated in <t>');
      out = '';
      return text;
    },
    errors: () => err,
    close: async () => {
      await shell.close();
      await server.shutdown();
    },
  };
}

const FAMILY = `dstore create family
prefix ex: <http://example.com/>
import ! ex:alice ex:parentOf ex:bob . ex:bob ex:parentOf ex:carol .
import ! [?x, ex:ancestorOf, ?y] :- [?x, ex:parentOf, ?y] . [?x, ex:ancestorOf, ?z] :- [?x, ex:ancestorOf, ?y], [?y, ex:parentOf, ?z] .
`;

describe('shell: RDFox commands', () => {
  describe('evaluate, answer and update', () => {
    it('run queries and updates held in files (relative names in dir.queries) or given after !', async () => {
      const dir = tempDir('quadlog-evaluate-');
      mkdirSync(join(dir.path, 'queries'));
      writeFileSync(join(dir.path, 'queries', 'ancestors.rq'), '# who descends from whom\nSELECT ?x ?y WHERE { ?x ex:ancestorOf ?y } ORDER BY ?x ?y\n');
      writeFileSync(join(dir.path, 'queries', 'dan.ru'), 'INSERT DATA { ex:carol ex:parentOf ex:dan } ;\nINSERT { ?x ex:hasChild true } WHERE { ?x ex:parentOf ?y }\n');
      const s = await newShell({ root: dir.path });
      try {
        await s.shell.run(FAMILY + 'set dir.queries queries\n');
        s.take();
        const result = await s.shell.run('evaluate ancestors.rq\nevaluate dan.ru\nanswer ! ASK { ex:alice ex:ancestorOf ex:dan }\nupdate ! DELETE DATA { ex:bob ex:hasChild true }\nevaluate ! SELECT (COUNT(*) AS ?n) WHERE { ?x ex:hasChild true }', { source: 's' });
        expect(s.errors()).to.equal('');
        expect(result.status).to.equal('completed');
        expect(s.take()).to.equal(
          [
            ' ?x       | ?y',
            '----------+----------',
            ' ex:alice | ex:bob',
            ' ex:alice | ex:carol',
            ' ex:bob   | ex:carol',
            '3 answers in <t>',
            'update done in <t>',
            'true',
            'update done in <t>',
            ' ?n',
            '----',
            ' 2',
            '1 answer in <t>',
            '',
          ].join('\n'),
        );
      } finally {
        await s.close();
        dir.remove();
      }
    });

    it('refuse the wrong kind of statement, a missing file, and files where the shell has none', async () => {
      const dir = tempDir('quadlog-evaluate-');
      writeFileSync(join(dir.path, 'q.rq'), 'SELECT * WHERE { ?s ?p ?o }');
      const s = await newShell({ root: dir.path });
      const remote = await newShell({ remote: true });
      try {
        await s.shell.run(FAMILY + 'set on-error continue\nupdate q.rq\nanswer ! INSERT DATA { ex:a ex:b ex:c }\nevaluate nosuch.rq\nevaluate', { source: 's' });
        const errors = s.errors().split('\n');
        expect(errors[0]).to.equal(`s:6:8: update, argument 1 'q.rq': error: '${join(dir.path, 'q.rq')}' is a SELECT query: 'update' evaluates updates (use 'answer' or 'evaluate')`);
        expect(errors[1]).to.equal("s:7:1: answer: error: the query after ! is an update: 'answer' evaluates queries (use 'update' or 'evaluate')");
        expect(errors[2]).to.match(/^s:8:10: evaluate, argument 1 'nosuch.rq': error: cannot read the statement file '.*nosuch\.rq': ENOENT/);
        expect(errors[3]).to.equal('s:9:1: evaluate: error: give the statement after !, or files holding them (syntax: evaluate {! <statement> | <file>...})');
        // nothing was inserted
        await s.shell.run('ASK { ex:a ex:b ex:c }');
        expect(s.take()).to.match(/false\n$/);
        await remote.shell.run('dstore create r\nevaluate q.rq', { source: 'r' });
        expect(remote.errors()).to.equal("r:2:10: evaluate, argument 1 'q.rq': error: evaluate reads statement files, and a remote shell has no file access (give the statement after !)\n");
      } finally {
        await s.close();
        await remote.close();
        dir.remove();
      }
    });
  });

  it('prints the plan of each query first with query.explain true', async () => {
    const s = await newShell();
    try {
      await s.shell.run(FAMILY + 'set query.explain true\nSELECT ?y WHERE { ex:alice ex:ancestorOf ?y . ?y ex:parentOf ex:carol }\nset query.explain false\nASK { ex:alice ex:ancestorOf ex:bob }');
      expect(s.errors()).to.equal('');
      const out = s.take();
      expect(out).to.contain(
        [
          'algebra:',
          '  project ?y',
          '    bgp',
          '      <http://example.com/alice> <http://example.com/ancestorOf> ?y',
          '      ?y <http://example.com/parentOf> <http://example.com/carol>',
          'join order:',
        ].join('\n'),
      );
      expect(out).to.contain('answers: 1, evaluated in <t>\n ?y\n--------\n ex:bob\n1 answer in <t>\ntrue\n');
      expect(out.match(/algebra:/g)).to.have.length(1);
      await s.shell.run('set query.explain maybe', { source: 's' });
      expect(s.errors()).to.contain("invalid value 'maybe' for 'query.explain' (expected true, false)");
    } finally {
      await s.close();
    }
  });

  describe('explain', () => {
    it('takes a fact as three Turtle terms (a for rdf:type, a graph, a final dot) as well as an atom', async () => {
      const s = await newShell();
      try {
        await s.shell.run(FAMILY + 'import ! [?x, a, ex:Parent] :- [?x, ex:parentOf, ?y] .\nimport > ex:g ! ex:x ex:parentOf ex:y .');
        s.take();
        await s.shell.run('explain [ex:alice, ex:ancestorOf, ex:bob]');
        const atom = s.take();
        expect(atom).to.equal('[ex:alice, ex:ancestorOf, ex:bob]    [derived, proof height 1]\n  <= [ex:alice, ex:ancestorOf, ex:bob] :- [ex:alice, ex:parentOf, ex:bob] .\n    [ex:alice, ex:parentOf, ex:bob]    [explicit]\n');
        await s.shell.run('explain ex:alice ex:ancestorOf ex:bob');
        expect(s.take()).to.equal(atom);
        await s.shell.run('explain shortest ex:alice ex:ancestorOf ex:bob .');
        expect(s.take()).to.equal(atom);
        await s.shell.run('explain ex:bob a ex:Parent');
        expect(s.take()).to.match(/^\[ex:bob, rdf:type, ex:Parent\]\s+\[derived, proof height 1\]/);
        await s.shell.run('explain ex:x ex:parentOf ex:y ex:g');
        expect(s.take()).to.match(/^\[ex:x, ex:parentOf, ex:y\] ex:g\s+\[explicit\]/);
        await s.shell.run('explain ex:carol ex:parentOf "Ann Smith"@en');
        expect(s.take()).to.equal('[ex:carol, ex:parentOf, "Ann Smith"@en]    [does not hold]\n');
        expect(s.errors()).to.equal('');
      } finally {
        await s.close();
      }
    });

    it('help explain shows the syntax of facts', async () => {
      const s = await newShell();
      try {
        await s.shell.run('help explain');
        const out = s.take();
        expect(out).to.contain('[ex:a, ex:p, ex:b]');
        expect(out).to.contain('ex:a ex:p ex:b');
        expect(out).to.contain('ex:Person[ex:ann]');
      } finally {
        await s.close();
      }
    });
  });

  describe('dsconn and srvconn', () => {
    it('open, list, choose and close data store connections; each has its own transaction', async () => {
      const s = await newShell();
      try {
        await s.shell.run(FAMILY);
        s.take();
        const result = await s.shell.run(
          [
            'dsconn open second to family',
            'dsconn list',
            'dsconn active second',
            'begin',
            'INSERT DATA { ex:dan ex:parentOf ex:eve }',
            'active family',
            'ASK { ex:dan ex:parentOf ex:eve }',
            'dsconn active',
            'dsconn close second',
            'dsconn list',
          ].join('\n'),
          { source: 's' },
        );
        expect(s.errors()).to.equal('');
        expect(result.status).to.equal('completed');
        expect(s.take()).to.equal(
          [
            "data store connection 'second' to 'family' opened",
            ' Name   | DataStore | Role  | Transaction | Active',
            '--------+-----------+-------+-------------+--------',
            ' family | family    | admin | none        | yes',
            ' second | family    | admin | none        |',
            "data store connection 'second' is active",
            "read-write transaction started on 'family'",
            'update done in <t>',
            "data store 'family' is active",
            'false',
            'family',
            "transaction on data store 'family' rolled back: its connection 'second' was closed without commit",
            "data store connection 'second' closed",
            ' Name   | DataStore | Role  | Transaction | Active',
            '--------+-----------+-------+-------------+--------',
            ' family | family    | admin | none        | yes',
            '',
          ].join('\n'),
        );
        await s.shell.run('set on-error continue\ndsconn close nosuch\ndsconn open family to family\ndsconn bogus', { source: 't' });
        expect(s.errors()).to.equal(
          [
            "t:2:14: dsconn, argument 2 'nosuch': error: no data store connection is named 'nosuch' (dsconn list shows them)",
            "t:3:13: dsconn, argument 2 'family': DuplicateResourceError: a data store connection named 'family' is open already",
            "t:4:8: dsconn, argument 1 'bogus': error: unknown subcommand 'bogus' (list, active, open or close)",
            '',
          ].join('\n'),
        );
      } finally {
        await s.close();
      }
    });

    it('open connections as another role, whose privileges then apply', async () => {
      const s = await newShell();
      try {
        await s.shell.run(FAMILY + 'dstore create secret\nrole create reader password rpw\ngrant privileges read >datastores|family to reader\n');
        s.take();
        const result = await s.shell.run(
          [
            'srvconn open readers as reader password rpw',
            'srvconn list',
            'srvconn active readers',
            'role',
            'srvconn active sc1',
            'dsconn open ro to family as reader password rpw',
            'active ro',
            'ASK { ex:alice ex:ancestorOf ex:carol }',
            'set on-error continue',
            'INSERT DATA { ex:a ex:b ex:c }',
          ].join('\n'),
          { source: 's' },
        );
        expect(result.errors).to.equal(1);
        expect(s.errors()).to.match(/^s:10:1: INSERT: AccessDeniedError: /);
        expect(s.take()).to.equal(
          [
            "server connection 'readers' opened as role 'reader'",
            ' Name    | Role   | Active',
            '---------+--------+--------',
            ' readers | reader |',
            ' sc1     | admin  | yes',
            "server connection 'readers' is active (role 'reader')",
            'reader',
            "server connection 'sc1' is active (role 'admin')",
            "data store connection 'ro' to 'family' opened as role 'reader' (server connection 'sc2')",
            "data store connection 'ro' (data store 'family') is active",
            'true',
            '',
          ].join('\n'),
        );
        await s.shell.run('srvconn close readers\nsrvconn list\nsrvconn open x as reader password wrong', { source: 't' });
        expect(s.take()).to.equal("server connection 'readers' closed\n Name | Role   | Active\n------+--------+--------\n sc1  | admin  | yes\n sc2  | reader |\n");
        expect(s.errors()).to.contain("t:3:19: srvconn, argument 4 'reader': AuthenticationError");
      } finally {
        await s.close();
      }
    });
  });

  describe('endpoint', () => {
    it("starts the HTTP endpoint of the shell's server with the endpoint.* variables, and stops it", async () => {
      const s = await newShell();
      try {
        await s.shell.run('dstore create family\nrole create web password wpw\ngrant privileges read >datastores|family to web\nset endpoint.port 0\nset endpoint.console false\nendpoint start', { source: 's' });
        expect(s.errors()).to.equal('');
        const url = /endpoint listening at (http:\/\/127\.0\.0\.1:\d+)\n/.exec(s.take())?.[1];
        expect(url).to.be.a('string');
        const asked = await fetch(`${url!}/datastores/family/sparql?query=${encodeURIComponent('ASK { ?s ?p ?o }')}`, { headers: { authorization: `Basic ${Buffer.from('web:wpw').toString('base64')}`, accept: 'application/sparql-results+json' } });
        expect(asked.status).to.equal(200);
        expect(JSON.parse(await asked.text())).to.deep.include({ boolean: false });
        expect((await fetch(`${url!}/console/`)).status).to.equal(404);
        await s.shell.run('endpoint status\nendpoint stop\nendpoint status');
        expect(s.take()).to.equal(`endpoint listening at ${url!}\nendpoint stopped\nendpoint not running\n`);
        let refused = false;
        await fetch(`${url!}/health`).catch(() => (refused = true));
        expect(refused).to.equal(true);
      } finally {
        await s.close();
      }
    });

    it("refuses to serve a shell's server that reads every file its user can read", async () => {
      const s = await newShell({ parameters: { 'sandbox-directory': '/', 'allowed-url-schemes-on-import': 'file,http,https' } });
      try {
        await s.shell.run('set on-error continue\nset endpoint.port 0\nendpoint start\nendpoint status', { source: 's' });
        expect(s.errors()).to.match(/^s:3:10: endpoint, argument 1 'start': error: the endpoint is not started: this shell's server reads every file you can read \(sandbox directory \/\).*--sandbox-directory DIR/);
        expect(s.take()).to.equal('endpoint not running\n');
      } finally {
        await s.close();
      }
    });

    it('refuses unknown parameters, stopping what does not run, and shells of the endpoint', async () => {
      const s = await newShell();
      const remote = await newShell({ remote: true });
      try {
        await s.shell.run('set on-error continue\nendpoint stop\nset endpoint.channel ssl\nendpoint start\nunset endpoint.channel\nset endpoint.port 99999\nendpoint start\nendpoint list-requests', { source: 's' });
        expect(s.errors().split('\n').slice(0, 4)).to.deep.equal([
          "s:2:10: endpoint, argument 1 'stop': error: the endpoint is not running",
          "s:4:1: endpoint: error: unknown endpoint parameter 'endpoint.channel' (quadlog's endpoint takes endpoint.port, endpoint.host, endpoint.variant, endpoint.object-keep-alive-time, endpoint.max-content-size, endpoint.console; unset the others)",
          "s:7:1: endpoint: error: invalid value '99999' for endpoint.port (expected a port number from 0 to 65535; 0 picks a free port)",
          "s:8:10: endpoint, argument 1 'list-requests': error: 'endpoint list-requests' is not supported: list, describe and cancel requests with the endpoint's /requests resources (GET /requests, GET or DELETE /requests/<id>)",
        ]);
        await remote.shell.run('endpoint start', { source: 'r' });
        expect(remote.errors()).to.equal("r:1:10: endpoint, argument 1 'start': error: the endpoint cannot be started or stopped from a shell of the HTTP endpoint (it has no server of its own: 'quadlog serve' runs one with its endpoint)\n");
      } finally {
        await s.close();
        await remote.close();
      }
    });
  });
});

describe('shell: RDFox commands about the store and the server', () => {
  it('dsprop, commitproc, recompile and threads', async () => {
    const dir = tempDir('quadlog-commitproc-');
    writeFileSync(join(dir.path, 'stamp.ru'), 'INSERT { ex:log ex:saw ?x } WHERE { ?x ex:parentOf ?y }\n');
    const s = await newShell({ root: dir.path });
    try {
      await s.shell.run(FAMILY);
      s.take();
      const result = await s.shell.run(
        [
          'dsprop set base-iri http://example.com/base/',
          'dsprop set base-iri',
          'commitproc show',
          'commitproc set stamp.ru',
          'commitproc show',
          'import ! ex:carol ex:parentOf ex:dan .',
          'SELECT ?x WHERE { ex:log ex:saw ?x } ORDER BY ?x',
          'commitproc delete',
          'commitproc show',
          'recompile',
          'threads 3',
          'threads',
        ].join('\n'),
        { source: 's' },
      );
      expect(s.errors()).to.equal('');
      expect(result.status).to.equal('completed');
      expect(s.take()).to.equal(
        [
          'base-iri = http://example.com/base/',
          'base-iri = http://example.com/base/',
          'no commit procedure',
          'commit procedure set',
          'INSERT { ex:log ex:saw ?x } WHERE { ?x ex:parentOf ?y }',
          '1 fact (1 new) in <t>',
          ' ?x',
          '----------',
          ' ex:alice',
          ' ex:bob',
          ' ex:carol',
          '3 answers in <t>',
          'commit procedure deleted',
          'no commit procedure',
          'rules recompiled',
          'the server may use 3 threads',
          '3',
          '',
        ].join('\n'),
      );
      const listed = await s.shell.run('dsprop list');
      expect(listed.status).to.equal('completed');
      expect(s.take()).to.match(/^ Property +\| Value\n/);
      await s.shell.run('set on-error continue\ndsprop set nosuch\nthreads many', { source: 't' });
      expect(s.errors()).to.equal("t:2:12: dsprop, argument 2 'nosuch': error: data store 'family' has no property 'nosuch'\nt:3:9: threads, argument 1 'many': error: expected a number of threads\n");
    } finally {
      await s.close();
      dir.remove();
    }
  });
});
