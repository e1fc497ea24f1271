import { expect } from 'chai';
import fc from 'fast-check';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptFileError, ForeignFileError } from '../../lib/persistence/errors.js';
import {
  createStoreDirectory,
  decodeStoreName,
  encodeStoreName,
  listStoreDirectories,
  MAX_ENCODED_NAME,
  prepareServerDirectory,
  readDocument,
  removeDeletedStoreDirectories,
  removeStoreDirectory,
  serverLayout,
  storeLayout,
  writeDocument,
} from '../../lib/persistence/layout.js';
import { flippedCopy, truncatedCopy, useTempDir } from './helpers.js';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (e) {
    return e as Error;
  }
  expect.fail('expected a rejection');
}

describe('persistence layout', () => {
  const tmp = useTempDir();

  describe('store directory names', () => {
    it('keep plain lower-case names as they are and escape the rest', () => {
      expect(encodeStoreName('family-2024_v1')).to.equal('family-2024_v1');
      expect(encodeStoreName('MyStore')).to.equal('^my^store');
      expect(encodeStoreName('a.b~c')).to.equal('a%2Eb%7Ec');
      expect(encodeStoreName('..')).to.equal('%2E%2E');
      expect(encodeStoreName('a/b\\c')).to.equal('a%2Fb%5Cc');
      expect(encodeStoreName('ünï ✓')).to.equal('%C3%BCn%C3%AF%20%E2%9C%93');
      expect(encodeStoreName('con')).to.equal('%63on');
      expect(encodeStoreName('lpt1')).to.equal('%6Cpt1');
      expect(encodeStoreName('CON')).to.equal('^c^o^n');
      expect(() => encodeStoreName('')).to.throw(RangeError);
    });

    it('decode back to the name, and are safe, distinct even ignoring case, and short', () => {
      const unit = fc.oneof(fc.constantFrom(...'aAzZ09._-~^%/\\ :'), fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }));
      const names = fc.array(unit, { minLength: 1, maxLength: 30 }).map((parts) => parts.join(''));
      fc.assert(
        fc.property(names, names, (a, b) => {
          const ea = encodeStoreName(a);
          expect(ea).to.match(/^[a-z0-9_^%A-F~-]+$/);
          expect(ea.length).to.be.at.most(MAX_ENCODED_NAME);
          if (!ea.includes('~')) expect(decodeStoreName(ea)).to.equal(a);
          if (a !== b) expect(ea.toLowerCase()).to.not.equal(encodeStoreName(b).toLowerCase());
        }),
        { numRuns: 500 },
      );
    });

    it('shorten long names with a hash, which cannot be decoded', () => {
      const long = 'Ä'.repeat(300);
      const a = encodeStoreName(long);
      const b = encodeStoreName(`${long}x`);
      expect(a.length).to.be.at.most(MAX_ENCODED_NAME);
      expect(a).to.not.equal(b);
      expect(a).to.match(/~[0-9a-f]{16}$/);
      expect(decodeStoreName(a)).to.equal(undefined);
      expect(decodeStoreName('.deleted-1234')).to.equal(undefined);
      expect(decodeStoreName('^A')).to.equal(undefined);
      expect(decodeStoreName('%2e')).to.equal(undefined);
    });
  });

  describe('directories', () => {
    it('lays out the server directory and store directories', async () => {
      const layout = await prepareServerDirectory(join(tmp.path, 'server'));
      expect(layout).to.deep.equal(serverLayout(join(tmp.path, 'server')));
      expect(layout.lockFile).to.equal(join(tmp.path, 'server', 'lock'));
      expect((await stat(layout.directory)).mode & 0o777).to.equal(0o700);
      expect(await readdir(layout.directory)).to.deep.equal(['stores']);
      const store = storeLayout(layout, 'Family');
      expect(store.directory).to.equal(join(layout.storesDirectory, '^family'));
      expect(store.snapshotFile).to.equal(join(store.directory, 'snapshot.qsnap'));
      expect(store.logFile).to.equal(join(store.directory, 'transactions.qlog'));
      await createStoreDirectory(layout, store);
      await createStoreDirectory(layout, storeLayout(layout, 'other'));
      await writeFile(store.snapshotFile, 'x');
      expect(await listStoreDirectories(layout)).to.deep.equal(['^family', 'other']);
      await removeStoreDirectory(layout, store);
      expect(await listStoreDirectories(layout)).to.deep.equal(['other']);
      expect(await readdir(layout.storesDirectory)).to.deep.equal(['other']);
      await removeStoreDirectory(layout, store);
      expect(() => storeLayout(layout, 'x', '..')).to.throw(RangeError);
    });

    it('removes what an interrupted store deletion left', async () => {
      const layout = await prepareServerDirectory(tmp.path);
      await mkdir(join(layout.storesDirectory, '.deleted-0123456789ab', 'inner'), { recursive: true });
      await mkdir(join(layout.storesDirectory, 'kept'));
      expect(await listStoreDirectories(layout)).to.deep.equal(['kept']);
      await removeDeletedStoreDirectories(layout);
      expect(await readdir(layout.storesDirectory)).to.deep.equal(['kept']);
    });
  });

  describe('server documents', () => {
    const doc = { stores: [{ name: 'family', directory: 'family', type: 'parallel-nn', parameters: { equality: 'off' } }] };

    it('round-trip, readable only by the owner', async () => {
      const path = join(tmp.path, 'server-catalogue.qdoc');
      expect(await readDocument(path)).to.equal(undefined);
      await writeDocument(path, doc, { sequence: 3 });
      expect(await readDocument(path)).to.deep.equal({ sequence: 3, value: doc });
      expect((await stat(path)).mode & 0o777).to.equal(0o600);
      await writeDocument(path, { stores: [] }, { sequence: 4 });
      expect(await readDocument(path)).to.deep.equal({ sequence: 4, value: { stores: [] } });
      expect(await readdir(tmp.path)).to.deep.equal(['server-catalogue.qdoc']);
    });

    it('refuse truncated, damaged and foreign files with the path and offset', async () => {
      const path = join(tmp.path, 'roles.qdoc');
      await writeDocument(path, doc);
      const size = (await readFile(path)).length;
      for (let n = 0; n < size; n++) {
        const copy = join(tmp.path, 'short.qdoc');
        await truncatedCopy(path, copy, n);
        const e = await rejection(readDocument(copy));
        expect(e, `length ${n}`).to.be.instanceOf(CorruptFileError);
        expect(e.message).to.include(copy);
      }
      for (let offset = 0; offset < size; offset++) {
        const copy = join(tmp.path, 'flipped.qdoc');
        await flippedCopy(path, copy, offset, offset % 8);
        const e = await rejection(readDocument(copy));
        expect(e.message, `byte ${offset}`).to.include(copy).and.match(/at byte \d+/);
      }
      await writeFile(path, '{"stores": []}');
      expect(await rejection(readDocument(path))).to.be.instanceOf(ForeignFileError);
    });
  });
});
