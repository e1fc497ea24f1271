/**
 * SPARQL run by the shell (typed, or through `evaluate`, `answer` and `update`): queries print
 * their answers (a table, or an answer format) and, with `query.explain`, their plan first;
 * updates say how long they took.
 * @module
 */
import { ANSWER_MEDIA_TYPES, CONTENT_MEDIA_TYPES, type QueryOptions, sparqlOperationType } from '../index.js';
import { type CommandContext, CommandError } from './base.js';
import { plural, seconds, TablePrinter, TermFormatter } from './output.js';

function elapsed(start: number): string {
  return seconds(performance.now() - start);
}

const PAGE_SIZE = 1000;

/** Runs SPARQL typed as a command: queries print their answers, updates what they did. */
export async function runSparql(ctx: CommandContext, text: string): Promise<void> {
  const shell = ctx.shell;
  const type = sparqlOperationType(text);
  const ds = shell.store();
  const summary = shell.variable('query.print-summary') !== 'false';
  const start = performance.now();
  if (type === 'UPDATE') {
    await ds.evaluateUpdate(text);
    if (summary) await ctx.note(`update done in ${elapsed(start)}\n`);
    return;
  }
  const limit = shell.variable('query.time-limit') ?? 'none';
  const memoryLimit = shell.variable('query.memory-limit') ?? 'none';
  const options: QueryOptions = {
    factDomain: shell.variable('query.fact-domain') ?? 'all',
    ...(limit !== 'none' && Number(limit) > 0 ? { timeLimitMs: Number(limit) } : {}),
    ...(memoryLimit !== 'none' ? { memoryLimitBytes: Number(memoryLimit) } : {}),
  };
  if (shell.variable('query.explain') === 'true') await ctx.out(await ds.explainQuery(text, options));
  const format = shell.variable('query.answer-format') ?? 'table';
  let answers = 0;
  if (format !== 'table') {
    const graph = type === 'CONSTRUCT' || type === 'DESCRIBE';
    const mediaType = graph ? (CONTENT_MEDIA_TYPES.includes(format) ? format : 'text/turtle') : format;
    if (!graph && !ANSWER_MEDIA_TYPES.includes(format)) throw new CommandError(`query.answer-format '${format}' is not an answer format (table, or one of ${ANSWER_MEDIA_TYPES.join(', ')})`);
    answers = await ds.evaluateQueryTo(text, mediaType, (chunk) => ctx.out(chunk), options);
  } else {
    const formatter = new TermFormatter(await ds.getPrefixes());
    const cursor = ds.createCursor(text, options);
    try {
      await shell.onInterrupt(
        () => cursor.close(),
        async () => {
          let page = await cursor.open(PAGE_SIZE);
          shell.checkInterrupted();
          if (type === 'ASK') {
            answers = page.rows.length > 0 ? 1 : 0;
            await ctx.out(answers > 0 ? 'true\n' : 'false\n');
            return;
          }
          const printer = new TablePrinter(formatter.header(page.variables));
          for (;;) {
            await ctx.out(printer.page(page.rows.map((row) => formatter.row(row))));
            answers += page.rows.length;
            if (!page.more) break;
            page = await cursor.advance(PAGE_SIZE);
            shell.checkInterrupted();
          }
        },
      );
    } finally {
      cursor.close();
    }
  }
  if (summary && type !== 'ASK') await ctx.note(`${plural(answers, 'answer')} in ${elapsed(start)}\n`);
}
