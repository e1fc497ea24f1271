/**
 * Validation on commit (data store parameter `shacl-validation-on-commit=on`, with
 * `shacl-data-graph` and `shacl-shapes-graph`): after reasoning and the commit procedure, a
 * commit validates the transaction's result and fails with {@link ShaclViolationError} when it
 * does not conform, so that the store keeps the state it had. Only the focus nodes the
 * transaction's changes (of every fact, explicit and derived) can have affected are validated
 * (`affectedFocusNodes` of the shacl layer); all of them when it cannot tell, e.g. when the
 * shapes changed. This relies on the state before the transaction conforming, which holds when
 * the parameter was on from the store's creation (it is a creation parameter).
 * @module
 */
import type { Interrupter } from '../model/control.js';
import type { TermDictionary } from '../model/dictionary.js';
import type { TransactionChanges } from '../storage/change-log.js';
import type { StoreState } from '../storage/fact-store.js';
import { affectedFocusNodes, validate } from '../shacl/index.js';
import type { CommitValidation } from './shacl-commit-options.js';
import { ShaclViolationError, type ValidationOptions } from './shacl-report.js';
import { reportInTerms, selectionOf } from './shacl-validation.js';

/**
 * Validates the result of a transaction before it is published.
 * @throws ShaclViolationError when it does not conform (the caller rolls back).
 */
export async function validateCommit(options: ValidationOptions, state: StoreState, dictionary: TermDictionary, changes: TransactionChanges, interrupter: Interrupter): Promise<CommitValidation> {
  const selection = selectionOf(state, dictionary, options);
  // a shapes graph the store never held: no shapes, nothing to violate
  if (selection === undefined) return { kind: 'skipped', focusNodes: 0 };
  const affected = affectedFocusNodes(selection, changes);
  if (affected !== 'all' && affected.size === 0) return { kind: 'skipped', focusNodes: 0 };
  const report = await validate(selection, affected === 'all' ? { interrupter } : { interrupter, focusNodes: affected });
  if (!report.conforms) throw new ShaclViolationError(reportInTerms(report, dictionary));
  return affected === 'all' ? { kind: 'full', focusNodes: 0 } : { kind: 'focused', focusNodes: affected.size };
}
