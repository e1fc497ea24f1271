import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { expect } from 'chai';
import { ConnectionFactory, Server } from '../../lib/index.js';
import { complete, LineAssembler, Shell, splitScript, splitWords, type ShellIO } from '../../lib/commands/index.js';
import { parseShellArguments } from '../../lib/shell/shell-command.js';
import { COMMAND_LIST, EXPECTED_OUTPUT, FAILING_LIST, normalise, runCli, tempDir } from './helpers.js';

/** A shell of a fresh in-process server, its output collected. */
async function newShell(options: { readonly root?: string; readonly io?: Partial<ShellIO> } = {}): Promise<{ shell: Shell; output: () => string; errors: () => string; close(): Promise<void> }> {
  const server = await Server.create({ roleName: 'admin', password: 'pw', parameters: { 'password-hashing': 'fast', 'sandbox-directory': options.root ?? '/', 'allowed-url-schemes-on-import': 'file' } });
  let out = '';
  let err = '';
  const shell = new Shell({
    connection: await ConnectionFactory.newServerConnection(server.url, 'admin', 'pw'),
    io: { write: (t) => void (out += t), error: (t) => void (err += t), ...options.io },
    files: { readText: async (p) => (await import('node:fs/promises')).readFile(p, 'utf8'), createWriter: () => Promise.reject(new Error('no files')) },
    variables: options.root !== undefined ? { 'dir.root': options.root } : {},
  });
  return {
    shell,
    output: () => out,
    errors: () => err,
    close: async () => {
      await shell.close();
      await server.shutdown();
    },
  };
}

