import { Writable } from 'node:stream';
import { expect } from 'chai';
import type { ProgressReport } from '../../lib/index.js';
import { progressLine } from '../../lib/commands/index.js';
import { TerminalProgress } from '../../lib/shell/progress-bar.js';

const report = (over: Partial<ProgressReport>): ProgressReport => ({ operation: 'import', bytes: 0, totalBytes: undefined, facts: 0, fraction: undefined, elapsedMs: 2000, finished: false, ...over });

describe('shell: progress display', () => {
  it('writes a plain line with the part done, amounts, rate and time left', () => {
    expect(progressLine('import data.ttl', report({ bytes: 5_000_000, totalBytes: 20_000_000, facts: 120_000, fraction: 0.25 }))).to.equal(
      'import data.ttl: 25%, 5.00 MB of 20.0 MB, 120,000 facts, 2.50 MB/s, 6 s left, 2.000 s elapsed',
    );
    expect(progressLine('reasoning', report({ operation: 'reasoning', facts: 3000 }))).to.equal('reasoning: 3,000 facts, 1,500 facts/s, 2.000 s elapsed');
  });

  it('draws a bar on a terminal (cli-progress), and removes it at the end', () => {
    let text = '';
    const stream = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          text += chunk.toString();
          callback();
        },
      }),
      { isTTY: true, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true },
    ) as unknown as NodeJS.WriteStream;
    const bar = new TerminalProgress(stream);
    bar.update('import data.ttl', report({ bytes: 5_000_000, totalBytes: 20_000_000, facts: 120_000, fraction: 0.25 }));
    bar.end('import data.ttl', report({ bytes: 20_000_000, totalBytes: 20_000_000, facts: 480_000, fraction: 1, elapsedMs: 8000, finished: true }));
    // cli-progress redraws on its own clock: the first state and the last are drawn for sure
    expect(text).to.contain('import data.ttl |').and.contain('5.00 MB/20.0 MB, 120,000 facts').and.contain('6 s left');
    expect(text).to.contain('100%').and.contain('20.0 MB/20.0 MB, 480,000 facts').and.contain('2.50 MB/s');
  });
});
