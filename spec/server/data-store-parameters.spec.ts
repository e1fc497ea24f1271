import { expect } from 'chai';
import { BadRequestError } from '../../lib/index.js';
import { DATA_STORE_TYPES, DEFAULT_DATA_STORE_TYPE, resolveDataStoreParameters, resolveDataStoreType } from '../../lib/server/data-store-parameters.js';
import { expectError } from '../helpers/server.js';

const DEFAULTS = {
  'by-levels': 'true',
  'use-DRed': 'false',
  equality: 'off',
  persistence: 'off',
};

describe('data store types and parameters', () => {
  describe('resolveDataStoreType', () => {
    it('defaults to parallel-nn', () => {
      expect(DEFAULT_DATA_STORE_TYPE).to.equal('parallel-nn');
      expect(resolveDataStoreType(undefined)).to.equal('parallel-nn');
      expect(resolveDataStoreType('')).to.equal('parallel-nn');
    });

    it('accepts the current names', () => {
      for (const t of DATA_STORE_TYPES) expect(resolveDataStoreType(t)).to.equal(t);
      expect([...DATA_STORE_TYPES]).to.deep.equal(['parallel-nn', 'parallel-nw', 'parallel-ww']);
    });

    it('maps the older names to the current ones', () => {
      expect(resolveDataStoreType('par-complex-nn')).to.equal('parallel-nn');
      expect(resolveDataStoreType('par-complex-nw')).to.equal('parallel-nw');
      expect(resolveDataStoreType('par-complex-ww')).to.equal('parallel-ww');
      expect(resolveDataStoreType('par-simple-nn')).to.equal('parallel-nn');
      expect(resolveDataStoreType('par-simple-nw')).to.equal('parallel-nw');
      expect(resolveDataStoreType('par-simple-ww')).to.equal('parallel-ww');
    });

    it('rejects anything else, listing the allowed types', async () => {
      for (const bad of ['parallel', 'parallel-xx', 'PARALLEL-NN', 'seq', ' parallel-nn', 'par-complex-nn-extra']) {
        const e = await expectError(() => resolveDataStoreType(bad), BadRequestError);
        expect(e.message).to.contain(`'${bad}'`).and.contain('parallel-nn, parallel-nw, parallel-ww');
      }
    });
  });

  describe('resolveDataStoreParameters', () => {
    it('fills in the defaults', () => {
      expect(resolveDataStoreParameters({})).to.deep.equal(DEFAULTS);
    });

    it('keeps given values', () => {
      const p = resolveDataStoreParameters({ 'by-levels': 'false', 'use-DRed': 'true' });
      expect(p).to.deep.equal({ ...DEFAULTS, 'by-levels': 'false', 'use-DRed': 'true' });
    });

    it('does not change its argument', () => {
      const given = { 'by-levels': 'false' };
      resolveDataStoreParameters(given);
      expect(given).to.deep.equal({ 'by-levels': 'false' });
    });

    it('rejects unknown parameters, naming them and the known ones', async () => {
      const e = await expectError(() => resolveDataStoreParameters({ 'by-level': 'true' }), BadRequestError);
      expect(e.message).to.contain("'by-level'").and.contain('by-levels');
    });

    it('checks booleans', async () => {
      for (const key of ['by-levels', 'use-DRed']) {
        expect(resolveDataStoreParameters({ [key]: 'true' })[key]).to.equal('true');
        expect(resolveDataStoreParameters({ [key]: 'false' })[key]).to.equal('false');
        for (const bad of ['yes', 'TRUE', '1', '']) {
          const e = await expectError(() => resolveDataStoreParameters({ [key]: bad }), BadRequestError);
          expect(e.message).to.contain(key).and.contain('true or false');
        }
      }
    });

    it('accepts equality off, noUNA and UNA, and refuses anything else', async () => {
      for (const v of ['off', 'noUNA', 'UNA']) expect(resolveDataStoreParameters({ equality: v }).equality).to.equal(v);
      const e = await expectError(() => resolveDataStoreParameters({ equality: 'sometimes' }), BadRequestError);
      expect(e.message).to.contain('off, noUNA or UNA');
    });

    it('accepts only persistence=off', async () => {
      expect(resolveDataStoreParameters({ persistence: 'off' }).persistence).to.equal('off');
      const e = await expectError(() => resolveDataStoreParameters({ persistence: 'file' }), BadRequestError);
      expect(e.message).to.contain('persistence');
    });
  });
});
