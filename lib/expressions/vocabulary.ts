/**
 * IRIs of the datatypes the evaluator knows, and small term constructors.
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory } from 'n3';
import { RDF_LANG_STRING, RDF_NS, XSD, XSD_STRING } from '../model/terms.js';

export { RDF_LANG_STRING, RDF_NS, XSD, XSD_STRING };
/** rdf:dirLangString (RDF 1.2 directional language-tagged strings). */
export const RDF_DIR_LANG_STRING = `${RDF_NS}dirLangString`;
/** xsd:boolean. */
export const XSD_BOOLEAN = `${XSD}boolean`;
/** xsd:integer. */
export const XSD_INTEGER = `${XSD}integer`;
/** xsd:decimal. */
export const XSD_DECIMAL = `${XSD}decimal`;
/** xsd:float. */
export const XSD_FLOAT = `${XSD}float`;
/** xsd:double. */
export const XSD_DOUBLE = `${XSD}double`;
/** xsd:dateTime. */
export const XSD_DATE_TIME = `${XSD}dateTime`;
/** xsd:dateTimeStamp (a dateTime with a required timezone). */
export const XSD_DATE_TIME_STAMP = `${XSD}dateTimeStamp`;
/** xsd:date. */
export const XSD_DATE = `${XSD}date`;
/** xsd:time. */
export const XSD_TIME = `${XSD}time`;
/** xsd:duration. */
export const XSD_DURATION = `${XSD}duration`;
/** xsd:dayTimeDuration. */
export const XSD_DAY_TIME_DURATION = `${XSD}dayTimeDuration`;
/** xsd:yearMonthDuration. */
export const XSD_YEAR_MONTH_DURATION = `${XSD}yearMonthDuration`;
/** xsd:gYear. */
export const XSD_G_YEAR = `${XSD}gYear`;
/** xsd:gYearMonth. */
export const XSD_G_YEAR_MONTH = `${XSD}gYearMonth`;
/** xsd:gMonth. */
export const XSD_G_MONTH = `${XSD}gMonth`;
/** xsd:gMonthDay. */
export const XSD_G_MONTH_DAY = `${XSD}gMonthDay`;
/** xsd:gDay. */
export const XSD_G_DAY = `${XSD}gDay`;
/** xsd:anyURI. */
export const XSD_ANY_URI = `${XSD}anyURI`;

/** The namespace of the XPath and XQuery functions (`fn:`). */
export const FN = 'http://www.w3.org/2005/xpath-functions#';
/** The namespace of the XPath mathematical functions (`math:`). */
export const MATH = 'http://www.w3.org/2005/xpath-functions/math#';
/**
 * The namespace of the functions that have no standard IRI (RDFox's proprietary functions such
 * as MINFN or DAY_OF_THE_WEEK, and math functions XPath lacks such as CBRT): the lower-case
 * short name follows it, e.g. `urn:quadlog:function:minfn`.
 */
export const FUNCTION_NS = 'urn:quadlog:function:';

/** The datatypes derived from xsd:integer, with their inclusive bounds (undefined = unbounded). */
export const INTEGER_SUBTYPES: ReadonlyMap<string, readonly [bigint | undefined, bigint | undefined]> = new Map<
  string,
  readonly [bigint | undefined, bigint | undefined]
>([
  [`${XSD}nonPositiveInteger`, [undefined, 0n]],
  [`${XSD}negativeInteger`, [undefined, -1n]],
  [`${XSD}long`, [-(2n ** 63n), 2n ** 63n - 1n]],
  [`${XSD}int`, [-(2n ** 31n), 2n ** 31n - 1n]],
  [`${XSD}short`, [-32768n, 32767n]],
  [`${XSD}byte`, [-128n, 127n]],
  [`${XSD}nonNegativeInteger`, [0n, undefined]],
  [`${XSD}unsignedLong`, [0n, 2n ** 64n - 1n]],
  [`${XSD}unsignedInt`, [0n, 2n ** 32n - 1n]],
  [`${XSD}unsignedShort`, [0n, 65535n]],
  [`${XSD}unsignedByte`, [0n, 255n]],
  [`${XSD}positiveInteger`, [1n, undefined]],
]);

const namedNodes = new Map<string, RDF.NamedNode>();

/** A (shared) NamedNode for an IRI the evaluator uses often. */
export function iri(value: string): RDF.NamedNode {
  let n = namedNodes.get(value);
  if (n === undefined) {
    n = DataFactory.namedNode(value);
    if (namedNodes.size < 256) namedNodes.set(value, n);
  }
  return n;
}

/** A literal with a datatype IRI (xsd:string gives a simple literal). */
export function typedLiteral(lexical: string, datatype: string): RDF.Literal {
  return DataFactory.literal(lexical, iri(datatype));
}

/** `"true"^^xsd:boolean`. */
export const TRUE: RDF.Literal = typedLiteral('true', XSD_BOOLEAN);
/** `"false"^^xsd:boolean`. */
export const FALSE: RDF.Literal = typedLiteral('false', XSD_BOOLEAN);

/** The xsd:boolean literal of a JS boolean. */
export function booleanLiteral(value: boolean): RDF.Literal {
  return value ? TRUE : FALSE;
}
