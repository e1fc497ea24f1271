/**
 * The limits of one evaluation (a query, or the WHERE clauses of one update): when it must stop
 * (its time limit) and how much it may hold in memory (its memory budget).
 *
 * The budget counts estimated bytes, not measured ones: each structure that grows with the
 * data (the rows an ORDER BY sorts, the groups of a GROUP BY and the values their DISTINCT
 * aggregates and GROUP_CONCATs keep, the keys of DISTINCT and REDUCED, the solutions a join,
 * OPTIONAL or MINUS holds to match against, the solutions of an update's WHERE clause, the
 * triples of a CONSTRUCT or DESCRIBE answer) adds an estimate per entry when the entry is
 * made (see the `*Bytes` functions). Sorts, groups and DISTINCT give theirs back once their
 * input is exhausted, and a pattern tested by EXISTS gives back all it held once it has its
 * answer; the rest stays counted until the evaluation ends. When an entry would
 * take the total past the limit the evaluation stops with {@link MemoryLimitError}, naming the
 * limit and the structure; nothing refers to the evaluation's structures any more, so they are
 * garbage.
 * @module
 */
import { MemoryLimitError } from '../model/errors.js';

/** The limits of an evaluation (undefined: none). */
export interface EvaluationLimits {
  /** Stop with InterruptedError after this many milliseconds of evaluation. */
  readonly timeLimitMs?: number | undefined;
  /** Stop with MemoryLimitError when the structures of the evaluation hold more (estimated bytes). */
  readonly memoryLimitBytes?: number | undefined;
}

/** What an engine needs to honour limits: its deadline and its budget. */
export interface LimitedEvaluation {
  /** performance.now() after which evaluation stops (Infinity: no limit). */
  deadline: number;
  /** The memory budget (undefined: no limit). */
  budget: QueryBudget | undefined;
}

/**
 * Sets an engine's deadline and budget from `limits`. `startedAt` (a performance.now() value)
 * lets several engines share one deadline (the WHERE clauses of one update).
 */
export function applyLimits(engine: LimitedEvaluation, limits: EvaluationLimits | undefined, startedAt: number = performance.now(), budget?: QueryBudget): void {
  if (limits?.timeLimitMs !== undefined) engine.deadline = startedAt + limits.timeLimitMs;
  engine.budget = budget ?? (limits?.memoryLimitBytes !== undefined ? new QueryBudget(limits.memoryLimitBytes) : undefined);
}

/**
 * Awaits `wait` (backpressure: the reader of the answer is slow, or a cursor waits for its next
 * page) and returns how long that took, in milliseconds: time that does not count against the
 * time limit.
 */
export async function timeWaiting(wait: Promise<void>): Promise<number> {
  const start = performance.now();
  await wait;
  return performance.now() - start;
}

// ---- estimates (bytes of V8 objects on a 64-bit machine, rounded up) ----

/** A solution of `slots` slots (an Int32Array: object, buffer and header, 4 bytes per slot). */
export function solutionBytes(slots: number): number {
  return 96 + 4 * slots;
}

/** A string key in a Set or a Map (the string's header and characters, the table's entry). */
export function keyBytes(key: string): number {
  return 56 + key.length;
}

/** A solution DISTINCT or REDUCED keeps: its values side by side with the others', its hash and table slots. */
export function distinctSolutionBytes(slots: number): number {
  return 4 * slots + 16;
}

/** A row an ORDER BY sorts: its solution, the row object and the computed sort keys. */
export function sortRowBytes(slots: number, keys: number): number {
  return solutionBytes(slots) + 64 + 80 * keys;
}

/** A group of a GROUP BY: its key, its solution and one aggregator per aggregate. */
export function groupBytes(key: string, slots: number, aggregates: number): number {
  return keyBytes(key) + solutionBytes(slots) + 48 + 96 * aggregates;
}

