/**
 * Test helpers for the content and SPARQL resources: reading the text form of import
 * notifications, serving files over a throw-away local HTTP server, and sending a large body
 * as a stream with node:http while reading the response.
 * @module
 */
import { createServer, request, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_AUTH } from './helpers.js';

/** A text-form notification answer: status, Content-Type, lines. */
export interface TextAnswer {
  /** The status. */
  readonly status: number;
  /** The Content-Type header ('' when absent). */
  readonly contentType: string;
  /** The body's lines (without the final empty one). */
  readonly lines: string[];
  /** The body. */
  readonly text: string;
}

/** Reads a response as a text answer. */
export async function textAnswer(res: Response): Promise<TextAnswer> {
  const text = await res.text();
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', lines, text };
}

/** The value of `information: <name> = <value>` in a text answer, or undefined. */
export function information(answer: TextAnswer, name: string): string | undefined {
  const prefix = `information: ${name} = `;
  return answer.lines.find((l) => l.startsWith(prefix))?.slice(prefix.length);
}

/** The summary lines of a text answer with the given counts (the others 0, not aborted). */
export function summaryLines(counts: Readonly<Record<string, number>> = {}): string[] {
  const names = ['#errors', '#warnings', '#processed-facts', '#changed-facts', '#processed-rules', '#changed-rules', '#processed-axioms', '#changed-axioms'];
  return ['information: #aborted = false', ...names.map((n) => `information: ${n} = ${counts[n] ?? 0}`)];
}

/** Headers of a request whose body has no stated type (fetch would send text/plain for a string body). */
export function untyped(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { 'content-type': '', ...extra };
}

/** A local HTTP server serving fixed documents by path. */
export interface FileServer {
  /** Base URL (no trailing slash). */
  readonly url: string;
  /** Stops the server. */
  close(): Promise<void>;
}

/** Serves `documents` (path → Content-Type and body) on a loopback port; other paths 404. */
export async function serveDocuments(documents: Readonly<Record<string, { readonly type?: string; readonly body: string }>>): Promise<FileServer> {
  const server: HttpServer = createServer((req, res) => {
    const doc = documents[req.url ?? ''];
    if (!doc) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, doc.type !== undefined ? { 'Content-Type': doc.type } : {});
    res.end(doc.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What {@link streamBody} observed. */
export interface StreamedExchange {
  /** The response status. */
  readonly status: number;
  /** The response headers. */
  readonly headers: IncomingHttpHeaders;
  /** The response body. */
  readonly body: string;
  /** Bytes the client had sent when the response headers arrived. */
  readonly sentAtHeaders: number;
  /** Bytes sent in all. */
  readonly sent: number;
  /** Milliseconds from the start to the end of the response. */
  readonly elapsedMs: number;
}

/**
 * Sends `first` followed by `filler` repeated until about `totalBytes` bytes as a streamed
 * request body (with backpressure), reading the response while sending.
 */
export function streamBody(url: string, options: { readonly method: string; readonly headers: Readonly<Record<string, string>>; readonly first: string; readonly filler: string; readonly totalBytes: number }): Promise<StreamedExchange> {
  const start = Date.now();
  return new Promise<StreamedExchange>((resolve, reject) => {
    let sent = 0;
    let sentAtHeaders = -1;
    let response: { status: number; headers: IncomingHttpHeaders; body: string } | undefined;
    let finishedSending = false;
    const settle = (): void => {
      if (response && finishedSending) resolve({ ...response, sentAtHeaders, sent, elapsedMs: Date.now() - start });
    };
    const req = request(url, { method: options.method, headers: { authorization: ADMIN_AUTH, ...options.headers } }, (res) => {
      sentAtHeaders = sent;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => {
        response = { status: res.statusCode ?? 0, headers: res.headers, body };
        settle();
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.on('finish', () => {
      finishedSending = true;
      settle();
    });
    const block = options.filler.repeat(Math.max(1, Math.floor((256 * 1024) / options.filler.length)));
    const pump = (): void => {
      while (sent < options.totalBytes) {
        const chunk = sent === 0 ? options.first : block;
        sent += Buffer.byteLength(chunk);
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}
