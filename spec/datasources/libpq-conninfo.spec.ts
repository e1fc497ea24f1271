import { expect } from 'chai';
import { BadRequestError } from '../../lib/index.js';
import { maskConnectionString, pgSettingsOf, tokenizeConnectionString } from '../../lib/datasources/libpq-conninfo.js';

describe('datasources: libpq connection strings', () => {
  it('reads keyword/value settings as libpq does: spaces around =, quotes, backslash escapes, the last of a repeated keyword', () => {
    expect(pgSettingsOf("host=127.0.0.1 port=5432 user=u password=p dbname=d", 's')).to.deep.equal({ host: '127.0.0.1', port: 5432, user: 'u', password: 'p', database: 'd' });
    expect(pgSettingsOf("  user = 'a b'\tpassword='it\\'s \\\\ ok' dbname=''  ", 's')).to.deep.equal({ user: 'a b', password: "it's \\ ok", database: '' });
    expect(pgSettingsOf('password=a\\ b user=x user=y', 's')).to.deep.equal({ password: 'a b', user: 'y' });
    expect(tokenizeConnectionString("a='x'b=y").map((s) => [s.keyword, s.value])).to.deep.equal([['a', 'x'], ['b', 'y']]);
    expect(pgSettingsOf('', 's')).to.deep.equal({});
  });

  it('maps the other supported keywords to the client', () => {
    expect(pgSettingsOf('hostaddr=10.0.0.1 host=db.example connect_timeout=1 sslmode=verify-full keepalives=0 keepalives_idle=30 application_name=q options=-cgeqo=off client_encoding=UTF8', 's')).to.deep.equal({
      host: '10.0.0.1',
      connectTimeoutMs: 2000,
      tls: 'full',
      keepAlive: false,
      keepAliveInitialDelayMillis: 30_000,
      application_name: 'q',
      options: '-cgeqo=off',
      client_encoding: 'UTF8',
    });
    expect(pgSettingsOf('sslmode=require', 's')).to.deep.equal({ tls: 'none' });
    expect(pgSettingsOf('sslmode=prefer', 's')).to.deep.equal({ tls: undefined });
    expect(pgSettingsOf('host=/var/run/postgresql', 's')).to.deep.equal({ host: '/var/run/postgresql' });
  });

  it('passes URIs through', () => {
    expect(pgSettingsOf('postgresql://u:p@h:5/d?sslmode=disable', 's')).to.deep.equal({ connectionString: 'postgresql://u:p@h:5/d?sslmode=disable' });
    expect(pgSettingsOf(' postgres://h/d', 's')).to.deep.equal({ connectionString: 'postgres://h/d' });
  });

  it('refuses the query parameters of a URI that would make the client read a file the caller names', () => {
    for (const [uri, name, at] of [
      ['postgresql://h/d?sslcert=/etc/shadow', 'sslcert', 18],
      ['postgresql://h/d?sslmode=require&sslkey=%2Fhome%2Fx%2Fkey', 'sslkey', 34],
      ['postgres://h/d?ssl%72ootcert=/keys/ca.pem', 'sslrootcert', 16],
    ] as const) {
      expect(() => pgSettingsOf(uri, 'src'), uri).to.throw(BadRequestError, `invalid connection-string of data source 'src' (at character ${at}): the libpq setting '${name}' is not supported`);
      try {
        pgSettingsOf(uri, 'src');
      } catch (e) {
        expect((e as Error).message).not.to.match(/shadow|%2F|ca\.pem/);
      }
    }
  });

  it('refuses errors naming the source, the position and the problem, without any value or unknown word', () => {
    const cases: Array<[string, string]> = [
      ["password='secret", "(at character 10): the quoted value of 'password' has no closing quote"],
      ['password=sec ret', "(at character 14): a keyword must be followed by '=' and a value"],
      ['password=sec secret=x', '(at character 14): unknown keyword'],
      ['=secret', "(at character 1): a setting must start with a keyword before '='"],
      ['port=secret', "(at character 6): the value of 'port' must be an integer"],
      ['port=70000', "the value of 'port' must be between 1 and 65535"],
      ['sslmode=secret', "the value of 'sslmode' must be disable"],
      ['service=secret', "the libpq setting 'service' is not supported"],
      ['host=a,secret', "several hosts in 'host' are not supported"],
    ];
    for (const [text, expected] of cases) {
      let error: unknown;
      try {
        pgSettingsOf(text, 'db');
      } catch (e) {
        error = e;
      }
      expect(error, text).to.be.instanceOf(BadRequestError);
      const message = (error as Error).message;
      expect(message, text).to.include("invalid connection-string of data source 'db'").and.include(expected);
      expect(message, text).not.to.include('secret');
    }
  });

  it('masks passwords, quoted or not, in both forms', () => {
    expect(maskConnectionString('host=h user=me password=secret dbname=d')).to.equal('host=h user=me password=*** dbname=d');
    expect(maskConnectionString("password='se cr\\'et' host=h")).to.equal('password=*** host=h');
    expect(maskConnectionString("host=h password = 'secret")).to.equal('host=h password =***');
    expect(maskConnectionString('postgresql://me:secret@h:5432/db')).to.equal('postgresql://me:***@h:5432/db');
    expect(maskConnectionString('postgresql://h/db?user=me&password=secret')).to.equal('postgresql://h/db?user=me&password=***');
    expect(maskConnectionString('Driver={PostgreSQL};Uid=me;Pwd=secret;')).to.equal('Driver={PostgreSQL};Uid=me;Pwd=***;');
  });
});
