/**
 * The codec of one committed transaction of a store, the body of a log record (see `log.ts`):
 * the dictionary terms the store interned since the previous record, the net change of
 * explicit facts per tuple table, a list of catalogue operations as JSON, and optionally
 * (codec version 2 only) the net change of derived facts per tuple table. Logs in a server
 * directory never carry derived facts (they follow from the explicit facts and the rules, and
 * are recomputed on replay): only a replicated server with `persistence-replicate-derived=true`
 * writes version 2 records, to PostgreSQL, so that replicas apply them without reasoning.
 *
 * Layout (little-endian; the body starts at a multiple of 8, and so does every part, so
 * decoding makes views over the record's buffer and copies nothing):
 *
 * | offset | size | field |
 * |---:|---:|---|
 * | 0 | 4 | u32 codec version: {@link TRANSACTION_CODEC_VERSION}, or {@link DERIVED_CODEC_VERSION} with the derived part |
 * | 4 | 4 | u32 flags, 0 |
 * | 8 | 4 | u32 first new term id: the dictionary's size before the new terms |
 * | 12 | 4 | u32 T, number of new terms |
 * | 16 | 4 | u32 B, bytes of the new terms |
 * | 20 | 4 | u32 K, number of table changes |
 * | 24 | 4 | u32 J, bytes of the operations JSON |
 * | 28 | 4 | reserved, 0 |
 * | 32 | 4T + pad | u32 end of each new term within the term bytes (term i spans [end(i−1), end(i)), end(−1) = 0) |
 * | … | B + pad | the new terms' canonical bytes, concatenated as the dictionary's arena holds them |
 * | … | per change | 16 bytes: u32 table id, u32 arity, u32 A added, u32 R removed; then A·arity u32 (pad), R·arity u32 (pad) |
 * | … | J + pad | UTF-8 JSON array of {@link CatalogueOperation} |
 * | … | 8 | version 2 only: u32 D, number of derived table changes; u32 reserved, 0 |
 * | … | per change | version 2 only: D derived changes, laid out as the table changes above |
 *
 * `pad` is zero padding to a multiple of 8. The body must end exactly after the last part. A
 * record without derived changes is always written as version 1 (byte for byte what older
 * versions of quadlog wrote and read); a reader that knows only version 1 refuses a version 2
 * record with an error naming its codec version, rather than misreading it.
 *
 * Semantics: the added and removed tuples of a table are the net change of its explicit facts
 * against the previous committed state (a fact added and removed again in the transaction is
 * in neither list), so the two lists are disjoint and their order does not matter. Replay
 * interns the terms (which must get the ids `firstTermId`, `firstTermId + 1`, …; see
 * {@link applyTerms}), applies the catalogue operations, then removes and adds the facts.
 * The derived changes, when present, are likewise the net change of the DERIVED status bit of
 * each fact (a fact that became derived is `added`, one that stopped being derived `removed`,
 * whatever happened to its explicit status), so that the explicit and the derived changes
 * applied together to the state before the record give exactly the state after it.
 * @module
 */
import { CorruptFileError } from './errors.js';
import { align8, fromLittleEndianInPlace, littleEndianBytes, paddingFor } from './framing.js';

/** The version of this codec, stored in every body. */
export const TRANSACTION_CODEC_VERSION = 1;
/** The codec version of a body that also carries derived changes ({@link TransactionRecord.derived}). */
export const DERIVED_CODEC_VERSION = 2;

/** A JSON value. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * One catalogue change, in the order it happened: `op` names it and the other fields are its
 * arguments. The set of operations is phase 2's (the store layer's) to define; for example
 * `{op: 'rule.add', text, domain}`, `{op: 'rule.remove', text, domain}`, `{op: 'prefix.set',
 * name, iri}`, `{op: 'prefix.unset', name}`, `{op: 'base-iri.set', iri}`, `{op: 'axiom.add',
 * destination, key}`, `{op: 'commit-procedure.set', text}`, `{op: 'statistics.set', name,
 * parameters}`, `{op: 'table.create', name, id, arity, parameters}`, `{op: 'table.delete',
 * name, id}`, `{op: 'data-source.register', name, type, parameters}`, `{op: 'store.clear'}`.
 */
