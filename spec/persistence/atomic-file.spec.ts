import { expect } from 'chai';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fsyncDirectory, isTemporaryFileName, removeTemporaryFiles, temporaryPathFor, writeChunks, writeFileAtomically } from '../../lib/persistence/atomic-file.js';
import { StorageWriteError } from '../../lib/persistence/errors.js';
import { seededBytes, useTempDir } from './helpers.js';

/** A file handle stand-in whose writev writes at most `step` bytes per call into `file`. */
function shortWriter(file: number[], step: number): FileHandle {
  return {
    writev: (buffers: Uint8Array[], position: number) => {
      let written = 0;
      for (const b of buffers) {
        for (const byte of b) {
          if (written === step) break;
          file[position + written] = byte;
          written++;
        }
      }
      return Promise.resolve({ bytesWritten: written, buffers });
    },
  } as unknown as FileHandle;
}

describe('persistence atomic files', () => {
  const tmp = useTempDir();

  it('writes every byte across short writes, many buffers and empty ones', async () => {
    const chunks = [seededBytes(7, 1), new Uint8Array(0), seededBytes(13, 2), ...Array.from({ length: 1500 }, (_, i) => Uint8Array.of(i & 0xff))];
    const expected = Buffer.concat(chunks);
    for (const step of [1, 5, 8, 64, 1 << 20]) {
      const file: number[] = [];
      expect(await writeChunks(shortWriter(file, step), chunks, 10)).to.equal(expected.length);
      expect(Buffer.from(file.slice(10)).equals(expected), `step ${step}`).to.equal(true);
    }
  });

  it('replaces a file whole and leaves no temporary file', async () => {
    const path = join(tmp.path, 'doc');
    await writeFile(path, 'old');
    await writeFileAtomically(path, [Buffer.from('new '), Buffer.from('content')], { mode: 0o600 });
    expect(await readFile(path, 'utf8')).to.equal('new content');
    expect(await readdir(tmp.path)).to.deep.equal(['doc']);
    await fsyncDirectory(tmp.path);
  });

  it('fails with a clear error, removing its temporary file, when the write cannot be done', async () => {
    const path = join(tmp.path, 'missing-directory', 'doc');
    try {
      await writeFileAtomically(path, [Buffer.from('x')], { what: 'the test document' });
      expect.fail('written');
    } catch (e) {
      expect(e).to.be.instanceOf(StorageWriteError);
      expect((e as Error).message).to.include(`could not write the test document ${path}`).and.include('unchanged');
    }
    // a directory in the way of the rename
    await mkdir(join(tmp.path, 'dir'));
    await writeFile(join(tmp.path, 'dir', 'inner'), 'x');
    try {
      await writeFileAtomically(join(tmp.path, 'dir'), [Buffer.from('x')]);
      expect.fail('written');
    } catch (e) {
      expect(e).to.be.instanceOf(StorageWriteError);
    }
    expect(await readdir(tmp.path)).to.deep.equal(['dir']);
  });

  it('recognises and removes only its own temporary files', async () => {
    const temporary = temporaryPathFor(join(tmp.path, 'snapshot.qsnap'));
    expect(isTemporaryFileName(temporary)).to.equal(true);
    for (const name of ['snapshot.qsnap', 'notes.tmp', 'x.tmp-12-abc', 'lock.pending-1-0123456789ab']) expect(isTemporaryFileName(name), name).to.equal(false);
    await writeFile(temporary, 'half');
    await writeFile(join(tmp.path, 'snapshot.qsnap'), 'whole');
    await writeFile(join(tmp.path, 'notes.tmp'), 'keep');
    expect(await removeTemporaryFiles(tmp.path)).to.deep.equal([temporary.slice(tmp.path.length + 1)]);
    expect((await readdir(tmp.path)).sort()).to.deep.equal(['notes.tmp', 'snapshot.qsnap']);
    expect(await removeTemporaryFiles(join(tmp.path, 'absent'))).to.deep.equal([]);
  });
});
