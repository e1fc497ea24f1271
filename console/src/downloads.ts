/**
 * Downloading and copying a query's whole answer in a format of the SPARQL endpoint.
 *
 * The answer is fetched again from `/datastores/<ds>/sparql` (the query as an
 * `application/sparql-query` body, the format in the Accept header, which the endpoint
 * negotiates), with the role's credentials; its bytes are saved as a file through a Blob and a
 * download link (nothing is written anywhere else), or copied to the clipboard as text.
 * SELECT and ASK answers come as CSV, TSV, SPARQL JSON or SPARQL XML; CONSTRUCT and DESCRIBE
 * answers as Turtle or N-Triples.
 * @module
 */
import { type Api, resource } from './api.js';
import type { SparqlForm } from './terms.js';

/** A format an answer can be downloaded in. */
export interface DownloadFormat {
  /** A short name for the menu. */
  readonly label: string;
  /** The media type asked for. */
  readonly mediaType: string;
  /** The file name's extension, without the dot. */
  readonly extension: string;
  /** Whether it is a format of graphs (CONSTRUCT, DESCRIBE) rather than of tables. */
  readonly graph: boolean;
}

/** Every download format, table formats first. */
export const DOWNLOAD_FORMATS: readonly DownloadFormat[] = [
  { label: 'CSV', mediaType: 'text/csv', extension: 'csv', graph: false },
  { label: 'TSV', mediaType: 'text/tab-separated-values', extension: 'tsv', graph: false },
  { label: 'SPARQL JSON', mediaType: 'application/sparql-results+json', extension: 'srj', graph: false },
  { label: 'SPARQL XML', mediaType: 'application/sparql-results+xml', extension: 'srx', graph: false },
  { label: 'Turtle', mediaType: 'text/turtle', extension: 'ttl', graph: true },
  { label: 'N-Triples', mediaType: 'application/n-triples', extension: 'nt', graph: true },
];

/** The formats of an answer of `form` (none for an update). ASK answers have no CSV or TSV at the endpoint. */
export function formatsFor(form: SparqlForm | undefined): DownloadFormat[] {
  if (form === 'CONSTRUCT' || form === 'DESCRIBE') return DOWNLOAD_FORMATS.filter((f) => f.graph);
  if (form === 'ASK') return DOWNLOAD_FORMATS.filter((f) => !f.graph && f.mediaType.startsWith('application/'));
  if (form === 'SELECT') return DOWNLOAD_FORMATS.filter((f) => !f.graph);
  return [];
}

/** The file name of a download: the store, the date and time, the format's extension (`family-2026-11-29-1542.csv`). */
export function downloadName(store: string, format: DownloadFormat, when: Date = new Date()): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}-${pad(when.getHours())}${pad(when.getMinutes())}${pad(when.getSeconds())}`;
  const safe = store.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '') || 'answer';
  return `${safe}-${stamp}.${format.extension}`;
}

/** Fetches the whole answer of `query` on `store` in `format` (its bytes, with the media type the endpoint sent). */
export async function fetchAnswer(api: Api, store: string, query: string, format: DownloadFormat, signal?: AbortSignal): Promise<Blob> {
  const response = await api.request(resource('datastores', store, 'sparql'), {
    method: 'POST',
    body: query,
    contentType: 'application/sparql-query',
    accept: format.mediaType,
    ...(signal ? { signal } : {}),
  });
  const bytes = await response.arrayBuffer();
  return new Blob([bytes], { type: response.headers.get('Content-Type') ?? format.mediaType });
}

/** Offers `blob` to the user as a file named `name` (a download link clicked, then revoked). */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // the download has taken the URL by the time the next task runs
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * Copies `text` to the clipboard: the Clipboard API where the page may use it, else a hidden
 * text area selected and copied.
 */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // not a secure context, or the permission was refused: the older way below
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('the browser refused to copy to the clipboard');
}