export interface CatalogueOperation {
  /** The operation's name. */
  readonly op: string;
  /** Its arguments. */
  readonly [field: string]: JsonValue;
}

/** The new terms of a transaction: their bytes and where each ends. */
export interface NewTerms {
  /** `ends[i]` is the end offset in `bytes` of term i (the start of term i + 1). */
  readonly ends: Uint32Array;
  /** The terms' canonical UTF-8 bytes, concatenated. */
  readonly bytes: Uint8Array;
}

/** The net change of the explicit facts of one tuple table. */
export interface TableChanges {
  /** The table's id in its store. */
  readonly tableId: number;
  /** The table's arity (the tuples below have this many ids each). */
  readonly arity: number;
  /** Facts that became explicit, as id tuples one after another (length a multiple of `arity`). */
  readonly added: Uint32Array;
  /** Facts that stopped being explicit, likewise. */
  readonly removed: Uint32Array;
}

/** One committed transaction. */
export interface TransactionRecord {
  /** The dictionary size before the new terms: the id of the first of them. */
  readonly firstTermId: number;
  /** The terms interned since the previous record. */
  readonly terms: NewTerms;
  /** Per table, the net change of its explicit facts (tables without change may be left out). */
  readonly tables: readonly TableChanges[];
  /** Catalogue changes, in order. */
  readonly operations: readonly CatalogueOperation[];
  /**
   * Per table, the net change of its derived facts (the DERIVED status bit), when the record
   * carries them (codec version 2); undefined when it does not (version 1: apply the explicit
   * changes and reason). An empty list is carried too (a commit that changed no derived fact).
   */
  readonly derived?: readonly TableChanges[] | undefined;
}

const HEADER = 32;

function u8(a: Uint32Array): Uint8Array {
  return littleEndianBytes(a);
}

/** A u32 view of `length` elements at `at` in `body`, in this machine's byte order (swapped in place on a big-endian one). */
function u32s(body: Uint8Array, at: number, length: number): Uint32Array {
  fromLittleEndianInPlace(body.subarray(at, at + length * 4), 4);
  return new Uint32Array(body.buffer, body.byteOffset + at, length);
}

function checkU32(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`${what} must be a 32-bit unsigned integer (got ${value})`);
}

/**
 * The byte chunks of a transaction body, for `TransactionLog.append`: the arrays are not
 * copied (on a little-endian machine; a big-endian one writes byte-swapped copies).
 */
export function encodeTransaction(record: TransactionRecord): Uint8Array[] {
  const { terms, tables, operations } = record;
  checkU32(record.firstTermId, 'firstTermId');
  const count = terms.ends.length;
  if (count > 0 && terms.ends[count - 1] !== terms.bytes.length) throw new RangeError(`the last term ends at ${terms.ends[count - 1]}, but there are ${terms.bytes.length} term bytes`);
  if (count === 0 && terms.bytes.length !== 0) throw new RangeError('term bytes without terms');
  for (let i = 1; i < count; i++) if (terms.ends[i]! < terms.ends[i - 1]!) throw new RangeError(`term ends must not decrease (term ${i})`);
  const json = Buffer.from(JSON.stringify(operations), 'utf8');
  const header = new Uint8Array(HEADER);
  const dv = new DataView(header.buffer);
  dv.setUint32(0, record.derived === undefined ? TRANSACTION_CODEC_VERSION : DERIVED_CODEC_VERSION, true);
  dv.setUint32(8, record.firstTermId, true);
  dv.setUint32(12, count, true);
  dv.setUint32(16, terms.bytes.length, true);
  dv.setUint32(20, tables.length, true);
  dv.setUint32(24, json.length, true);
  const chunks: Uint8Array[] = [header, u8(terms.ends), paddingFor(terms.ends.byteLength), terms.bytes, paddingFor(terms.bytes.length)];
  encodeTables(tables, chunks);
  chunks.push(json, paddingFor(json.length));
  if (record.derived !== undefined) {
    const dh = new Uint8Array(8);
    new DataView(dh.buffer).setUint32(0, record.derived.length, true);
    chunks.push(dh);
    encodeTables(record.derived, chunks);
  }
  return chunks.filter((c) => c.byteLength > 0);
}

