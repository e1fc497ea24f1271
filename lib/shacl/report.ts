/**
 * The validation report as RDF/JS quads in SHACL's vocabulary: one sh:ValidationReport with
 * sh:conforms and a sh:result per result (sh:focusNode, sh:resultPath with the path's
 * structure, sh:value, sh:sourceShape, sh:sourceConstraintComponent, sh:sourceConstraint,
 * sh:resultSeverity, sh:resultMessage), in the default graph. The report's own nodes are
 * blank nodes whose labels no stored blank node has.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import type { TermDictionary } from '../model/dictionary.js';
import { keyToTerm } from '../model/terms.js';
import type { ShaclPath, ShaclReport } from './types.js';
import { RDF_FIRST, RDF_NIL, RDF_REST, RDF_TYPE, SH, XSD_BOOLEAN } from './vocabulary.js';

const namedNode = (iri: string): RDF.NamedNode => DataFactory.namedNode(iri);
const blankNode = (label: string): RDF.BlankNode => DataFactory.blankNode(label);
const literal = (lexical: string, datatype: RDF.NamedNode): RDF.Literal => DataFactory.literal(lexical, datatype);
const quad = (s: RDF.Quad_Subject, p: RDF.NamedNode, o: RDF.Quad_Object): RDF.Quad => DataFactory.quad(s, p, o);

let reports = 0;

/** The report as quads (default graph). */
export function reportQuads(report: ShaclReport, dictionary: TermDictionary): RDF.Quad[] {
  const out: RDF.Quad[] = [];
  const prefix = `shacl-report-${(++reports).toString(36)}-${Math.random().toString(36).slice(2, 8)}-`;
  let next = 0;
  const fresh = (): RDF.BlankNode => blankNode(`${prefix}${next++}`);
  const terms = new Map<number, RDF.Quad_Object>();
  const term = (id: number): RDF.Quad_Object => {
    let t = terms.get(id);
    if (t === undefined) terms.set(id, (t = keyToTerm(dictionary.keyOf(id)) as RDF.Quad_Object));
    return t;
  };
  const sh = (local: string): RDF.NamedNode => namedNode(SH + local);
  const type = namedNode(RDF_TYPE);
  const path = (p: ShaclPath): RDF.Quad_Object => {
    switch (p.kind) {
      case 'predicate':
        return term(p.predicate);
      case 'sequence':
        return list(p.paths.map(path));
      case 'alternative': {
        const node = fresh();
        out.push(quad(node, sh('alternativePath'), list(p.paths.map(path))));
        return node;
      }
      default: {
        const node = fresh();
        out.push(quad(node, sh(`${p.kind}Path`), path(p.path)));
        return node;
      }
    }
  };
  const list = (items: readonly RDF.Quad_Object[]): RDF.Quad_Object => {
    let head: RDF.Quad_Object = namedNode(RDF_NIL);
    for (let i = items.length - 1; i >= 0; i--) {
      const cell = fresh();
      out.push(quad(cell, namedNode(RDF_FIRST), items[i]!), quad(cell, namedNode(RDF_REST), head));
      head = cell;
    }
    return head;
  };
  const root = fresh();
  out.push(quad(root, type, sh('ValidationReport')), quad(root, sh('conforms'), literal(String(report.conforms), namedNode(XSD_BOOLEAN))));
  for (const r of report.results) {
    const node = fresh();
    out.push(quad(root, sh('result'), node), quad(node, type, sh('ValidationResult')), quad(node, sh('focusNode'), term(r.focusNode)));
    if (r.resultPath !== undefined) out.push(quad(node, sh('resultPath'), path(r.resultPath)));
    if (r.value !== undefined) out.push(quad(node, sh('value'), term(r.value)));
    out.push(
      quad(node, sh('sourceShape'), term(r.sourceShape)),
      quad(node, sh('sourceConstraintComponent'), namedNode(r.sourceConstraintComponent)),
      quad(node, sh('resultSeverity'), namedNode(r.severity)),
    );
    if (r.sourceConstraint !== undefined) out.push(quad(node, sh('sourceConstraint'), term(r.sourceConstraint)));
    for (const m of r.messages) out.push(quad(node, sh('resultMessage'), m));
  }
  return out;
}
