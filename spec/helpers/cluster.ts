/**
 * Test helper: a cluster of `quadlog serve` processes on one PostgreSQL database
 * (`--persistence postgresql`), for the replication specs and `bench:replicas`. Each node is a
 * child process under tsx (spec/persistence/serve-process.ts) on an ephemeral port, named by
 * `--node-id`, with a short lease (`--persistence-lease-time`); a node can be killed with
 * SIGKILL, stopped with SIGTERM and started again (on a new port: its URL changes). Requests
 * go over HTTP with Basic credentials and a deadline, and every wait is on a condition with a
 * generous deadline, never on a fixed sleep alone.
 *
 * ```ts
 * const cluster = await Cluster.start({ connectionString, nodes: 3 });
 * const writer = await cluster.writer();
 * await writer.update('s', 'INSERT DATA { … }');
 * await cluster.close();
 * ```
 * @module
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServe, type Exit, type ServeProcess } from '../persistence/serve-process.js';

/** The role every node of a test cluster is served with. */
export const CLUSTER_ROLE = 'admin';
/** Its password. */
export const CLUSTER_PASSWORD = 'cluster-pw';
/** The request header asking a node for a minimum store version (read-your-writes). */
export const MIN_VERSION_HEADER = 'quadlog-min-version';
/** The response header carrying the store version a commit made. */
export const VERSION_HEADER = 'quadlog-version';
/** The path of the replication status of a node. */
export const STATUS_PATH = '/replication';

/** What {@link Cluster.start} is told. */
export interface ClusterOptions {
  /** The connection string of the database the nodes share (a role that may create the schema). */
  readonly connectionString: string;
  /** How many nodes (processes). */
  readonly nodes: number;
  /** `--persistence-lease-time` in ms (default 2000). */
  readonly leaseTimeMs?: number;
  /** The prefix of the node ids (`<prefix>-1` …; default `node`). */
  readonly idPrefix?: string;
  /** More flags for every `quadlog serve`. */
  readonly extraArgs?: readonly string[];
  /**
   * True to start every node at once; by default the first starts alone (and takes the
   * lease on a fresh database), then the others together.
   */
  readonly together?: boolean;
}

/** An HTTP answer. */
export interface Answer {
  /** The status code (0 when the request failed: see {@link error}). */
  readonly status: number;
  /** The response headers. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body as text. */
  readonly body: string;
  /** Why the request failed without an answer (connection refused or reset, deadline). */
  readonly error?: string;
}

/** What a request is given. */
export interface RequestOptions {
  /** More headers (Basic credentials of the cluster role are added unless `authorization` is given). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body. */
  readonly body?: string;
  /** Give up after this many ms (default 30,000): the answer then has status 0. */
  readonly timeoutMs?: number;
}

/** The Basic credentials of the cluster role. */
export const CLUSTER_AUTH = `Basic ${Buffer.from(`${CLUSTER_ROLE}:${CLUSTER_PASSWORD}`).toString('base64')}`;

/** One HTTP request that never rejects: a failure is an answer with status 0 and `error`. */
export function send(url: string, method: string, options: RequestOptions = {}): Promise<Answer> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (answer: Answer): void => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const req = request(url, { method, agent: false, headers: { authorization: CLUSTER_AUTH, ...options.headers }, timeout: options.timeoutMs ?? 30_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', (e) => done({ status: 0, headers: {}, body: text, error: e.message }));
      res.on('aborted', () => done({ status: 0, headers: {}, body: text, error: 'aborted' }));
    });
    req.on('timeout', () => {
      req.destroy(new Error('deadline passed'));
    });
    req.on('error', (e) => done({ status: 0, headers: {}, body: '', error: e.message }));
    req.end(options.body);
  });
}

/** The first value of a response header. */
export function header(answer: Answer, name: string): string | undefined {
  const value = answer.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** An error a {@link waitFor} condition throws to fail at once (any other error is retried). */
export class ConditionFailed extends Error {
  /** Creates it with the message. */
  constructor(message: string) {
    super(message);
    this.name = 'ConditionFailed';
  }
}

/**
 * Waits until `condition` answers a value other than undefined/false, trying again every
 * `intervalMs` (an error it throws is retried too, except a {@link ConditionFailed}); fails
 * naming `what` and the last value or error seen after `deadlineMs`.
 */
export async function waitFor<T>(what: string, condition: () => Promise<T | undefined | false> | T | undefined | false, deadlineMs = 60_000, intervalMs = 100): Promise<T> {
  const until = Date.now() + deadlineMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value !== undefined && value !== false) return value;
      last = value;
    } catch (e) {
      if (e instanceof ConditionFailed) throw e;
      last = e instanceof Error ? e.message : e;
    }
    if (Date.now() > until) throw new Error(`waited ${deadlineMs} ms for ${what}; last: ${String(last)}`);
    await sleep(intervalMs);
  }
}

