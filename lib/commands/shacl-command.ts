/**
 * The shell's `validate` command: SHACL validation of the active data store
 * (`DataStoreConnection.validate`), printed as a table of results, or as the report in an RDF
 * format.
 * @module
 */
import type { ShaclFactDomain, ValidationOptions, ValidationResult } from '../index.js';
import { graphName, isKeyword as keyword } from './arguments.js';
import { type CommandContext, CommandError } from './base.js';
import type { Command } from './commands.js';
import { listing, plural, seconds, TermFormatter } from './output.js';

const SH = 'http://www.w3.org/ns/shacl#';

/** An IRI of the SHACL namespace as `sh:…`. */
function shortSh(iri: string): string {
  return iri.startsWith(SH) ? `sh:${iri.slice(SH.length)}` : `<${iri}>`;
}

/** The rows of the results table (terms in Turtle syntax with the store's prefixes). */
function resultRows(results: readonly ValidationResult[], prefixes: ReadonlyMap<string, string>): string[][] {
  const terms = new TermFormatter(prefixes);
  terms.header(['focus', 'value', 'shape']);
  return results.map((r) => {
    const [focus = '', value = '', shape = ''] = terms.row([r.focusNode, r.value, r.sourceShape]);
    return [focus, r.resultPath ?? '', value, shortSh(r.sourceConstraintComponent), shape, shortSh(r.severity), r.messages[0]?.value ?? ''];
  });
}

/** `validate [<data-graph>] [with <shapes-graph>] [explicit | all] [as <format>]`. */
export const validateCommand: Command = {
  name: 'validate',
  syntax: 'validate [<data-graph>] [with <shapes-graph>] [explicit | derived | all] [as <format>]',
  summary: 'validate a graph of the active data store against SHACL shapes held in the store',
  details:
    'Graphs are <IRI>s, prefixed names or UNDEF (the default graph, also when omitted). explicit validates the explicit facts of the data graph only, derived its derived facts only (those that follow from rules), all (the default) both; the shapes graph is read whole. Prints whether the data conforms and a table of the results (focus node, path, value, constraint component, shape, severity, message); with as <format> (a media type or a short name such as turtle) prints the validation report in that RDF format instead.',
  keywords: ['with', 'explicit', 'derived', 'all', 'as'],
  async run(ctx: CommandContext) {
    const args = ctx.args;
    let i = 0;
    let dataGraph: string | undefined;
    let shapesGraph: string | undefined;
    let factDomain: ValidationOptions['factDomain'];
    let format: string | undefined;
    if (args[i] && !keyword(args[i], 'with', 'explicit', 'derived', 'all', 'as')) dataGraph = await graphName(ctx, args[i++]!);
    if (keyword(args[i], 'with')) {
      const word = args[i + 1];
      if (!word) throw new CommandError('validate: with needs the shapes graph', args[i]);
      shapesGraph = await graphName(ctx, word);
      i += 2;
    }
    if (keyword(args[i], 'explicit', 'derived', 'all')) factDomain = args[i++]!.text.toLowerCase() as ShaclFactDomain;
    if (keyword(args[i], 'as')) {
      const word = args[i + 1];
      if (!word) throw new CommandError('validate: as needs a format', args[i]);
      format = word.text;
      i += 2;
    }
    if (args[i]) throw new CommandError(`validate: unexpected '${args[i]!.text}' (syntax: ${validateCommand.syntax})`, args[i]);
    const ds = ctx.shell.store();
    const options: ValidationOptions = { dataGraph, shapesGraph, factDomain };
    const start = performance.now();
    if (format !== undefined) {
      await ctx.out(await ds.validateToString(format, options));
      return;
    }
    const report = await ds.validate(options);
    const took = seconds(performance.now() - start);
    if (report.results.length > 0) {
      await ctx.out(listing(['focus node', 'path', 'value', 'component', 'shape', 'severity', 'message'], resultRows(report.results, await ds.getPrefixes())));
    }
    await ctx.note(`${report.conforms ? 'The data conforms to the shapes' : 'The data does not conform to the shapes'}: ${plural(report.results.length, 'validation result')} (${took}).\n`);
  },
};
