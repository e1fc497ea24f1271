/**
 * Test helpers for imports that must fail: await the call, check that it rejected with
 * {@link ImportError}, and give the error or the import's result it carries.
 *
 * ```ts
 * const r = await importFailure(ds.importData('ADD', '<a> <b> .', { mediaType: N_TRIPLES }));
 * expect(r.errors).to.equal(1);
 * ```
 */
import { expect } from 'chai';
import { ImportError, type ImportResult } from '../../lib/index.js';

/** The ImportError `call` rejects with (fails the test when it resolves or rejects otherwise). */
export async function importError(call: Promise<unknown>): Promise<ImportError> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) expect.fail(`the import should have been rejected with ImportError, but resolved with:\n${(outcome.value as ImportResult | undefined)?.text ?? String(outcome.value)}`);
  expect(outcome.error, String(outcome.error)).to.be.instanceOf(ImportError);
  const error = outcome.error as ImportError;
  expect(error.status).to.equal(400);
  expect(error.name).to.equal('ImportError');
  expect(error.result.errors, 'an ImportError carries a result with errors').to.be.greaterThan(0);
  return error;
}

/** The result carried by the ImportError `call` rejects with. */
export async function importFailure(call: Promise<unknown>): Promise<ImportResult> {
  return (await importError(call)).result;
}