describe('shell: the command language', () => {
  it('splits scripts into commands: continuation lines, comments and blank lines', () => {
    const commands = splitScript('# comment\n\necho a \\\n  b\n  # another\nSELECT * \\\nWHERE { ?s ?p ?o }\n');
    expect(commands.map((c) => [c.line, c.text])).to.deep.equal([
      [3, 'echo a \n  b'],
      [6, 'SELECT * \nWHERE { ?s ?p ?o }'],
    ]);
    const assembler = new LineAssembler();
    expect(assembler.push('echo x \\')).to.equal(undefined);
    expect(assembler.pending).to.equal(true);
    expect(assembler.push('y')?.text).to.equal('echo x \ny');
  });

  it('splits words: quotes, IRIs, comments and $(variables), keeping positions', () => {
    const words = splitWords(`import "a b.ttl" 'c $(x)' <http://e.com/$(x)> $(x)z # the rest`, (v) => (v === 'x' ? 'X' : undefined));
    expect(words.map((w) => [w.text, w.start, w.quoted, w.iri])).to.deep.equal([
      ['import', 0, false, false],
      ['a b.ttl', 7, true, false],
      ['c $(x)', 17, true, false],
      ['http://e.com/X', 26, false, true],
      ['Xz', 46, false, false],
    ]);
    expect(() => splitWords('echo $(nope)', () => undefined)).to.throw("variable 'nope' is not set");
    expect(() => splitWords('echo "open', () => undefined)).to.throw('unterminated');
  });

  it('runs the command list, printing answers as tables', async () => {
    const s = await newShell();
    try {
      const result = await s.shell.run(COMMAND_LIST, { source: 'list.qlog' });
      expect(s.errors()).to.equal('');
      expect(result).to.deep.include({ status: 'completed', errors: 0 });
      expect(normalise(s.output())).to.equal(EXPECTED_OUTPUT);
    } finally {
      await s.close();
    }
  });

  it('names the command, the argument and the position of a failure; stops the script and rolls back its transaction', async () => {
    const s = await newShell();
    try {
      const result = await s.shell.run(FAILING_LIST, { source: 'fail.qlog' });
      expect(result.status).to.equal('aborted');
      expect(s.errors()).to.equal("fail.qlog:4:10: import, argument 2 'nosuch:graph': error: unknown prefix 'nosuch:' in graph name 'nosuch:graph'\n");
      expect(s.output()).to.contain("transaction on data store 's' rolled back: the script stopped without commit");
      expect(s.output()).to.not.contain('not reached');
      // nothing of the transaction stayed
      await s.shell.run('SELECT * WHERE { ?s ?p ?o }');
      expect(s.output()).to.contain('0 answers');
    } finally {
      await s.close();
    }
  });

  it('goes on after failures when on-error says so (continue, continue-if-exists)', async () => {
    const s = await newShell();
    try {
      const r1 = await s.shell.run('set on-error continue\ndstore create a\nbogus\necho after bogus', { source: 'c' });
      expect(r1).to.deep.include({ status: 'completed', errors: 1 });
      expect(s.errors()).to.contain("c:3:1: bogus: error: unknown command 'bogus'");
      expect(s.output()).to.contain('after bogus');
      const r2 = await s.shell.run('set on-error continue-if-exists\ndstore create a\necho after duplicate\nbogus\necho never', { source: 'd' });
      expect(r2.status).to.equal('aborted');
      expect(s.errors()).to.match(/d:2:15: dstore, argument 2 'a': DuplicateResourceError: /);
      expect(s.output()).to.contain('after duplicate');
      expect(s.output()).to.not.contain('never');
    } finally {
      await s.close();
    }
  });

  it('runs scripts with exec: arguments as $(1), its own on-error, a failure stopping the caller', async () => {
    const dir = tempDir('quadlog-shell-exec-');
    const s = await newShell({ root: dir.path });
    try {
      writeFileSync(join(dir.path, 'inner.qlog'), 'set on-error continue\necho inner $(1) $(2)\nbogus\necho inner goes on\n');
      writeFileSync(join(dir.path, 'failing.qlog'), 'echo before\nbogus\necho inner after\n');
      const r = await s.shell.run('exec inner.qlog one two\necho $(on-error)\nexec 2 failing.qlog\necho outer after', { source: 'outer' });
      expect(r.status).to.equal('aborted');
      expect(s.output()).to.contain('inner one two\ninner goes on\nstop\nbefore\n');
      expect(s.output()).to.not.contain('inner after');
      expect(s.output()).to.not.contain('outer after');
      expect(s.errors()).to.contain(`${join(dir.path, 'failing.qlog')}:2:1: bogus: error: unknown command 'bogus'`);
    } finally {
      await s.close();
      dir.remove();
    }
  });

  it('imports files (any format, gzip) through the API, which enforces the sandbox', async () => {
    const dir = tempDir('quadlog-shell-import-');
    const s = await newShell({ root: dir.path });
    try {
      writeFileSync(join(dir.path, 'data.ttl.gz'), gzipSync('<http://e.com/a> <http://e.com/p> <http://e.com/b> .\n'));
      writeFileSync(join(dir.path, 'rules.dlog'), '[?y, <http://e.com/q>, ?x] :- [?x, <http://e.com/p>, ?y] .\n');
      await s.shell.run('dstore create s\nimport data.ttl.gz rules.dlog\nset import.monitor summary\nimport - data.ttl.gz\nASK { <http://e.com/b> <http://e.com/q> ?x }', { source: 'i' });
      expect(s.errors()).to.equal('');
      expect(normalise(s.output())).to.contain('1 fact (1 new), 1 rule (1 new) in <t>\n');
      expect(normalise(s.output())).to.match(/import data\.ttl\.gz done: 100%, \d+ B of \d+ B, 1 fact, /);
      expect(normalise(s.output())).to.contain('1 fact (1 deleted) in <t>\nfalse\n');
      const r = await s.shell.run('import /etc/hostname', { source: 'j' });
      expect(r.status).to.equal('aborted');
      expect(s.errors()).to.match(/j:1:8: import, argument 1 '\/etc\/hostname': AccessDeniedError: cannot import from 'file:\/\/\/etc\/hostname': the file is outside the sandbox directory/);
    } finally {
      await s.close();
      dir.remove();
    }
  });

  it('refuses what would prompt when it cannot ask, and asks when it can', async () => {
    const s = await newShell();
    try {
      await s.shell.run('dstore create s\ndstore delete s\nrole create r', { source: 'p', interactive: true });
      expect(s.errors()).to.contain("'dstore' asks for confirmation, and this shell cannot ask: add 'force'");
      expect(s.errors()).to.contain("'role create' asks for the password");
      const questions: string[] = [];
      const asking = await newShell({ io: { confirm: (q) => (questions.push(q), Promise.resolve(true)), askPassword: () => Promise.resolve('pw2') } });
      try {
        await asking.shell.run('dstore create s\ndstore delete s\nrole create r\ndstore list');
        expect(asking.errors()).to.equal('');
        expect(questions).to.deep.equal(["delete data store 's' and everything in it?"]);
        expect(asking.output()).to.contain("role 'r' created").and.contain('no data stores');
      } finally {
        await asking.close();
      }
    } finally {
      await s.close();
    }
  });

  it('explain prints the proof tree of a fact (type and limits optional)', async () => {
    const s = await newShell();
    try {
      await s.shell.run('dstore create s\nprefix : <http://e.com/>\nINSERT DATA { :a :p :b . :b :p :c }', { source: 'e' });
      await s.shell.store().importData('ADD', '@prefix : <http://e.com/> .\n[?x, :anc, ?y] :- [?x, :p, ?y] .\n[?x, :anc, ?z] :- [?x, :anc, ?y], [?y, :anc, ?z] .', { mediaType: 'application/x.datalog' });
      await s.shell.run('explain [:a, :anc, :c]\nexplain to-explicit 0 [:a, :anc, :c]\nexplain [:c, :anc, :a]', { source: 'e' });
      expect(s.errors()).to.equal('');
      const out = s.output();
      expect(out).to.contain('[:a, :anc, :c]    [derived, proof height 2]\n  <= [:a, :anc, :c] :- [:a, :anc, :b], [:b, :anc, :c] .\n    [:a, :anc, :b]    [derived, proof height 1]');
      expect(out).to.contain('(incomplete: limits left parts of the explanation out)');
      expect(out).to.contain('[:c, :anc, :a]    [does not hold]');
      await s.shell.run('explain [:a, :anc', { source: 'e' });
      expect(s.errors()).to.contain("explain, argument 1 '[:a,': ParsingError: line 1: column 11: expected ',', found the end of the fact");
    } finally {
      await s.close();
    }
  });

  it('completes commands, stores, variables and prefixes', async () => {
    const s = await newShell();
    try {
      await s.shell.run('dstore create family\nprefix ex: <http://example.com/>');
      expect(await complete(s.shell, 'dst')).to.deep.equal([['dstore '], 'dst']);
      expect(await complete(s.shell, 'active fa')).to.deep.equal([['family '], 'fa']);
      expect(await complete(s.shell, 'set query.t')).to.deep.equal([['query.time-limit '], 'query.t']);
      expect(await complete(s.shell, 'SELECT * WHERE { ?s e')).to.deep.equal([['ex:'], 'e']);
      expect((await complete(s.shell, 'SEL'))[0]).to.deep.equal(['SELECT ']);
    } finally {
      await s.close();
    }
  });

  it('checks the values of its variables', async () => {
    const s = await newShell();
    try {
      await s.shell.run('set on-error sometimes', { interactive: true });
      await s.shell.run('set query.time-limit soon', { interactive: true });
      await s.shell.run('set version 2', { interactive: true });
      expect(s.errors()).to.contain("column 14: set, argument 2 'sometimes': error: invalid value 'sometimes' for 'on-error'");
      expect(s.errors()).to.contain("invalid value 'soon' for 'query.time-limit'");
      expect(s.errors()).to.contain("variable 'version' cannot be set");
    } finally {
      await s.close();
    }
  });
});

