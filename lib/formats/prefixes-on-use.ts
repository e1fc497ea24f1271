/**
 * Which of a store's prefixes a Turtle or TriG document needs, decided as its statements are
 * written: a prefix is declared just before the first statement whose IRIs it abbreviates, so
 * an export declares no prefix its data does not use, and still streams (Turtle allows a
 * `@prefix` between statements). The rules are those of n3's Writer, which writes the text: an
 * IRI is abbreviated as `name:local` when it starts with the prefix's IRI and the rest is a
 * local name of letters, digits, `_`, `-` and inner dots; `rdf:type` as a predicate is `a`;
 * `xsd:string`, `rdf:langString` and the well-formed `xsd:integer`, `xsd:decimal`, `xsd:double`
 * and `xsd:boolean` literals are written without their datatype.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';

const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** The local part n3's Writer abbreviates. */
const LOCAL_NAME = /^[_a-zA-Z0-9](?:\.?[-_a-zA-Z0-9])*$/;
/** Literals n3's Writer writes bare in Turtle, by datatype: the lexical forms it accepts. */
const BARE_LITERALS: ReadonlyMap<string, RegExp> = new Map([
  [`${XSD}string`, /^/],
  [`${XSD}boolean`, /^(?:true|false)$/],
  [`${XSD}integer`, /^[+-]?\d+$/],
  [`${XSD}decimal`, /^[+-]?\d*\.\d+$/],
  [`${XSD}double`, /^[+-]?(?:\d+\.\d*|\.?\d+)[eE][+-]?\d+$/],
]);

/** Declares the store's prefixes on first use (see the module documentation). */
export class PrefixesOnUse {
  /** Prefixes not declared yet: name without its colon → IRI. */
  private readonly waiting: Map<string, string>;
  /** IRIs of the declared prefixes. */
  private readonly declared: string[] = [];
  /** Term ids already looked at (their need is settled), one bit each. */
  private seen = new Uint32Array(1024);

  /**
   * @param prefixes the store's prefixes (name with its colon → IRI)
   * @param declare writes a prefix declaration (name without its colon)
   * @param relative the IRI as the writer writes it before abbreviating (relative to the base, when there is one)
   */
  constructor(
    prefixes: ReadonlyMap<string, string>,
    private readonly declare: (name: string, iri: string) => void,
    private readonly relative: (iri: string) => string = (iri) => iri,
  ) {
    this.waiting = new Map([...prefixes].map(([name, iri]) => [name.endsWith(':') ? name.slice(0, -1) : name, iri]));
  }

  /** Declares what the term of `id` needs, unless already done; `predicate` for the predicate position. */
  term(id: number, term: RDF.Term, predicate: boolean): void {
    if (this.waiting.size === 0) return;
    const word = id >>> 5;
    const bit = 1 << (id & 31);
    if (word < this.seen.length && (this.seen[word]! & bit) !== 0) return;
    // rdf:type as a predicate is written 'a': its need is settled only where it is written in full
    if (predicate && term.termType === 'NamedNode' && term.value === RDF_TYPE) return;
    if (word >= this.seen.length) {
      const grown = new Uint32Array(Math.max(word + 1, this.seen.length * 2));
      grown.set(this.seen);
      this.seen = grown;
    }
    this.seen[word]! |= bit;
    if (term.termType === 'NamedNode') {
      this.iri(term.value);
    } else if (term.termType === 'Literal' && term.language === '') {
      const bare = BARE_LITERALS.get(term.datatype.value);
      if (!bare?.test(term.value)) this.iri(term.datatype.value);
    }
  }

  private iri(value: string): void {
    const iri = this.relative(value);
    const fits = (ns: string): boolean => iri.startsWith(ns) && LOCAL_NAME.test(iri.slice(ns.length));
    if (this.declared.some(fits)) return;
    for (const [name, ns] of this.waiting) {
      if (!fits(ns)) continue;
      this.waiting.delete(name);
      this.declared.push(ns);
      this.declare(name, ns);
      return;
    }
  }
}
