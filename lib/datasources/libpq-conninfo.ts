/**
 * PostgreSQL connection strings as libpq reads them, turned into the settings of the `pg`
 * client. Two forms are accepted (PostgreSQL manual, section "Connection Strings"):
 *
 * - a URI (`postgresql://…` or `postgres://…`, or any other `scheme://`), passed to `pg` as it
 *   is (its own parser, pg-connection-string, reads URIs only), except that the query
 *   parameters this client does not honour are refused as keywords are (`sslcert`, `sslkey`
 *   and `sslrootcert` among them: `pg` would read them as files);
 * - keyword/value settings separated by whitespace, `host=127.0.0.1 port=5432 dbname=d`. Spaces
 *   around `=` are optional. A value is either unquoted (it ends at whitespace) or in single
 *   quotes (`password='a b'`, which is how an empty value or one with spaces is written); in
 *   both, a backslash takes the next character literally (`\'`, `\\`). A keyword given twice
 *   takes its last value.
 *
 * Keywords this client can honour: `host` (one host; a value starting with `/` is a socket
 * directory), `hostaddr`, `port`, `dbname`, `user`, `password`, `connect_timeout` (seconds),
 * `application_name`, `fallback_application_name`, `options`, `client_encoding`, `keepalives`,
 * `keepalives_idle` and `sslmode`. Other libpq keywords are refused by name, and a word that is
 * no libpq keyword is refused by position only: a mistyped setting may hold part of a
 * password, so no error ever quotes a value, or a word that is not a keyword.
 * @module
 */
import { BadRequestError } from '../model/errors.js';

/** How the client checks the server's TLS certificate (`sslmode`). */
export type TlsVerification = 'none' | 'ca' | 'full';

/**
 * The settings of a `pg` client that a connection string gives: plain data (it is handed to
 * the worker thread that holds the client).
 */
export interface PgConnectionSettings {
  /** A URI, passed to `pg` as it is. */
  readonly connectionString?: string;
  /** The host name, address, or socket directory. */
  readonly host?: string;
  /** The port. */
  readonly port?: number;
  /** The database. */
  readonly database?: string;
  /** The user. */
  readonly user?: string;
  /** The password. */
  readonly password?: string;
  /** `application_name`. */
  readonly application_name?: string;
  /** `fallback_application_name`. */
  readonly fallback_application_name?: string;
  /** Command-line options sent to the server (`options`). */
  readonly options?: string;
  /** `client_encoding`. */
  readonly client_encoding?: string;
  /** Whether TCP keep-alives are on. */
  readonly keepAlive?: boolean;
  /** Idle time before the first keep-alive (ms). */
  readonly keepAliveInitialDelayMillis?: number;
  /** How long connecting may take (ms; 0: no limit). */
  readonly connectTimeoutMs?: number;
  /** TLS: absent or undefined for none, else how the certificate is checked. */
  readonly tls?: TlsVerification;
}

/** The keywords of libpq this client honours. */
const SUPPORTED = [
  'host',
  'hostaddr',
  'port',
  'dbname',
  'user',
  'password',
  'connect_timeout',
  'application_name',
  'fallback_application_name',
  'options',
  'client_encoding',
  'keepalives',
  'keepalives_idle',
  'sslmode',
] as const;

/** The other keywords of libpq (PostgreSQL 17), refused by name. */
const UNSUPPORTED = new Set([
  'passfile',
  'require_auth',
  'channel_binding',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'replication',
  'gssencmode',
  'requiressl',
  'sslnegotiation',
  'sslcompression',
  'sslcert',
  'sslkey',
  'sslkeylogfile',
  'sslpassword',
  'sslcertmode',
  'sslrootcert',
  'sslcrl',
  'sslcrldir',
  'sslsni',
  'requirepeer',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'krbsrvname',
  'gsslib',
  'gssdelegation',
  'service',
  'target_session_attrs',
  'load_balance_hosts',
  'scram_client_key',
  'scram_server_key',
  'min_protocol_version',
  'max_protocol_version',
  'oauth_issuer',
  'oauth_client_id',
  'oauth_client_secret',
  'oauth_scope',
]);

/** The keywords whose value is secret (never shown). */
const SECRET = new Set(['password', 'pwd', 'sslpassword', 'oauth_client_secret']);

/** One `keyword=value` setting as found in the text. */
export interface ConnectionSetting {
  /** The keyword. */
  readonly keyword: string;
  /** The value, quotes and escapes removed. */
  readonly value: string;
  /** Offset of the keyword's first character. */
  readonly keywordAt: number;
  /** Offset of the value's first character (its opening quote when quoted). */
  readonly valueAt: number;
  /** Offset just after the value (after its closing quote when quoted). */
  readonly valueEnd: number;
}

