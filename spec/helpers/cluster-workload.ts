/**
 * Test helper: the workload of the replication specs on a {@link Cluster}. A write `k` is one
 * SPARQL update (one transaction) inserting three facts `<urn:w:k> <urn:p:part> 1, 2, 3`; a rule
 * derives `<urn:w:k> a <urn:c:Seen>` from them. A state read from a node groups the facts by
 * write: a consistent state has, for every write, its three parts and its derived fact, never
 * fewer. A {@link WriteStream} sends writes one after another to whichever node is the writer
 * (following the writer named by a refusal, trying the others when a node does not answer),
 * never sending the same write twice, and records which were acknowledged (answered 2xx).
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { header, VERSION_HEADER, type Answer, type Cluster, type ClusterNode } from './cluster.js';

/** The store of the workload. */
export const WORKLOAD_STORE = 'replicated';

/** The rule of the workload: every write's subject is derived to be a `<urn:c:Seen>`. */
export const WORKLOAD_RULE = '<urn:c:Seen>[?w] :- <urn:p:part>[?w, ?n] .';

/** The SPARQL update of write `k`: its three facts in one transaction. */
export function writeText(k: number | string): string {
  return `INSERT DATA { <urn:w:${k}> <urn:p:part> 1 . <urn:w:${k}> <urn:p:part> 2 . <urn:w:${k}> <urn:p:part> 3 . }`;
}

/** The query that reads a state: per write, its parts and its derived facts. */
export const STATE_QUERY = 'SELECT ?w (COUNT(?n) AS ?parts) (COUNT(?s) AS ?seen) WHERE { { ?w <urn:p:part> ?n } UNION { ?w a <urn:c:Seen> BIND(?w AS ?s) } } GROUP BY ?w';

/** The writes a node shows, and those it shows only in part. */
export interface WorkloadState {
  /** The writes present whole (three parts, one derived fact), by their `k` as written. */
  readonly whole: ReadonlySet<string>;
  /** Writes shown in part: `k parts=<n> seen=<n>` each. */
  readonly partial: readonly string[];
}

/** Creates the workload's store and rule on the writer (failing with the answer when refused). */
export async function createWorkloadStore(writer: ClusterNode): Promise<void> {
  const created = await writer.request('POST', `/datastores/${WORKLOAD_STORE}`);
  if (created.status !== 201 && created.status !== 200 && created.status !== 204) throw new Error(`creating the store on ${writer.id}: ${created.status} ${created.error ?? created.body}`);
  const rule = await writer.request('POST', `/datastores/${WORKLOAD_STORE}/content`, { headers: { 'content-type': 'application/x.datalog' }, body: WORKLOAD_RULE });
  if (rule.status !== 200) throw new Error(`adding the rule on ${writer.id}: ${rule.status} ${rule.error ?? rule.body}`);
}

/** Parses the CSV answer of {@link STATE_QUERY}. */
export function parseState(csv: string): WorkloadState {
  const lines = csv.split(/\r?\n/).filter((l) => l !== '');
  const whole = new Set<string>();
  const partial: string[] = [];
  for (const line of lines.slice(1)) {
    const [w, parts, seen] = line.split(',');
    const k = (w ?? '').replace(/^urn:w:/, '');
    if (parts === '3' && seen === '1') whole.add(k);
    else partial.push(`${k} parts=${parts} seen=${seen}`);
  }
  return { whole, partial };
}

/** The state a node shows (undefined when it does not answer 200). */
export async function stateOf(node: ClusterNode, headers: Readonly<Record<string, string>> = {}): Promise<WorkloadState | undefined> {
  const answer = await node.query(WORKLOAD_STORE, STATE_QUERY, { headers });
  return answer.status === 200 ? parseState(answer.body) : undefined;
}

/** Whether an update's answer acknowledges it (2xx: a SPARQL update answers 204). */
export function isAcknowledged(answer: Answer): boolean {
  return answer.status >= 200 && answer.status < 300;
}

/** The writer a refusal names (`ReplicaWriteError: … the writer is node 'X' …`), if any. */
export function writerNamedBy(answer: Answer): string | undefined {
  return /the writer is node '([^']+)'/.exec(answer.body)?.[1];
}

/** A failed write of a {@link WriteStream}. */
export interface FailedWrite {
  /** The write. */
  readonly k: number;
  /** The node it was sent to. */
  readonly node: string;
  /** The status (0: no answer). */
  readonly status: number;
  /** The body's first line, or why there was no answer. */
  readonly why: string;
  /** When it failed (Date.now()). */
  readonly at: number;
}

/** Writes sent one after another to the cluster's writer until stopped. */
export class WriteStream {
  /** The writes acknowledged (answered 2xx), in order. */
  readonly acknowledged: number[] = [];
  /** The writes that failed (the store may or may not hold them: see {@link sent}). */
  readonly failed: FailedWrite[] = [];
  /** Every write sent (acknowledged, failed, or in flight). */
  readonly sent = new Set<number>();
  /** The version each acknowledged write's answer carried, by write. */
  readonly versions = new Map<number, string | undefined>();
  private next = 0;
  private stopping = false;
  private target: ClusterNode | undefined;
  private readonly done: Promise<void>;

  /** Starts the stream, first at `target` (a guess of the writer). */
  constructor(
    private readonly cluster: Cluster,
    target: ClusterNode,
    /** The first write's number (streams of one spec must not overlap). */
    first = 0,
  ) {
    this.target = target;
    this.next = first;
    this.done = this.run();
  }

  /** Waits until at least `n` writes are acknowledged in all (fails after the deadline, with the last failures). */
  async acknowledgedAtLeast(n: number, deadlineMs = 120_000): Promise<void> {
    const until = Date.now() + deadlineMs;
    while (this.acknowledged.length < n) {
      if (Date.now() > until) throw new Error(`waited ${deadlineMs} ms for ${n} acknowledged writes; ${this.acknowledged.length} so far; last failures: ${JSON.stringify(this.failed.slice(-5))}`);
      await sleep(50);
    }
  }

  /** Stops the stream after the write in flight, and waits for it. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.done;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const node = this.target ?? this.cluster.alive()[0];
      if (node === undefined) {
        await sleep(50);
        continue;
      }
      const k = this.next++;
      this.sent.add(k);
      const answer = await node.update(WORKLOAD_STORE, writeText(k), { timeoutMs: 60_000 });
      if (isAcknowledged(answer)) {
        this.acknowledged.push(k);
        this.versions.set(k, header(answer, VERSION_HEADER));
        continue;
      }
      this.failed.push({ k, node: node.id, status: answer.status, why: answer.error ?? answer.body.split('\n')[0] ?? '', at: Date.now() });
      const named = writerNamedBy(answer);
      const alive = this.cluster.alive();
      const namedNode = named === undefined ? undefined : alive.find((n) => n.id === named);
      // the named writer when it is known and running; otherwise the next running node
      this.target = namedNode !== undefined && namedNode !== node ? namedNode : alive[(alive.indexOf(node) + 1) % Math.max(1, alive.length)];
      await sleep(50);
    }
  }
}
