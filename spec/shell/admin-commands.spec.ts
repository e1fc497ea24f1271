import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { AuthenticationError, ConnectionFactory, Server } from '../../lib/index.js';
import { Shell, type ShellIO } from '../../lib/commands/index.js';
import { startEndpoint } from '../../lib/http/index.js';
import { basic, http, normalise, tempDir } from './helpers.js';

/** A shell of a fresh in-process server (sandboxed in `root` when given), its output and errors collected. */
async function newShell(options: { readonly root?: string; readonly io?: Partial<ShellIO> } = {}) {
  const server = await Server.create({
    roleName: 'admin',
    password: 'pw',
    parameters: { 'password-hashing': 'fast', 'sandbox-directory': options.root ?? '/', 'allowed-url-schemes-on-import': 'file' },
  });
  let out = '';
  let err = '';
  const shell = new Shell({
    connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
    io: { write: (t) => void (out += t), error: (t) => void (err += t), ...options.io },
  });
  return {
    server,
    shell,
    /** The output since the last call. */
    output: (): string => {
      const text = out;
      out = '';
      return normalise(text);
    },
    /** The errors since the last call. */
    errors: (): string => {
      const text = err;
      err = '';
      return text;
    },
    close: async (): Promise<void> => {
      await shell.close();
      await server.shutdown();
    },
  };
}

type TestShell = Awaited<ReturnType<typeof newShell>>;

/** Runs a script that must complete without errors; returns its output. */
async function ok(s: TestShell, script: string): Promise<string> {
  const result = await s.shell.run(script, { source: 'admin.qlog' });
  expect(s.errors()).to.equal('');
  expect(result).to.deep.include({ status: 'completed', errors: 0 });
  return s.output();
}

/** Runs one command that must fail; returns the error line. */
async function fails(s: TestShell, command: string): Promise<string> {
  const result = await s.shell.run(command, { source: 'admin.qlog' });
  expect(result.status).to.equal('aborted');
  return s.errors();
}