/** One row of the status route: a node as the answering node sees it. */
export interface StatusRow {
  /** The node's id. */
  readonly nodeId: string;
  /** The URL recorded for it. */
  readonly url: string;
  /** `writer`, `replica` (or `standalone`). */
  readonly role: string;
  /** The lease term it knows. */
  readonly term: number;
  /** Whether the row is the answering node. */
  readonly self: boolean;
  /** Whether it holds the lease, as the answering node knows it. */
  readonly writer: boolean;
  /** Every column of the row as text (absent when unbound). */
  readonly columns: Readonly<Record<string, string>>;
}

/** The replication status of a node, as its status route answers it (the fields the specs read). */
export interface NodeStatus {
  /** This node's id. */
  readonly nodeId: string;
  /** Its role: `writer` or `replica`. */
  readonly role: string;
  /** The lease term it knows. */
  readonly term: number;
  /** The writer's node id, as this node knows it (a row marked Writer). */
  readonly writerId?: string;
  /** The writer's URL, as this node knows it. */
  readonly writerUrl?: string;
  /** Every row (the answering node's, once per store, and every node seen recently). */
  readonly rows: readonly StatusRow[];
}

/**
 * Reads the status route's answer (a SPARQL JSON table: NodeID, URL, Role, Term, Self, Writer,
 * LastHeartbeat, HeartbeatAgeMs, StoreVersions, DataStore, Version, LagVersions, LagMs).
 */
export function parseStatus(body: string): NodeStatus | undefined {
  const json = JSON.parse(body) as { results?: { bindings?: Array<Record<string, { value: string } | undefined>> } };
  const rows: StatusRow[] = (json.results?.bindings ?? []).map((b) => {
    const columns: Record<string, string> = {};
    for (const [k, v] of Object.entries(b)) if (v !== undefined) columns[k] = v.value;
    return { nodeId: columns.NodeID ?? '', url: columns.URL ?? '', role: columns.Role ?? '', term: Number(columns.Term ?? Number.NaN), self: columns.Self === 'true', writer: columns.Writer === 'true', columns };
  });
  const self = rows.find((r) => r.self);
  if (self === undefined) return undefined;
  const writer = rows.find((r) => r.writer);
  return {
    nodeId: self.nodeId,
    role: self.role,
    term: self.term,
    ...(writer !== undefined ? { writerId: writer.nodeId, writerUrl: writer.url } : {}),
    rows,
  };
}

/** One node of a {@link Cluster}. */
export class ClusterNode {
  private process: ServeProcess | undefined;

  /** @param id its `--node-id`; @param args the flags it is started with. */
  constructor(
    readonly id: string,
    private readonly args: readonly string[],
  ) {}

  /** Its endpoint's URL (undefined while it is not running). */
  get url(): string | undefined {
    return this.process?.url;
  }

