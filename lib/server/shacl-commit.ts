/**
 * Validation on commit (data store parameter `shacl-validation-on-commit=on`, with
 * `shacl-data-graph` and `shacl-shapes-graph`): after reasoning and the commit procedure, a
 * commit validates the transaction's result and fails with {@link ShaclViolationError} when it
 * does not conform, so that the store keeps the state it had. Only the focus nodes the
 * transaction's changes (of every fact, explicit and derived) can have affected are validated
 * (`affectedFocusNodes` of the shacl layer); all of them when it cannot tell, e.g. when the
 * shapes changed. This relies on the state before the transaction conforming, which holds when
 * the parameter was on from the store's creation (it is a creation parameter).
 *
 * The shapes as read (`CompiledShapes`) are kept from one commit to the next while the shapes
 * graph does not change: they serve a transaction only when it starts from the version the
 * commit that read them published (nothing was written since and nothing rolled back), the
 * dictionary holds at least the terms it held then, and the transaction's changes cannot have
 * changed the shapes (`changesShapes`); otherwise the shapes are read again.
 * @module
 */
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { TransactionChanges } from '../storage/change-log.js';
import { type StoreState, WriteTransaction } from '../storage/fact-store.js';
import { affectedFocusNodes, changesShapes, CompiledShapes, type ShaclDataSelection, validate } from '../shacl/index.js';
import type { CommitValidation } from './shacl-commit-options.js';
import { ShaclViolationError, type ValidationOptions } from './shacl-report.js';
import { reportInTerms, selectionOf } from './shacl-validation.js';

/** Shapes read by a commit that validated, for the next one. */
interface KeptShapes {
  /** The shapes. */
  readonly compiled: CompiledShapes;
  /** The version the commit that read them was to publish. */
  readonly version: number;
  /** The dictionary's size after that validation. */
  readonly terms: number;
}

/** The shapes kept per store (by its dictionary). */
const kept = new WeakMap<TermDictionary, KeptShapes>();

/** The kept shapes of the store if they can serve this transaction, else undefined. */
function keptShapes(state: StoreState, dictionary: TermDictionary, selection: ShaclDataSelection, changes: TransactionChanges): CompiledShapes | undefined {
  const k = kept.get(dictionary);
  if (k === undefined || !(state instanceof WriteTransaction)) return undefined;
  if (state.base.version !== k.version || state.termMark < k.terms || dictionary.size < k.terms) return undefined;
  if (!k.compiled.fits(selection) || changesShapes(k.compiled, changes)) return undefined;
  return k.compiled;
}

/**
 * Validates the result of a transaction before it is published.
 * @throws ShaclViolationError when it does not conform (the caller rolls back).
 */
export async function validateCommit(options: ValidationOptions, state: StoreState, dictionary: TermDictionary, changes: TransactionChanges, interrupter: Interrupter): Promise<CommitValidation> {
  const selection = selectionOf(state, dictionary, options);
  const compiled = selection === undefined ? undefined : (keptShapes(state, dictionary, selection, changes) ?? new CompiledShapes(selection));
  kept.delete(dictionary);
  // a shapes graph the store never held: no shapes, nothing to violate
  if (selection === undefined || compiled === undefined) return { kind: 'skipped', focusNodes: 0 };
  const affected = affectedFocusNodes(selection, changes, compiled);
  let result: CommitValidation;
  if (affected !== 'all' && affected.size === 0) result = { kind: 'skipped', focusNodes: 0 };
  else {
    const report = await validate(selection, affected === 'all' ? { interrupter } : { interrupter, focusNodes: affected }, compiled);
    if (!report.conforms) throw new ShaclViolationError(reportInTerms(report, dictionary));
    result = affected === 'all' ? { kind: 'full', focusNodes: 0 } : { kind: 'focused', focusNodes: affected.size };
  }
  kept.set(dictionary, { compiled, version: state.version, terms: dictionary.size });
  return result;
}