/** A syntax error: what is wrong, and where (0-based offset). */
export class ConnectionStringSyntaxError extends Error {
  /** Creates the error. */
  constructor(
    /** What is wrong (quotes nothing of the text). */
    readonly problem: string,
    /** The offset where it is. */
    readonly offset: number,
  ) {
    super(`(at character ${offset + 1}): ${problem}`);
    this.name = 'ConnectionStringSyntaxError';
  }
}

/** Whether a connection string is a URI (`scheme://…`) rather than keyword/value settings. */
export function isConnectionUri(text: string): boolean {
  return /^\s*[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text);
}

const SPACE = /\s/;

/**
 * The settings of a keyword/value connection string, in order, as libpq's grammar reads them
 * (see the module documentation); keywords are not checked.
 * @throws ConnectionStringSyntaxError at the first error.
 */
export function tokenizeConnectionString(text: string): ConnectionSetting[] {
  const settings: ConnectionSetting[] = [];
  let i = 0;
  const n = text.length;
  const skipSpace = (): void => {
    while (i < n && SPACE.test(text[i]!)) i++;
  };
  for (;;) {
    skipSpace();
    if (i >= n) return settings;
    const keywordAt = i;
    while (i < n && text[i] !== '=' && !SPACE.test(text[i]!)) i++;
    const keyword = text.slice(keywordAt, i);
    skipSpace();
    if (text[i] !== '=') {
      throw new ConnectionStringSyntaxError(keyword === '' ? "a setting must start with a keyword before '='" : "a keyword must be followed by '=' and a value (a value with spaces must be in single quotes)", keywordAt);
    }
    if (keyword === '') throw new ConnectionStringSyntaxError("a setting must start with a keyword before '='", keywordAt);
    i++;
    skipSpace();
    const valueAt = i;
    let value = '';
    if (text[i] === "'") {
      i++;
      for (;;) {
        if (i >= n) throw new ConnectionStringSyntaxError(`the quoted value of '${keyword}' has no closing quote`, valueAt);
        const c = text[i]!;
        if (c === '\\') {
          if (i + 1 < n) value += text[i + 1]!;
          i += 2;
        } else if (c === "'") {
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
    } else {
      while (i < n && !SPACE.test(text[i]!)) {
        if (text[i] === '\\') {
          if (i + 1 < n) value += text[i + 1]!;
          i += 2;
        } else value += text[i++]!;
      }
    }
    settings.push({ keyword, value, keywordAt, valueAt, valueEnd: Math.min(i, n) });
  }
}

/** A non-negative integer setting. */
function integerOf(s: ConnectionSetting, min: number, max: number): number {
  if (!/^\s*[+-]?\d+\s*$/.test(s.value)) throw new ConnectionStringSyntaxError(`the value of '${s.keyword}' must be an integer`, s.valueAt);
  const v = Number(s.value);
  if (v < min || v > max) throw new ConnectionStringSyntaxError(`the value of '${s.keyword}' must be between ${min} and ${max}`, s.valueAt);
  return v;
}

/** The settings of keyword/value text (see the module documentation). */
function settingsOf(text: string): PgConnectionSettings {
  const out: { -readonly [K in keyof PgConnectionSettings]: PgConnectionSettings[K] } = {};
  let hostaddr: string | undefined;
  for (const s of tokenizeConnectionString(text)) {
    const keyword = s.keyword;
    if (!(SUPPORTED as readonly string[]).includes(keyword)) {
      if (UNSUPPORTED.has(keyword)) throw new ConnectionStringSyntaxError(`the libpq setting '${keyword}' is not supported by quadlog's PostgreSQL client (supported: ${SUPPORTED.join(', ')})`, s.keywordAt);
      // the word is not quoted: it may be part of a value that lacks its quotes
      throw new ConnectionStringSyntaxError(`unknown keyword (supported: ${SUPPORTED.join(', ')})`, s.keywordAt);
    }
    switch (keyword as (typeof SUPPORTED)[number]) {
      case 'host':
        if (s.value.includes(',')) throw new ConnectionStringSyntaxError("several hosts in 'host' are not supported", s.valueAt);
        out.host = s.value === '' ? undefined : s.value;
        break;
      case 'hostaddr':
        if (s.value.includes(',')) throw new ConnectionStringSyntaxError("several addresses in 'hostaddr' are not supported", s.valueAt);
        hostaddr = s.value === '' ? undefined : s.value;
        break;
      case 'port':
        if (s.value.includes(',')) throw new ConnectionStringSyntaxError("several ports in 'port' are not supported", s.valueAt);
        out.port = s.value === '' ? undefined : integerOf(s, 1, 65535);
        break;
      case 'dbname':
        out.database = s.value;
        break;
      case 'user':
        out.user = s.value;
        break;
      case 'password':
        out.password = s.value;
        break;
      case 'connect_timeout': {
        // as libpq: 0 (or negative) waits forever, and 1 counts as 2 seconds
        const seconds = integerOf(s, -2147483648, 2147483647);
        out.connectTimeoutMs = seconds <= 0 ? 0 : Math.max(seconds, 2) * 1000;
        break;
      }
      case 'application_name':
        out.application_name = s.value;
        break;
      case 'fallback_application_name':
        out.fallback_application_name = s.value;
        break;
      case 'options':
        out.options = s.value;
        break;
      case 'client_encoding':
        out.client_encoding = s.value;
        break;
      case 'keepalives':
        out.keepAlive = integerOf(s, -2147483648, 2147483647) !== 0;
        break;
      case 'keepalives_idle':
        out.keepAliveInitialDelayMillis = integerOf(s, 0, 2147483) * 1000;
        break;
      case 'sslmode':
        switch (s.value) {
          case 'disable':
          case 'allow':
          case 'prefer':
            // pg cannot fall back from TLS to a plain connection: these connect without TLS
            out.tls = undefined;
            break;
          case 'require':
            out.tls = 'none';
            break;
          case 'verify-ca':
            out.tls = 'ca';
            break;
          case 'verify-full':
            out.tls = 'full';
            break;
          default:
            throw new ConnectionStringSyntaxError("the value of 'sslmode' must be disable, allow, prefer, require, verify-ca or verify-full", s.valueAt);
        }
        break;
    }
  }
  if (hostaddr !== undefined) out.host = hostaddr;
  return out;
}

/**
 * Refuses the query parameters of a URI that libpq defines but this client does not honour,
 * as for keyword/value settings: among them `sslcert`, `sslkey` and `sslrootcert`, which `pg`
 * would read as files from any path the caller names.
 * @throws ConnectionStringSyntaxError at the parameter's name.
 */
function checkUriParameters(text: string): void {
  const query = text.indexOf('?');
  if (query < 0) return;
  const end = text.indexOf('#', query);
  let at = query + 1;
  for (const part of text.slice(at, end < 0 ? undefined : end).split('&')) {
    let name: string;
    try {
      name = decodeURIComponent(part.split('=', 1)[0]!.replace(/\+/g, ' '));
    } catch {
      name = part;
    }
    if (UNSUPPORTED.has(name)) throw new ConnectionStringSyntaxError(`the libpq setting '${name}' is not supported by quadlog's PostgreSQL client (supported: ${SUPPORTED.join(', ')})`, at);
    at += part.length + 1;
  }
}

/**
 * The `pg` settings of a connection string of data source `source`: a URI as it is, keyword/
 * value settings read as libpq reads them.
 * @throws BadRequestError naming the source, the position and the problem (never a value).
 */
export function pgSettingsOf(text: string, source: string): PgConnectionSettings {
  try {
    if (isConnectionUri(text)) {
      checkUriParameters(text);
      return { connectionString: text.trim() };
    }
    return settingsOf(text);
  } catch (e) {
    if (e instanceof ConnectionStringSyntaxError) throw new BadRequestError(`invalid connection-string of data source '${source}' ${e.message}`);
    throw e;
  }
}

/**
 * A connection string with its secrets replaced by `***`: the password of a URI's user
 * information, and the values of `password` (and `pwd`, `sslpassword`) settings, ODBC's
 * `Pwd=…;` too. Text that
 * cannot be read as settings is masked from the first secret keyword on.
 */
export function maskConnectionString(text: string): string {
  if (isConnectionUri(text)) {
    const masked = text.replace(/^(\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@?#]*:)[^@/?#]*@/, '$1***@');
    // a password given as a URI query parameter
    return masked.replace(/([?&](?:password|sslpassword)=)[^&#]*/gi, '$1***');
  }
  let settings: ConnectionSetting[];
  try {
    settings = tokenizeConnectionString(text);
  } catch {
    const m = /\b(password|pwd|sslpassword)\s*=/i.exec(text);
    return m ? `${text.slice(0, m.index + m[0].length)}***` : text;
  }
  let out = '';
  let at = 0;
  for (const s of settings) {
    if (!SECRET.has(s.keyword.toLowerCase())) continue;
    out += `${text.slice(at, s.valueAt)}***`;
    at = s.valueEnd;
  }
  // and ODBC-style `Pwd=…;` inside a value
  return (out + text.slice(at)).replace(/\b(pwd|password)(\s*=\s*)(?!\*\*\*(?:\s|;|$))[^;\s]*/gi, '$1$2***');
}