describe('shell: administration commands (tupletable, stats, dsource, password, tstamp)', () => {
  it('lists the new commands in help, in alphabetical order, and describes each', async () => {
    const s = await newShell();
    try {
      const help = await ok(s, 'help');
      const names = help
        .split('\n')
        .filter((l) => /^ {2}\S/.test(l) && !l.includes('SELECT …'))
        .map((l) => l.trim().split(/\s+/)[0]!);
      expect(names).to.include.members(['dsource', 'password', 'stats', 'tstamp', 'tupletable']);
      expect(names).to.deep.equal([...names].sort((a, b) => a.localeCompare(b)));
      const detail = await ok(s, 'help tupletable stats dsource password tstamp');
      expect(detail).to.contain('tupletable list | show <name> | create <name> [<parameter> <value>]... | delete <name> [force]');
      expect(detail).to.contain('stats list | show <name> | create <name> [<parameter> <value>]... | delete <name> [force] | update [<name>]');
      expect(detail).to.contain('dsource list | show <source> [<table>]');
      expect(detail).to.contain('password [<old-password> <new-password>]');
      expect(detail).to.contain('tstamp [<variable>]');
    } finally {
      await s.close();
    }
  });

  describe('tupletable', () => {
    it('lists, creates, describes, fills and deletes tuple tables of the active store', async () => {
      const questions: string[] = [];
      let answer = false;
      const s = await newShell({ io: { confirm: (q) => (questions.push(q), Promise.resolve(answer)) } });
      try {
        await ok(s, 'dstore create s');
        const list = await ok(s, 'tupletable list');
        expect(list.split('\n')[0]).to.match(/^ Name +\| Type +\| ID +\| MinArity \| MaxArity$/);
        expect(list).to.match(/ DefaultTriples +\| memory +\| \d+ +\| 3 +\| 3\n/);
        expect(list).to.match(/ Quads +\| memory +\| \d+ +\| 4 +\| 4\n/);

        expect(await ok(s, 'tupletable create Pair arity 2')).to.equal("tuple table 'Pair' created in data store 's'\n");
        expect(await ok(s, 'tupletable list')).to.match(/ Pair +\| memory +\| \d+ +\| 2 +\| 2\n/);
        await ok(s, 'import ! Pair(<http://e.com/a>, <http://e.com/b>) .');
        const shown = await ok(s, 'tupletable show Pair');
        expect(shown).to.match(/ name +\| Pair\n/);
        expect(shown).to.match(/ min-arity +\| 2\n/);
        expect(shown).to.match(/ facts +\| 1\n/);
        expect(await ok(s, 'SELECT ?x ?y WHERE { TT Pair { ?x ?y } }')).to.contain('<http://e.com/a> | <http://e.com/b>');

        // delete asks; a no keeps the table, a yes deletes it
        expect(await ok(s, 'tupletable delete Pair')).to.equal('cancelled\n');
        expect(questions).to.deep.equal(["delete tuple table 'Pair' and its facts?"]);
        expect(await ok(s, 'tupletable list')).to.contain(' Pair ');
        answer = true;
        expect(await ok(s, 'tupletable delete Pair')).to.equal("tuple table 'Pair' deleted from data store 's'\n");
        expect(await ok(s, 'tupletable list')).to.not.contain(' Pair ');
      } finally {
        await s.close();
      }
    });

    it('names the command, argument and position of its failures', async () => {
      const s = await newShell();
      try {
        expect(await fails(s, 'tupletable list')).to.equal(
          "admin.qlog:1:1: tupletable: error: no data store is active: create one with 'dstore create <name>' or choose one with 'active <name>'\n",
        );
        await ok(s, 'dstore create s');
        expect(await fails(s, 'tupletable')).to.contain('tupletable: error: tupletable needs a subcommand: list, show, create, delete');
        expect(await fails(s, 'tupletable drop T')).to.equal("admin.qlog:1:12: tupletable, argument 1 'drop': error: unknown subcommand 'drop' (list, show, create, delete)\n");
        expect(await fails(s, 'tupletable show Nope')).to.equal("admin.qlog:1:17: tupletable, argument 2 'Nope': UnknownResourceError: tuple table 'Nope' does not exist in data store 's'\n");
        expect(await fails(s, 'tupletable create T arity')).to.equal("admin.qlog:1:21: tupletable, argument 3 'arity': error: parameter 'arity' has no value (give <key> <value> pairs)\n");
        expect(await fails(s, 'tupletable create T')).to.contain("tupletable, argument 2 'T': BadRequestError: tuple table 'T' needs an arity");
        // a shell that cannot ask needs force
        await ok(s, 'tupletable create T arity 1');
        expect(await fails(s, 'tupletable delete T')).to.contain("'tupletable' asks for confirmation, and this shell cannot ask: add 'force'");
        expect(await fails(s, 'tupletable delete T now')).to.contain("tupletable, argument 3 'now': error: unexpected argument 'now'");
        // not inside a transaction
        expect(await fails(s, 'begin\ntupletable create U arity 1')).to.match(/^admin\.qlog:2:19: tupletable, argument 2 'U': TransactionError: .*tuple table/);
        expect(s.output()).to.contain("transaction on data store 's' rolled back: the script stopped without commit");
        expect(await ok(s, 'tupletable list')).to.not.contain(' U ');
        expect(await ok(s, 'tupletable delete T force')).to.equal("tuple table 'T' deleted from data store 's'\n");
      } finally {
        await s.close();
      }
    });
  });

  describe('stats', () => {
    it('creates, lists, shows, updates and deletes the statistics of the active store', async () => {
      const s = await newShell();
      try {
        await ok(s, 'dstore create s');
        // a new store has the column counts
        expect(await ok(s, 'stats list')).to.match(/^ Name +\| Parameters\n-+\+-+\n column-counts +\|\n$/);
        expect(await ok(s, 'stats delete column-counts force')).to.equal("statistics 'column-counts' deleted from data store 's'\n");
        expect(await ok(s, 'stats list')).to.equal('no statistics\n');
        expect(await ok(s, 'stats create column-counts')).to.equal("statistics 'column-counts' created in data store 's'\n");
        expect(await ok(s, 'stats list')).to.match(/^ Name +\| Parameters\n-+\+-+\n column-counts +\|\n$/);
        expect(await ok(s, 'stats show column-counts')).to.match(/ name +\| column-counts\n$/);
        expect(await ok(s, 'stats update')).to.equal('statistics up to date\n');
        expect(await ok(s, 'stats update column-counts')).to.equal("statistics 'column-counts' up to date\n");
        expect(await ok(s, 'stats delete column-counts force')).to.equal("statistics 'column-counts' deleted from data store 's'\n");
        expect(await ok(s, 'stats list')).to.equal('no statistics\n');
      } finally {
        await s.close();
      }
    });

    it('reports unknown and duplicate statistics and bad parameters, naming the argument', async () => {
      const s = await newShell();
      try {
        await ok(s, 'dstore create s');
        expect(await fails(s, 'stats create histograms')).to.equal(
          "admin.qlog:1:14: stats, argument 2 'histograms': BadRequestError: unknown statistics 'histograms' (known: column-counts)\n",
        );
        expect(await fails(s, 'stats create column-counts buckets 10')).to.contain("stats, argument 2 'column-counts': BadRequestError: statistics 'column-counts' takes no parameters");
        expect(await fails(s, 'stats show nope')).to.equal("admin.qlog:1:12: stats, argument 2 'nope': UnknownResourceError: statistics 'nope' do not exist in data store 's'\n");
        expect(await fails(s, 'stats update nope')).to.contain("stats, argument 2 'nope': UnknownResourceError: statistics 'nope' do not exist");
        expect(await fails(s, 'stats delete nope force')).to.contain("stats, argument 2 'nope': UnknownResourceError");
        expect(await fails(s, 'stats delete column-counts')).to.contain("'stats' asks for confirmation, and this shell cannot ask: add 'force'");
        expect(await fails(s, 'stats frobnicate')).to.contain("stats, argument 1 'frobnicate': error: unknown subcommand 'frobnicate' (list, show, create, delete, update)");
        const duplicate = await s.shell.run('set on-error continue-if-exists\nstats create column-counts\necho went on', { source: 'admin.qlog' });
        expect(duplicate.status).to.equal('completed');
        expect(s.errors()).to.contain("stats, argument 2 'column-counts': DuplicateResourceError");
        expect(s.output()).to.contain('went on');
      } finally {
        await s.close();
      }
    });
  });

  describe('dsource', () => {
    const dir = tempDir('quadlog-dsource-');

    before(() => {
      writeFileSync(join(dir.path, 'people.csv'), 'id,name\n1,Beverly\n2,Thomas\n3,Urs\n');
    });

    after(() => dir.remove());

    it('lists no sources on a new store, and names the source when the type is unknown or missing', async () => {
      const s = await newShell({ root: dir.path });
      try {
        await ok(s, 'dstore create s');
        expect(await ok(s, 'dsource list')).to.equal('no data sources\n');
        expect(await fails(s, 'dsource register src type Nonsense file people.csv')).to.match(/^admin\.qlog:1:18: dsource, argument 2 'src': BadRequestError: .*'Nonsense'/);
        expect(await fails(s, 'dsource register src file people.csv')).to.equal(
          "admin.qlog:1:18: dsource, argument 2 'src': error: the data source's type is missing: give 'type <type>' among the parameters (syntax: dsource list | show <source> [<table>] | tables <source> | register <source> type <type> [<parameter> <value>]... | sample <source> <table> [<size>] | deregister <source>)\n",
        );
        for (const command of ['dsource show nope', 'dsource tables nope', 'dsource sample nope records', 'dsource deregister nope']) {
          expect(await fails(s, command)).to.match(/dsource, argument 2 'nope': UnknownResourceError: .*'nope'/);
        }
        expect(await fails(s, 'dsource sample src records many')).to.contain("dsource, argument 4 'many': error: the sample size 'many' is not a number of rows");
        expect(await ok(s, 'dsource list')).to.equal('no data sources\n');
      } finally {
        await s.close();
      }
    });

    it('registers a delimited file, describes and samples it, mounts a tuple table on it and deregisters it', async () => {
      const s = await newShell({ root: dir.path });
      try {
        await ok(s, 'dstore create s');
        expect(await ok(s, 'dsource register people type delimitedFile file people.csv header true')).to.equal("data source 'people' registered in data store 's'\n");
        expect(await ok(s, 'dsource list')).to.match(/ people +\| delimitedFile +\| file=people\.csv&header=true +\| 1\n$/);
        expect(await ok(s, 'dsource show people')).to.match(/ parameters\.file +\| people\.csv\n/);
        expect(await ok(s, 'dsource tables people')).to.match(/ records +\| 2 +\| /);
        const columns = await ok(s, 'dsource show people records');
        expect(columns).to.match(/ 1 +\| id +\| /);
        expect(columns).to.match(/ 2 +\| name +\| /);
        expect(await ok(s, 'dsource sample people records 2')).to.equal(' id  | name\n-----+-----------\n "1" | "Beverly"\n "2" | "Thomas"\n2 rows\n');
        expect(await ok(s, 'dsource sample people records')).to.contain('3 rows\n');

        await ok(s, 'tupletable create People data-source-name people columns 2 1 "http://ex.org/p/{id}" 1.datatype iri 2 "{name}"');
        expect(await ok(s, 'SELECT ?n WHERE { TT People { <http://ex.org/p/2> ?n } }')).to.contain('"Thomas"');
        expect(await fails(s, 'dsource deregister people')).to.match(/dsource, argument 2 'people': ResourceInUseError/);
        await ok(s, 'tupletable delete People force');
        expect(await ok(s, 'dsource deregister people')).to.equal("data source 'people' deregistered from data store 's'\n");
        expect(await ok(s, 'dsource list')).to.equal('no data sources\n');
      } finally {
        await s.close();
      }
    });
  });

  describe('password', () => {
    it("changes the shell role's password from a script, and the shell stays logged in", async () => {
      const s = await newShell();
      try {
        expect(await ok(s, 'password pw s3cret')).to.equal("password of role 'admin' changed\n");
        const sc = await ConnectionFactory.newServerConnection(s.server.url, 'admin', 's3cret');
        sc.close();
        let refused: unknown;
        await ConnectionFactory.newServerConnection(s.server.url, 'admin', 'pw').then((c) => c.close(), (e: unknown) => (refused = e));
        expect(refused).to.be.instanceOf(AuthenticationError);
        expect(await ok(s, 'role\ndstore create after')).to.equal("admin\ndata store 'after' created and made active\n");
      } finally {
        await s.close();
      }
    });

    it('refuses a wrong current password, an empty new one, and asking where it cannot ask', async () => {
      const s = await newShell();
      try {
        expect(await fails(s, 'password wrong other')).to.match(/^admin\.qlog:1:10: password, argument 1 'wrong': AuthenticationError: /);
        expect(await fails(s, 'password pw ""')).to.equal("admin.qlog:1:13: password, argument 2 '\"\"': error: the new password must not be empty: the password was not changed\n");
        expect(await fails(s, 'password pw')).to.contain("password, argument 1 'pw': error: the new password is missing");
        expect(await fails(s, 'password a b c')).to.contain("password, argument 3 'c': error: unexpected argument 'c'");
        expect(await fails(s, 'password')).to.contain("'password' asks for the passwords, and this shell cannot ask");
        // nothing changed
        (await ConnectionFactory.newServerConnection(s.server.url, 'admin', 'pw')).close();
      } finally {
        await s.close();
      }
    });

    it('asks for the passwords at a terminal, the new one twice', async () => {
      const asked: string[] = [];
      let answers: string[] = [];
      const s = await newShell({ io: { askPassword: (q) => (asked.push(q), Promise.resolve(answers.shift() ?? '')) } });
      try {
        answers = ['pw', 'n1', 'n2'];
        expect(await fails(s, 'password')).to.contain('password: error: the new passwords differ: the password was not changed');
        expect(asked).to.deep.equal(["current password of role 'admin': ", 'new password: ', 'again: ']);
        answers = ['pw', 'n1', 'n1'];
        expect(await ok(s, 'password')).to.equal("password of role 'admin' changed\n");
        (await ConnectionFactory.newServerConnection(s.server.url, 'admin', 'n1')).close();
      } finally {
        await s.close();
      }
    });
  });

  describe('over HTTP', () => {
    it('runs the commands in a shell of the endpoint: password takes both passwords there, and refuses to ask', async () => {
      const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast' } });
      const endpoint = await startEndpoint(server, { port: 0, objectKeepAliveTime: 60_000 });
      try {
        const run = (role: string, pw: string, script: string): ReturnType<typeof http> =>
          http(`${endpoint.url}/commands`, 'POST', { authorization: basic(role, pw), 'content-type': 'text/plain' }, script);
        const refused = await run('admin', 'pw', 'password');
        expect(refused.body).to.contain("password: error: 'password' asks for the passwords, and this shell cannot ask");
        expect(refused.trailers['service-shell-status']).to.equal('aborted-non-duplicate');
        const answer = await run('admin', 'pw', 'dstore create s\ntupletable create T arity 1\nstats list\ndsource list\npassword pw changed');
        expect(normalise(answer.body)).to.match(
          /^data store 's' created and made active\ntuple table 'T' created in data store 's'\n Name +\| Parameters\n-+\+-+\n column-counts +\|\nno data sources\npassword of role 'admin' changed\n$/,
        );
        expect(answer.trailers['service-shell-status']).to.equal('running');
        expect((await run('admin', 'pw', 'role')).status).to.equal(401);
        expect((await run('admin', 'changed', 'active s\ntupletable show T')).body).to.match(/ name +\| T\n/);
      } finally {
        await endpoint.close();
        await server.shutdown();
      }
    });
  });

  describe('tstamp', () => {
    it('prints the time, or stores it in a variable', async () => {
      const s = await newShell();
      try {
        const before = Date.now();
        const printed = (await ok(s, 'tstamp')).trim();
        expect(printed).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(Date.parse(printed)).to.be.within(before - 1, Date.now());
        expect(await ok(s, 'tstamp start')).to.equal('');
        const stored = (await ok(s, 'echo $(start)')).trim();
        expect(Date.parse(stored)).to.be.at.least(Date.parse(printed));
        expect(await fails(s, 'tstamp version')).to.equal("admin.qlog:1:8: tstamp, argument 1 'version': error: variable 'version' cannot be set\n");
        expect(await fails(s, 'tstamp a b')).to.contain("tstamp, argument 2 'b': error: unexpected argument 'b'");
      } finally {
        await s.close();
      }
    });
  });
});