describe('shell: quadlog shell with a script', function () {
  this.timeout(60_000);

  it('takes a script with -f or from standard input, and prints the same', async () => {
    const dir = tempDir('quadlog-shell-cli-');
    try {
      writeFileSync(join(dir.path, 'list.qlog'), COMMAND_LIST);
      const [file, stdin] = await Promise.all([runCli(['shell', '-f', 'list.qlog'], { cwd: dir.path }), runCli(['shell'], { cwd: dir.path, input: COMMAND_LIST })]);
      expect(file.stderr).to.equal('');
      expect(file.code).to.equal(0);
      expect(normalise(file.stdout)).to.equal(EXPECTED_OUTPUT);
      expect(stdin.stderr).to.equal('');
      expect(stdin.code).to.equal(0);
      expect(normalise(stdin.stdout)).to.equal(EXPECTED_OUTPUT);
    } finally {
      dir.remove();
    }
  });

  it('stops a failing script with exit code 1, the position on standard error', async () => {
    const dir = tempDir('quadlog-shell-cli-');
    try {
      writeFileSync(join(dir.path, 'fail.qlog'), FAILING_LIST);
      writeFileSync(join(dir.path, 'args.qlog'), 'echo $(1)-$(2)\n');
      const [file, stdin, args] = await Promise.all([
        runCli(['shell', '-f', 'fail.qlog'], { cwd: dir.path }),
        runCli(['shell'], { cwd: dir.path, input: FAILING_LIST }),
        runCli(['shell', '-f', 'args.qlog', 'x', 'y'], { cwd: dir.path }),
      ]);
      expect(file.code).to.equal(1);
      expect(file.stderr).to.equal("fail.qlog:4:10: import, argument 2 'nosuch:graph': error: unknown prefix 'nosuch:' in graph name 'nosuch:graph'\n");
      expect(file.stdout).to.contain("rolled back").and.not.contain('not reached');
      expect(stdin.code).to.equal(1);
      expect(stdin.stderr).to.equal("stdin:4:10: import, argument 2 'nosuch:graph': error: unknown prefix 'nosuch:' in graph name 'nosuch:graph'\n");
      expect(args.stdout).to.equal('x-y\n');
    } finally {
      dir.remove();
    }
  });

  it('reads its options: role, read policy, remote endpoint', () => {
    expect(parseShellArguments([], {})).to.deep.include({ role: 'admin', endpoint: undefined, parameters: { 'sandbox-directory': '/', 'allowed-url-schemes-on-import': 'file,http,https' } });
    expect(parseShellArguments(['--role', 'me', '--sandbox-directory', '/srv', '-f', 's.qlog', 'a'], {})).to.deep.include({ role: 'me', script: 's.qlog', args: ['a'] });
    expect(parseShellArguments(['--endpoint', 'http://h:1'], { QUADLOG_ROLE: 'r', QUADLOG_PASSWORD: 'p' })).to.deep.include({ endpoint: 'http://h:1', role: 'r', password: 'p' });
    expect(() => parseShellArguments(['--endpoint', 'http://h:1'], {})).to.throw('--endpoint needs the password');
    expect(() => parseShellArguments(['--endpoint', 'ftp://h'], { QUADLOG_PASSWORD: 'p' })).to.throw("invalid --endpoint 'ftp://h'");
    expect(() => parseShellArguments(['--password', 'p'], {})).to.throw('--password is for --endpoint');
    expect(() => parseShellArguments(['stray'], {})).to.throw("unexpected argument 'stray'");
  });
});
