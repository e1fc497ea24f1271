/**
 * What a role must be able to read to add rules: every fact a rule's body reads becomes, through
 * its head, a fact others may read, so a role may add a rule only when it may read all the
 * facts the body can match (through the one filter of readable facts in
 * storage/fact-access.ts): each table of a body atom (under NOT and AGGREGATE too), and for an
 * atom over `Quads` its graph — a named graph when the atom names one, every named graph when
 * the graph is a variable.
 * @module
 */
import type { Rule, TupleAtom } from '../datalog/ast.js';
import { AccessDeniedError } from '../model/errors.js';
import { termToKey } from '../model/terms.js';
import type { Catalogue } from '../storage/catalogue.js';
import { graphColumnOf, readableFacts, type FactAccess } from '../storage/fact-access.js';

/** The atoms a rule's body reads (those under NOT and AGGREGATE included). */
function bodyAtoms(rule: Rule): TupleAtom[] {
  const atoms: TupleAtom[] = [];
  for (const literal of rule.body) {
    if (literal.kind === 'atom') atoms.push(literal);
    else if (literal.kind === 'not') atoms.push(...literal.atoms);
    else if (literal.kind === 'aggregate') for (const l of literal.body) if (l.kind === 'atom') atoms.push(l);
  }
  return atoms;
}

/**
 * Refuses rules whose bodies read facts the role may not read.
 * @throws AccessDeniedError naming the rule's position and what it would read.
 */
export function checkRuleReads(rules: readonly Rule[], access: FactAccess | undefined, catalogue: Catalogue): void {
  if (access === undefined) return;
  for (const rule of rules) {
    for (const atom of bodyAtoms(rule)) {
      const info = catalogue.tupleTables.get(atom.table);
      if (!info) continue; // compiling the program names the missing table
      const where = `line ${atom.position.line}: column ${atom.position.column}`;
      let readable;
      try {
        readable = readableFacts(access, info.id);
      } catch (e) {
        if (e instanceof AccessDeniedError) throw new AccessDeniedError(`${where}: the rule reads tuple table '${info.name}': ${e.message}`);
        throw e;
      }
      const column = graphColumnOf(info.id);
      if (readable === undefined || column < 0) continue;
      const graph = atom.args[column];
      if (graph === undefined) continue;
      if (graph.kind !== 'const') throw new AccessDeniedError(`${where}: the rule reads every named graph, and the role has no read access to all of them`);
      // by name: a graph that holds no facts yet is checked like any other
      if (access.readableGraphName?.(termToKey(graph.term)) === false) {
        throw new AccessDeniedError(`${where}: the rule reads named graph ${termToKey(graph.term)}, and the role has no read access to it`);
      }
    }
  }
}