/** A value an aggregate keeps (DISTINCT aggregates, GROUP_CONCAT): the term and its entry. */
export function aggregateValueBytes(value: { readonly value: string } | undefined): number {
  return 96 + (value?.value.length ?? 0);
}

/** A triple of a CONSTRUCT or DESCRIBE answer: the quad, its terms and its key. */
export function tripleBytes(key: string): number {
  return 320 + 2 * key.length;
}

// ---- what holds memory (for the messages) ----

/** The structures a budget charges, as the error message names them. */
export const HOLDERS = {
  distinct: 'DISTINCT (the solutions seen so far)',
  orderBy: 'ORDER BY (the solutions being sorted)',
  group: 'GROUP BY (the groups and their aggregates)',
  held: 'the solutions of a pattern held to join with (a join, OPTIONAL, MINUS or an update\'s WHERE clause)',
  construct: 'CONSTRUCT (the triples sent, kept to remove duplicates, or the answer collected)',
  describe: 'DESCRIBE (the triples of the answer)',
} as const;

/** Bytes charged to a budget by one structure, given back together when it is done. */
export class BudgetAccount {
  private bytes = 0;

  /** @internal Made by {@link QueryBudget.account}. */
  constructor(
    private readonly budget: QueryBudget,
    /** What the structure is (named in the error). */
    readonly what: string,
  ) {}

  /**
   * Charges `bytes` for a new entry.
   * @throws MemoryLimitError when the budget's total would pass its limit.
   */
  add(bytes: number): void {
    this.budget.charge(bytes, this.what);
    this.bytes += bytes;
  }

  /** Gives back everything this account charged (the structure is done). */
  release(): void {
    this.budget.release(this.bytes);
    this.bytes = 0;
  }
}

/** The memory budget of one evaluation: estimated bytes held, against a limit. */
export class QueryBudget {
  private held = 0;
  private peak = 0;

  /** A budget of `limitBytes` estimated bytes. */
  constructor(
    /** The limit, in bytes. */
    readonly limitBytes: number,
  ) {}

  /** The estimated bytes held now. */
  get heldBytes(): number {
    return this.held;
  }

  /** The most held at any time. */
  get peakBytes(): number {
    return this.peak;
  }

  /** An account for one structure (`what` names it in the error: one of {@link HOLDERS}). */
  account(what: string): BudgetAccount {
    return new BudgetAccount(this, what);
  }

  /**
   * Charges `bytes` for an entry of the structure `what`.
   * @throws MemoryLimitError when the total would pass the limit (nothing is charged then).
   */
  charge(bytes: number, what: string): void {
    const total = this.held + bytes;
    if (total > this.limitBytes) {
      throw new MemoryLimitError(
        `the query exceeded its memory limit of ${describeBytes(this.limitBytes)} (query-memory-limit): ${what} would bring what it holds to about ${describeBytes(total)} (an estimate; see "Limits" in docs/sparql.md)`,
      );
    }
    this.held = total;
    if (total > this.peak) this.peak = total;
  }

  /** Gives back `bytes` charged earlier. */
  release(bytes: number): void {
    this.held = Math.max(0, this.held - bytes);
  }

  /** The bytes held now, to return to with {@link QueryBudget.resetTo}. */
  mark(): number {
    return this.held;
  }

  /**
   * Gives back everything charged since `mark` was taken: for a pattern evaluated to a
   * yes-or-no answer (EXISTS), whose structures are all garbage once it returns. Accounts of
   * that evaluation must not be released afterwards.
   */
  resetTo(mark: number): void {
    this.held = Math.min(this.held, mark);
  }
}

/** A byte count as `<n> bytes` with a rounded binary unit when large. */
export function describeBytes(n: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let unit = '';
  for (const u of units) {
    if (v < 1024) break;
    v /= 1024;
    unit = u;
  }
  return unit === '' ? `${n} bytes` : `${n} bytes (${v.toFixed(1)} ${unit})`;
}
