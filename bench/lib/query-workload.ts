/**
 * The workload of the query benchmark (`bench/query.ts`): the data sets, the queries run on
 * each, and an order-independent checksum of a SELECT answer that both systems compute the
 * same way.
 * @module
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LUBM, lubmQuery } from '../../spec/helpers/test-data.js';

/** The LUBM files of test-data/ (gzip'd N-Triples) by short name. */
export const DATA_FILES: Readonly<Record<DataSetName, string>> = {
  lubm10: LUBM.lubm10,
  lubm1: LUBM.lubm1,
};

/** Known distinct-triple counts of the LUBM files. */
export const KNOWN_TRIPLES: Readonly<Record<DataSetName, number>> = {
  lubm10: 1_272_575,
  lubm1: 100_543,
};

/** The data sets of the benchmark: LUBM(10) for the 14 LUBM queries, LUBM(1) for the micro-queries. */
export const DATA_SETS = ['lubm10', 'lubm1'] as const;

/** One of {@link DATA_SETS}. */
export type DataSetName = (typeof DATA_SETS)[number];

/** A named query of the workload. */
export interface BenchQuery {
  /** Short name (`q1` … `q14`, or a micro-query's name). */
  readonly name: string;
  /** What the query exercises (one line). */
  readonly description: string;
  /** The SPARQL text. */
  readonly text: string;
  /**
   * Expected answer count on LUBM(1) without reasoning (from `answers-lubm1.tsv`), when known;
   * checked only when the query runs on LUBM(1).
   */
  readonly expectedLubm1?: number;
}

const UB = 'PREFIX ub: <http://swat.cse.lehigh.edu/onto/univ-bench.owl#>\n';

/**
 * Parses `answers-lubm1.tsv`: query name (`q1`) → answers without reasoning (default) or,
 * with `withReasoning`, with OWL reasoning over `univ-bench.ttl`.
 */
export function expectedLubm1Counts(withReasoning = false): Map<string, number> {
  const counts = new Map<string, number>();
  const lines = readFileSync(LUBM.answers, 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [query, , owl, without] = line.split('\t');
    const n = withReasoning ? owl : without;
    if (query !== undefined && n !== undefined) counts.set(query.toLowerCase(), Number(n));
  }
  return counts;
}

/** The 14 LUBM queries (`q1.rq` … `q14.rq`), with their description from the comment line. */
export function lubmQueries(): BenchQuery[] {
  const expected = expectedLubm1Counts();
  const queries: BenchQuery[] = [];
  for (let i = 1; i <= 14; i++) {
    const text = readFileSync(lubmQuery(i), 'utf8');
    const comment = text.split('\n').find((l) => l.startsWith('#')) ?? '';
    const description = comment.replace(/^#\s*LUBM Query \d+:\s*/, '');
    const count = expected.get(`q${i}`);
    queries.push({ name: `q${i}`, description, text, ...(count !== undefined ? { expectedLubm1: count } : {}) });
  }
  return queries;
}

/** The micro-queries run on LUBM(1): a 3-pattern join, a full scan count and property paths. */
export function microQueries(): BenchQuery[] {
  return [
    {
      name: 'join3',
      description: '3-pattern join: advisor / worksFor / takesCourse (bag: ?c not projected)',
      text: `${UB}SELECT ?x ?y ?z WHERE { ?x ub:advisor ?y . ?y ub:worksFor ?z . ?x ub:takesCourse ?c }`,
    },
    {
      name: 'count-all',
      description: 'COUNT(*) of every triple',
      text: 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }',
    },
    {
      name: 'path+',
      description: 'COUNT of ub:subOrganizationOf+ (transitive closure, both ends free)',
      text: `${UB}SELECT (COUNT(*) AS ?n) WHERE { ?x ub:subOrganizationOf+ ?y }`,
    },
    {
      name: 'path-seq+',
      description: 'COUNT of ub:memberOf/ub:subOrganizationOf+ (sequence then closure)',
      text: `${UB}SELECT (COUNT(*) AS ?n) WHERE { ?x ub:memberOf/ub:subOrganizationOf+ ?y }`,
    },
  ];
}

/**
 * The queries run on a data set: the 14 LUBM queries on LUBM(10); the micro-queries and then
 * the 14 LUBM queries (whose counts `answers-lubm1.tsv` gives) on LUBM(1).
 */
export function queriesOf(dataSet: DataSetName): BenchQuery[] {
  return dataSet === 'lubm10' ? lubmQueries() : [...microQueries(), ...lubmQueries()];
}

/** The RDF/JS-like shape of a term, common to quadlog's and oxigraph's terms. */
export interface TermLike {
  /** `NamedNode`, `BlankNode`, `Literal`, … */
  readonly termType: string;
  /** The IRI, label or lexical form. */
  readonly value: string;
  /** A literal's language tag ('' when none). */
  readonly language?: string;
  /** A literal's datatype. */
  readonly datatype?: { readonly value: string };
}

/** N-Triples-like text of a term (blank-node labels kept as they are: LUBM has none). */
export function termText(t: TermLike): string {
  switch (t.termType) {
    case 'NamedNode':
      return `<${t.value}>`;
    case 'BlankNode':
      return `_:${t.value}`;
    case 'Literal':
      return `${JSON.stringify(t.value)}${t.language ? `@${t.language}` : `^^<${t.datatype?.value ?? ''}>`}`;
    default:
      return `${t.termType}:${t.value}`;
  }
}

/**
 * An order-independent checksum of a multiset of rows, each given as its bound
 * `(variable, term)` pairs: the sum modulo 2^48 of the first 48 bits of each row's SHA-1 over
 * its pairs sorted by variable name. Equal answers (as bags) give equal checksums.
 */
export function answerChecksum(rows: Iterable<Iterable<readonly [string, TermLike]>>): string {
  const MOD = 1n << 48n;
  let sum = 0n;
  for (const row of rows) {
    const cells = [...row].map(([v, t]) => `${v}=${termText(t)}`).sort();
    const digest = createHash('sha1').update(cells.join('\t')).digest();
    sum = (sum + BigInt(`0x${digest.subarray(0, 6).toString('hex')}`)) % MOD;
  }
  return sum.toString(16).padStart(12, '0');
}
