import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { complete, Shell } from '../../lib/commands/index.js';
import { normalise } from './helpers.js';

/** A shell of a fresh in-process server, its output and errors collected. */
async function newShell() {
  const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
  let out = '';
  let err = '';
  const shell = new Shell({
    connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
    io: { write: (t) => void (out += t), error: (t) => void (err += t) },
  });
  return {
    server,
    shell,
    /** The output so far (timings as <t>), and forgets it. */
    take(): string {
      const text = normalise(out);
      out = '';
      return text;
    },
    /** Resolves once the output holds `text`. */
    async until(text: string): Promise<void> {
      while (!out.includes(text)) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    errors: () => err,
    close: async () => {
      await shell.close();
      await server.shutdown();
    },
  };
}

const LIBRARY = `dstore create library
prefix ex: <http://example.com/>
import ! ex:b1 ex:owner ex:ann .
`;

const EX = 'http://example.com/';

describe('shell: deltaquery and deltaqueryanswer', () => {
  it('register, list, show and deregister delta queries; the answers they keep are listed and printed', async () => {
    const s = await newShell();
    try {
      await s.shell.run(LIBRARY);
      s.take();
      const result = await s.shell.run(
        [
          'deltaquery register owners additions-max-size 5 deletions-max-size unlimited ! SELECT * WHERE { ?b ex:owner ?o }',
          'deltaquery register counts text/csv ! SELECT (COUNT(*) AS ?n) WHERE { ?b ex:owner ?o }',
          'deltaquery list',
          'deltaquery show owners',
          'import ! ex:b2 ex:owner ex:bob .',
          'import - ! ex:b1 ex:owner ex:ann .',
          'deltaqueryanswer list',
          'deltaqueryanswer list name owners type additions from 3',
          'deltaqueryanswer show owners 3 additions',
          'set query.answer-format text/csv',
          'deltaqueryanswer show owners 4 deletion',
          'set query.answer-format table',
          'deltaquery deregister owners',
          'deltaquery deregister counts',
          'deltaquery list',
        ].join('\n'),
        { source: 's' },
      );
      expect(s.errors()).to.equal('');
      expect(result.status).to.equal('completed');
      expect(s.take()).to.equal(
        [
          "delta query 'owners' registered: its answer's changes are computed from the change log",
          "delta query 'counts' registered: its answer's changes are computed by re-running it (the operator extend)",
          'counts',
          'owners',
          ' Property           | Value',
          '--------------------+-----------------------------------',
          ' name               | owners',
          ' query              | SELECT * WHERE { ?b ex:owner ?o }',
          ' role               | admin',
          ' variables          | ?b ?o',
          ' computation        | incremental',
          ' fact-domain        | all',
          ' evaluation-mode    | delta',
          ' snapshots-max-size | 1',
          ' additions-max-size | 5',
          ' deletions-max-size | unlimited',
          ' registered-at      | 2',
          ' version            | 2',
          '1 fact (1 new) in <t>',
          '1 fact (1 deleted) in <t>',
          ' Name   | Version | Type      | Rows',
          '--------+---------+-----------+------',
          ' counts | 4       | additions | 1',
          ' counts | 4       | deletions | 1',
          ' owners | 3       | additions | 1',
          ' owners | 3       | deletions | 0',
          ' owners | 4       | additions | 0',
          ' owners | 4       | deletions | 1',
          ' Name   | Version | Type      | Rows',
          '--------+---------+-----------+------',
          ' owners | 3       | additions | 1',
          ' owners | 4       | additions | 0',
          ' ?b    | ?o',
          '-------+--------',
          ' ex:b2 | ex:bob',
          '1 answer',
          'b,o',
          `${EX}b1,${EX}ann`,
          '1 answer',
          "delta query 'owners' deregistered",
          "delta query 'counts' deregistered",
          'no delta queries',
          '',
        ].join('\n'),
      );
    } finally {
      await s.close();
    }
  });

  it('watch prints the whole answer, then each version\'s added and removed rows, until the count given', async () => {
    const s = await newShell();
    try {
      await s.shell.run(LIBRARY + 'deltaquery register owners ! SELECT * WHERE { ?b ex:owner ?o }');
      s.take();
      const writer = s.shell.sc.newDataStoreConnection('library');
      try {
        const watching = s.shell.run('deltaquery watch 2 owners');
        await s.until('answer at version');
        await writer.importData('ADD', `<${EX}b2> <${EX}owner> <${EX}bob> .`);
        await writer.importData('DELETE', `<${EX}b1> <${EX}owner> <${EX}ann> .`);
        const result = await watching;
        expect(s.errors()).to.equal('');
        expect(result.status).to.equal('completed');
        expect(s.take()).to.equal(
          [
            'answer at version 2: 1 row',
            ' ?b    | ?o',
            '-------+--------',
            ' ex:b1 | ex:ann',
            'version 3: 1 added, 0 removed',
            '   | ?b    | ?o',
            '---+-------+--------',
            ' + | ex:b2 | ex:bob',
            'version 4: 0 added, 1 removed',
            '   | ?b    | ?o',
            '---+-------+--------',
            ' - | ex:b1 | ex:ann',
            'watch ended after 2 changes',
            '',
          ].join('\n'),
        );
      } finally {
        writer.close();
      }
    } finally {
      await s.close();
    }
  });

  it('watch of a query text after ! prints in query.answer-format and ends when the shell is interrupted', async () => {
    const s = await newShell();
    try {
      await s.shell.run(LIBRARY + 'set query.answer-format text/csv');
      s.take();
      const writer = s.shell.sc.newDataStoreConnection('library');
      try {
        const watching = s.shell.run('deltaquery watch ! SELECT ?o WHERE { ?b ex:owner ?o }');
        await s.until('answer at version');
        await writer.importData('ADD', `<${EX}b2> <${EX}owner> <${EX}bob> .`);
        await s.until('deletions:');
        s.shell.interrupt();
        const result = await watching;
        expect(result.status).to.equal('interrupted');
        expect(s.take()).to.equal(['answer at version 2: 1 row', 'o', `${EX}ann`, 'version 3: 1 added, 0 removed', 'additions:', 'o', `${EX}bob`, 'deletions:', 'o', ''].join('\n'));
        // the watch's query went with it
        expect(await s.shell.store().listDeltaQueries()).to.deep.equal([]);
      } finally {
        writer.close();
      }
    } finally {
      await s.close();
    }
  });

  it('refuses wrong arguments naming the word at fault, and reports what the store refuses', async () => {
    const s = await newShell();
    try {
      await s.shell.run(LIBRARY + 'deltaquery register owners ! SELECT * WHERE { ?b ex:owner ?o }');
      const cases: Array<[string, RegExp]> = [
        ['deltaquery', /deltaquery needs a subcommand: list, show, register, deregister or watch/],
        ['deltaquery frobnicate', /argument 1 'frobnicate'.*unknown subcommand 'frobnicate'/],
        ['deltaquery register q additions-max-size lots ! SELECT * WHERE { ?s ?p ?o }', /argument 4 'lots'.*'lots' is not a size \(a number, none or unlimited\)/],
        ['deltaquery register q colour red ! SELECT * WHERE { ?s ?p ?o }', /argument 3 'colour'.*unknown parameter 'colour'/],
        ['deltaquery register q evaluation-mode eager ! SELECT * WHERE { ?s ?p ?o }', /unknown evaluation mode 'eager' \(delta or snapshot\)/],
        ['deltaquery register q', /give the query after !, or a file holding it/],
        ['deltaquery register q text/nonsense ! SELECT * WHERE { ?s ?p ?o }', /'text\/nonsense' is not an answer format/],
        ['deltaquery register owners ! SELECT * WHERE { ?s ?p ?o }', /argument 2 'owners'.*owners/],
        ['deltaquery register q ! ASK { ?s ?p ?o }', /SELECT/],
        ['deltaquery register q queries/q.rq', /this shell has no file access \(give the query after !\)/],
        ['deltaquery show nosuch', /argument 2 'nosuch'.*nosuch/],
        ['deltaquery watch nosuch', /argument 2 'nosuch'.*nosuch/],
        ['deltaqueryanswer show owners 9 additions', /argument 3 '9'.*delta query 'owners' keeps no additions at version 9/],
        ['deltaqueryanswer show owners 2 sideways', /unknown answer type 'sideways' \(snapshot, additions or deletions\)/],
        ['deltaqueryanswer list colour red', /unknown criterion 'colour' \(name, from, to or type\)/],
      ];
      for (const [command, expected] of cases) {
        const before = s.errors().length;
        const result = await s.shell.run(command);
        expect(result.status, command).to.equal('aborted');
        expect(s.errors().slice(before), command).to.match(expected);
      }
      s.take();
      await s.shell.run('deltaquery list');
      expect(s.take()).to.equal('owners\n');
    } finally {
      await s.close();
    }
  });

  it('completes subcommands and the names of the active store\'s delta queries', async () => {
    const s = await newShell();
    try {
      await s.shell.run(LIBRARY + 'deltaquery register owners ! SELECT * WHERE { ?b ex:owner ?o }\ndeltaquery register overdue ! SELECT * WHERE { ?b ex:due ?d }');
      expect(await complete(s.shell, 'deltaquery re')).to.deep.equal([['register '], 're']);
      expect(await complete(s.shell, 'deltaquery show o')).to.deep.equal([['overdue ', 'owners '], 'o']);
      expect(await complete(s.shell, 'deltaquery watch 3 ow')).to.deep.equal([['owners '], 'ow']);
      expect(await complete(s.shell, 'deltaquery deregister ov')).to.deep.equal([['overdue '], 'ov']);
      expect(await complete(s.shell, 'deltaqueryanswer list name ')).to.deep.equal([['overdue ', 'owners '], '']);
      expect(await complete(s.shell, 'deltaqueryanswer show ow')).to.deep.equal([['owners '], 'ow']);
      expect(await complete(s.shell, 'delta')).to.deep.equal([['deltaquery ', 'deltaqueryanswer '], 'delta']);
    } finally {
      await s.close();
    }
  });
});