  /** Whether its process is running. */
  get alive(): boolean {
    const child = this.process?.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** How its process ended (undefined while it runs or before it started). */
  get exit(): { readonly code: number | null; readonly signal: NodeJS.Signals | null } | undefined {
    const child = this.process?.child;
    if (child === undefined || (child.exitCode === null && child.signalCode === null)) return undefined;
    return { code: child.exitCode, signal: child.signalCode };
  }

  /** What its process wrote to standard error (this run). */
  stderr(): string {
    return this.process?.stderr() ?? '';
  }

  /** What its process wrote to standard output (this run). */
  stdout(): string {
    return this.process?.stdout() ?? '';
  }

  /** Starts its process (fails with its output when it exits before serving). */
  async start(): Promise<void> {
    if (this.alive) throw new Error(`node ${this.id} is running`);
    const started = await startServe(this.args);
    this.process = started;
    if (started.url === undefined) {
      const exit = await started.exited;
      throw new Error(`node ${this.id} exited before serving (${exit.code ?? exit.signal}):\n${started.stdout()}\n${started.stderr()}`);
    }
  }

  /** Kills its process with SIGKILL (kill -9) and waits for the exit. */
  async kill(): Promise<Exit | undefined> {
    return this.process?.kill();
  }

  /** Stops its process with SIGTERM and waits for the exit. */
  async stop(): Promise<Exit | undefined> {
    return this.process?.stop();
  }

  /** A request to a path of its endpoint (status 0 with `error` when it is not running). */
  request(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const url = this.url;
    if (url === undefined || !this.alive) return Promise.resolve({ status: 0, headers: {}, body: '', error: `node ${this.id} is not running` });
    return send(`${url}${path}`, method, options);
  }

  /** A SPARQL query on a store, answered as CSV (or as `accept` says). */
  query(store: string, text: string, options: { readonly headers?: Readonly<Record<string, string>>; readonly accept?: string; readonly timeoutMs?: number } = {}): Promise<Answer> {
    return this.request('POST', `/datastores/${encodeURIComponent(store)}/sparql`, {
      headers: { 'content-type': 'application/sparql-query', accept: options.accept ?? 'text/csv', ...options.headers },
      body: text,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  /** A SPARQL update on a store. */
  update(store: string, text: string, options: { readonly headers?: Readonly<Record<string, string>>; readonly timeoutMs?: number } = {}): Promise<Answer> {
    return this.request('POST', `/datastores/${encodeURIComponent(store)}/sparql`, {
      headers: { 'content-type': 'application/sparql-update', ...options.headers },
      body: text,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }

  /** Its replication status (undefined when it does not answer it). */
  async status(): Promise<NodeStatus | undefined> {
    const answer = await this.request('GET', STATUS_PATH, { headers: { accept: 'application/sparql-results+json' }, timeoutMs: 10_000 });
    if (answer.status !== 200) return undefined;
    try {
      return parseStatus(answer.body);
    } catch {
      return undefined;
    }
  }
}

/** N `quadlog serve` processes on one PostgreSQL database. */
export class Cluster {
  private constructor(
    /** The nodes, in the order of their ids. */
    readonly nodes: readonly ClusterNode[],
  ) {}

  /** Starts the nodes (see {@link ClusterOptions.together}); on a failure the started ones are killed. */
  static async start(options: ClusterOptions): Promise<Cluster> {
    const nodes: ClusterNode[] = [];
    for (let i = 1; i <= options.nodes; i++) {
      const id = `${options.idPrefix ?? 'node'}-${i}`;
      nodes.push(new ClusterNode(id, Cluster.argsOf(id, options)));
    }
    const cluster = new Cluster(nodes);
    try {
      if (options.together === true) await Promise.all(nodes.map((n) => n.start()));
      else {
        await nodes[0]?.start();
        await Promise.all(nodes.slice(1).map((n) => n.start()));
      }
    } catch (e) {
      await cluster.close();
      throw e;
    }
    return cluster;
  }

  /** The `quadlog serve` flags of a node. */
  static argsOf(id: string, options: ClusterOptions): string[] {
    return [
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--role',
      CLUSTER_ROLE,
      '--password',
      CLUSTER_PASSWORD,
      '--no-demo',
      '--no-console',
      '--persistence',
      'postgresql',
      '--persistence-connection-string',
      options.connectionString,
      '--node-id',
      id,
      '--persistence-lease-time',
      String(options.leaseTimeMs ?? 2000),
      ...(options.extraArgs ?? []),
    ];
  }

  /** The node of an id. */
  node(id: string): ClusterNode {
    const found = this.nodes.find((n) => n.id === id);
    if (found === undefined) throw new Error(`no node ${id}`);
    return found;
  }

  /** The running nodes. */
  alive(): ClusterNode[] {
    return this.nodes.filter((n) => n.alive);
  }

  /**
   * Waits until exactly one running node says it is the writer and every other running node
   * says it is a replica naming that writer; answers the writer.
   */
  async writer(deadlineMs = 60_000): Promise<ClusterNode> {
    return waitFor(
      'one writer among the running nodes, named by every replica',
      async () => {
        const alive = this.alive();
        const statuses = await Promise.all(alive.map((n) => n.status()));
        const writers = alive.filter((_, i) => statuses[i]?.role === 'writer');
        if (writers.length !== 1) return undefined;
        const writer = writers[0]!;
        const agreed = statuses.every((s) => s !== undefined && (s.role === 'writer' || (s.role === 'replica' && s.writerId === writer.id)));
        return agreed ? writer : undefined;
      },
      deadlineMs,
      200,
    );
  }

  /** The running nodes other than `writer`. */
  replicasOf(writer: ClusterNode): ClusterNode[] {
    return this.alive().filter((n) => n !== writer);
  }

  /** Kills every running node (SIGKILL): nothing is left behind. */
  async close(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.kill()));
  }
}
