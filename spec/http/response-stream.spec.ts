import { expect } from 'chai';
import { request } from 'node:http';
import type { ServerResponse } from 'node:http';
import { ResponseStream, WRITE_SIZE } from '../../lib/http/response-stream.js';
import { listen } from '../helpers/listen.js';

/** Serves one response produced by `produce` through a ResponseStream; returns the body, headers and the number of writes to the socket. */
async function serve(
  holdBack: number,
  produce: (stream: ResponseStream) => Promise<void>,
  readSlowly = false,
): Promise<{ body: string; headers: Record<string, string | string[] | undefined>; writes: number; written: unknown[] }> {
  let writes = 0;
  const written: unknown[] = [];
  const server = await listen((_req, res: ServerResponse) => {
    const write = res.write.bind(res) as (chunk: string | Uint8Array) => boolean;
    res.write = ((chunk: string | Uint8Array) => {
      writes++;
      written.push(chunk);
      return write(chunk);
    }) as typeof res.write;
    const stream = new ResponseStream(
      res,
      (body) => res.writeHead(200, { 'Content-Type': 'text/plain', ...(body !== undefined ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}) }),
      holdBack,
    );
    void produce(stream).then(() => stream.end());
  });
  try {
    return await new Promise((resolve, reject) => {
      request(server.url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          if (readSlowly) {
            res.pause();
            setImmediate(() => res.resume());
          }
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8'), headers: res.headers, writes, written }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
  } finally {
    await server.close();
  }
}

const row = (i: number): string => `<http://example.com/s${i}>\t<http://example.com/p>\t"value ${i} é"\n`;

describe('ResponseStream', () => {
  it('writes a 100,000-row answer whole, in large pieces rather than one write per row', async () => {
    const rows = 100_000;
    const { body, writes, headers } = await serve(16 * 1024, async (stream) => {
      for (let i = 0; i < rows; i++) {
        const wait = stream.write(row(i));
        if (wait) await wait;
      }
    });
    expect(body).to.equal(Array.from({ length: rows }, (_, i) => row(i)).join(''));
    expect(headers['content-length']).to.equal(undefined);
    expect(writes).to.be.at.most(Math.ceil(body.length / WRITE_SIZE) + 1);
  });

  it('sends an answer that ends within the held-back part at once, with its Content-Length', async () => {
    const { body, headers, writes } = await serve(16 * 1024, async (stream) => {
      void stream.write('a\n');
      void stream.write('b é\n');
      await Promise.resolve();
    });
    expect(body).to.equal('a\nb é\n');
    expect(headers['content-length']).to.equal(String(Buffer.byteLength('a\nb é\n')));
    expect(writes).to.equal(0);
  });

  it('asks the producer to wait while the client reads slowly, and loses nothing', async () => {
    let waits = 0;
    const piece = 'x'.repeat(1000) + '\n';
    const { body } = await serve(
      0,
      async (stream) => {
        for (let i = 0; i < 20_000; i++) {
          const wait = stream.write(piece);
          if (wait) {
            waits++;
            await wait;
          }
        }
      },
      true,
    );
    expect(body.length).to.equal(piece.length * 20_000);
    expect(waits).to.be.greaterThan(0);
  });

  describe('with chunks of bytes', () => {
    const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

    it('writes large byte chunks as they are: the same objects, no copy, no string', async () => {
      const pieces = Array.from({ length: 40 }, (_, i) => bytes(row(i).repeat(700)));
      const { body, written } = await serve(0, async (stream) => {
        for (const piece of pieces) {
          const wait = stream.write(piece);
          if (wait) await wait;
        }
      });
      expect(body).to.equal(pieces.map((p) => p.toString('utf8')).join(''));
      expect(written.length).to.be.greaterThan(0);
      for (const chunk of written) expect(pieces).to.include(chunk);
    });

    it('gathers small byte chunks into writes of about WRITE_SIZE, keeping multi-byte characters whole', async () => {
      const rows = 20_000;
      const { body, writes } = await serve(0, async (stream) => {
        for (let i = 0; i < rows; i++) {
          const wait = stream.write(bytes(row(i)));
          if (wait) await wait;
        }
      });
      expect(body).to.equal(Array.from({ length: rows }, (_, i) => row(i)).join(''));
      expect(writes).to.be.at.most(Math.ceil(Buffer.byteLength(body) / WRITE_SIZE) + 1);
    });

    it('sends bytes that end within the held-back part at once, with their Content-Length', async () => {
      const { body, headers, writes } = await serve(16 * 1024, async (stream) => {
        void stream.write(bytes('a\n'));
        void stream.write(bytes('b é\n'));
        await Promise.resolve();
      });
      expect(body).to.equal('a\nb é\n');
      expect(headers['content-length']).to.equal(String(Buffer.byteLength('a\nb é\n')));
      expect(writes).to.equal(0);
    });

    it('keeps the order of strings and bytes mixed', async () => {
      const pieces = Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? bytes(row(i)) : row(i)));
      for (const holdBack of [0, 1 << 20]) {
        const { body } = await serve(holdBack, async (stream) => {
          for (const piece of pieces) {
            const wait = stream.write(piece);
            if (wait) await wait;
          }
        });
        expect(body).to.equal(Array.from({ length: 3000 }, (_, i) => row(i)).join(''));
      }
    });

    it('asks the producer to wait while the client reads slowly, and loses nothing', async () => {
      let waits = 0;
      const piece = bytes('é'.repeat(20_000) + '\n');
      const { body } = await serve(
        0,
        async (stream) => {
          for (let i = 0; i < 500; i++) {
            const wait = stream.write(piece);
            if (wait) {
              waits++;
              await wait;
            }
          }
        },
        true,
      );
      expect(Buffer.byteLength(body)).to.equal(piece.length * 500);
      expect(waits).to.be.greaterThan(0);
    });
  });
});