/** Appends the chunks of a list of table changes (each: its 16-byte header, then its tuples). */
function encodeTables(tables: readonly TableChanges[], chunks: Uint8Array[]): void {
  for (const t of tables) {
    checkU32(t.tableId, 'tableId');
    if (!Number.isInteger(t.arity) || t.arity < 1) throw new RangeError(`invalid arity ${t.arity} for table ${t.tableId}`);
    if (t.added.length % t.arity !== 0 || t.removed.length % t.arity !== 0) throw new RangeError(`the tuples of table ${t.tableId} are not a multiple of its arity ${t.arity}`);
    const th = new Uint8Array(16);
    const tv = new DataView(th.buffer);
    tv.setUint32(0, t.tableId, true);
    tv.setUint32(4, t.arity, true);
    tv.setUint32(8, t.added.length / t.arity, true);
    tv.setUint32(12, t.removed.length / t.arity, true);
    chunks.push(th, u8(t.added), paddingFor(t.added.byteLength), u8(t.removed), paddingFor(t.removed.byteLength));
  }
}

/** Where a body came from, for error messages. */
export interface RecordOrigin {
  /** The log's path. */
  readonly path: string;
  /** The byte offset of the body in the log. */
  readonly offset: number;
}

/**
 * Decodes a transaction body. The arrays are views over `body`, which should start at a
 * multiple of 8 in its buffer (as log bodies do; an unaligned body is copied first). On a
 * big-endian machine the id arrays are byte-swapped in place, so decode a body once.
 * @throws CorruptFileError (naming `origin`'s path and the byte offset) when the body is not
 * a well-formed transaction.
 */
export function decodeTransaction(body: Uint8Array, origin: RecordOrigin = { path: '(transaction record)', offset: 0 }): TransactionRecord {
  if (body.byteOffset % 8 !== 0) body = new Uint8Array(body);
  const fail = (at: number, why: string): never => {
    throw new CorruptFileError(origin.path, origin.offset + at, `invalid transaction record: ${why}`);
  };
  if (body.length < HEADER) fail(body.length, `${body.length} bytes, less than its ${HEADER}-byte header`);
  const dv = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const version = dv.getUint32(0, true);
  if (version !== TRANSACTION_CODEC_VERSION && version !== DERIVED_CODEC_VERSION) fail(0, `codec version ${version}, this version of quadlog reads ${TRANSACTION_CODEC_VERSION} and ${DERIVED_CODEC_VERSION}`);
  if (dv.getUint32(4, true) !== 0) fail(4, 'unknown flags');
  if (dv.getUint32(28, true) !== 0) fail(28, 'reserved bytes are not zero');
  const firstTermId = dv.getUint32(8, true);
  const count = dv.getUint32(12, true);
  const termBytes = dv.getUint32(16, true);
  const tableCount = dv.getUint32(20, true);
  const jsonBytes = dv.getUint32(24, true);
  let at = HEADER;
  const take = (bytes: number, what: string): number => {
    const start = at;
    const end = start + align8(bytes);
    if (end > body.length) fail(start, `${what} (${bytes} bytes) run past the end of the record (${body.length} bytes)`);
    for (let i = start + bytes; i < end; i++) if (body[i] !== 0) fail(i, `padding after ${what} is not zero`);
    at = end;
    return start;
  };
  const endsAt = take(count * 4, 'the term ends');
  const ends = u32s(body, endsAt, count);
  const bytesAt = take(termBytes, 'the term bytes');
  const bytes = body.subarray(bytesAt, bytesAt + termBytes);
  let previous = 0;
  for (let i = 0; i < count; i++) {
    const end = ends[i]!;
    if (end < previous || end > termBytes) fail(endsAt + 4 * i, `term ${i} ends at ${end}, outside [${previous}, ${termBytes}]`);
    previous = end;
  }
  if (count > 0 && previous !== termBytes) fail(endsAt + 4 * (count - 1), `the last term ends at ${previous}, not at the end of the ${termBytes} term bytes`);
  if (count === 0 && termBytes !== 0) fail(16, 'term bytes without terms');
  const readTables = (n: number, what: string): TableChanges[] => {
    const out: TableChanges[] = [];
    const seen = new Set<number>();
    for (let k = 0; k < n; k++) {
      const th = take(16, `the header of ${what} ${k}`);
      const tableId = dv.getUint32(th, true);
      const arity = dv.getUint32(th + 4, true);
      const added = dv.getUint32(th + 8, true);
      const removed = dv.getUint32(th + 12, true);
      if (arity === 0) fail(th + 4, `table ${tableId} has arity 0`);
      if (what === 'derived change' && seen.has(tableId)) fail(th, `table ${tableId} has two derived changes`);
      seen.add(tableId);
      const addedAt = take(added * arity * 4, `the added tuples of table ${tableId}`);
      const removedAt = take(removed * arity * 4, `the removed tuples of table ${tableId}`);
      out.push({
        tableId,
        arity,
        added: u32s(body, addedAt, added * arity),
        removed: u32s(body, removedAt, removed * arity),
      });
    }
    return out;
  };
  const tables = readTables(tableCount, 'table change');
  const jsonAt = take(jsonBytes, 'the operations');
  let derived: TableChanges[] | undefined;
  if (version === DERIVED_CODEC_VERSION) {
    const dh = take(8, 'the header of the derived changes');
    if (dv.getUint32(dh + 4, true) !== 0) fail(dh + 4, 'reserved bytes of the derived changes are not zero');
    derived = readTables(dv.getUint32(dh, true), 'derived change');
  }
  if (at !== body.length) fail(at, `${body.length - at} bytes follow the last part`);
  let operations: unknown;
  try {
    operations = JSON.parse(Buffer.from(body.buffer, body.byteOffset + jsonAt, jsonBytes).toString('utf8'));
  } catch {
    fail(jsonAt, 'the operations are not valid JSON');
  }
  if (!Array.isArray(operations)) return fail(jsonAt, 'the operations are not a JSON array');
  for (const [i, op] of operations.entries()) {
    if (typeof op !== 'object' || op === null || Array.isArray(op) || typeof (op as { op?: unknown }).op !== 'string') fail(jsonAt, `operation ${i} is not an object with a string 'op'`);
  }
  const record: TransactionRecord = { firstTermId, terms: { ends, bytes }, tables, operations: operations as CatalogueOperation[] };
  return derived === undefined ? record : { ...record, derived };
}

/** What {@link collectTerms} reads from a term dictionary (`TermDictionary` has it). */
export interface TermSource {
  /** The canonical keys of the terms with ids [from, to) and where each ends. */
  canonicalTerms(from: number, to: number): NewTerms;
}

/** The terms with ids [from, to) of a dictionary as {@link NewTerms} (their canonical keys). */
export function collectTerms(dictionary: TermSource, from: number, to: number): NewTerms {
  return dictionary.canonicalTerms(from, to);
}

/** What {@link applyTerms} writes to (`TermDictionary` has it). */
export interface TermSink {
  /** Number of terms. */
  readonly size: number;
  /** The id of bytes [start, end), interning them if new. */
  internBytes(bytes: Uint8Array, start: number, end: number): number;
}

/**
 * Interns a record's new terms into a dictionary during replay, checking that the dictionary
 * is at least as large as it was when the record was written and that each term gets the id it
 * had (a term present under another id, or a gap, means the log does not belong to this
 * state); terms the dictionary holds already under their ids are kept.
 * @throws CorruptFileError naming `origin`.
 */
export function applyTerms(dictionary: TermSink, record: TransactionRecord, origin: RecordOrigin = { path: '(transaction record)', offset: 0 }): void {
  // a record may repeat terms the snapshot holds already (terms a reader added to the
  // dictionary before a compaction are logged with the next commit after it): each must then
  // have the id it has here
  if (dictionary.size < record.firstTermId) {
    throw new CorruptFileError(origin.path, origin.offset, `the record's new terms start at id ${record.firstTermId}, but the dictionary has ${dictionary.size} terms (the log does not follow this state)`);
  }
  const { ends, bytes } = record.terms;
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i]!;
    const id = dictionary.internBytes(bytes, start, end);
    if (id !== record.firstTermId + i) {
      throw new CorruptFileError(origin.path, origin.offset, `new term ${record.firstTermId + i} of the record is already in the dictionary as id ${id}`);
    }
    start = end;
  }
}
