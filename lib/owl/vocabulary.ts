/**
 * IRIs of the RDF, RDFS, OWL and XSD vocabularies used by the OWL 2 RL axiom translation, and
 * the datatype hierarchy used to test literals against OWL 2 RL datatypes.
 * @module
 */
import { XSD } from '../model/terms.js';

export { XSD };
/** The RDF namespace. */
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** The RDFS namespace. */
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
/** The OWL namespace. */
export const OWL = 'http://www.w3.org/2002/07/owl#';

/** IRIs of the vocabulary terms the translation reads or writes. */
export const V = {
  type: `${RDF}type`,
  first: `${RDF}first`,
  rest: `${RDF}rest`,
  nil: `${RDF}nil`,
  List: `${RDF}List`,
  Property: `${RDF}Property`,
  PlainLiteral: `${RDF}PlainLiteral`,
  langString: `${RDF}langString`,
  XMLLiteral: `${RDF}XMLLiteral`,
  HTML: `${RDF}HTML`,

  subClassOf: `${RDFS}subClassOf`,
  subPropertyOf: `${RDFS}subPropertyOf`,
  domain: `${RDFS}domain`,
  range: `${RDFS}range`,
  Class: `${RDFS}Class`,
  Datatype: `${RDFS}Datatype`,
  Literal: `${RDFS}Literal`,

  Thing: `${OWL}Thing`,
  Nothing: `${OWL}Nothing`,
  OwlClass: `${OWL}Class`,
  Restriction: `${OWL}Restriction`,
  equivalentClass: `${OWL}equivalentClass`,
  disjointWith: `${OWL}disjointWith`,
  AllDisjointClasses: `${OWL}AllDisjointClasses`,
  disjointUnionOf: `${OWL}disjointUnionOf`,
  members: `${OWL}members`,
  distinctMembers: `${OWL}distinctMembers`,
  intersectionOf: `${OWL}intersectionOf`,
  unionOf: `${OWL}unionOf`,
  complementOf: `${OWL}complementOf`,
  oneOf: `${OWL}oneOf`,
  onProperty: `${OWL}onProperty`,
  onProperties: `${OWL}onProperties`,
  someValuesFrom: `${OWL}someValuesFrom`,
  allValuesFrom: `${OWL}allValuesFrom`,
  hasValue: `${OWL}hasValue`,
  hasSelf: `${OWL}hasSelf`,
  minCardinality: `${OWL}minCardinality`,
  maxCardinality: `${OWL}maxCardinality`,
  cardinality: `${OWL}cardinality`,
  minQualifiedCardinality: `${OWL}minQualifiedCardinality`,
  maxQualifiedCardinality: `${OWL}maxQualifiedCardinality`,
  qualifiedCardinality: `${OWL}qualifiedCardinality`,
  onClass: `${OWL}onClass`,
  onDataRange: `${OWL}onDataRange`,
  datatypeComplementOf: `${OWL}datatypeComplementOf`,
  onDatatype: `${OWL}onDatatype`,
  withRestrictions: `${OWL}withRestrictions`,

  ObjectProperty: `${OWL}ObjectProperty`,
  DatatypeProperty: `${OWL}DatatypeProperty`,
  AnnotationProperty: `${OWL}AnnotationProperty`,
  equivalentProperty: `${OWL}equivalentProperty`,
  inverseOf: `${OWL}inverseOf`,
  propertyChainAxiom: `${OWL}propertyChainAxiom`,
  propertyDisjointWith: `${OWL}propertyDisjointWith`,
  AllDisjointProperties: `${OWL}AllDisjointProperties`,
  FunctionalProperty: `${OWL}FunctionalProperty`,
  InverseFunctionalProperty: `${OWL}InverseFunctionalProperty`,
  SymmetricProperty: `${OWL}SymmetricProperty`,
  AsymmetricProperty: `${OWL}AsymmetricProperty`,
  ReflexiveProperty: `${OWL}ReflexiveProperty`,
  IrreflexiveProperty: `${OWL}IrreflexiveProperty`,
  TransitiveProperty: `${OWL}TransitiveProperty`,
  hasKey: `${OWL}hasKey`,

  NamedIndividual: `${OWL}NamedIndividual`,
  sameAs: `${OWL}sameAs`,
  differentFrom: `${OWL}differentFrom`,
  AllDifferent: `${OWL}AllDifferent`,
  NegativePropertyAssertion: `${OWL}NegativePropertyAssertion`,
  sourceIndividual: `${OWL}sourceIndividual`,
  assertionProperty: `${OWL}assertionProperty`,
  targetIndividual: `${OWL}targetIndividual`,
  targetValue: `${OWL}targetValue`,

  Ontology: `${OWL}Ontology`,
  imports: `${OWL}imports`,
  Axiom: `${OWL}Axiom`,
  Annotation: `${OWL}Annotation`,
  annotatedSource: `${OWL}annotatedSource`,
  annotatedProperty: `${OWL}annotatedProperty`,
  annotatedTarget: `${OWL}annotatedTarget`,
  real: `${OWL}real`,
  rational: `${OWL}rational`,
} as const;

/** Predicates whose triples are annotations (read and ignored). */
export const ANNOTATION_PREDICATES: ReadonlySet<string> = new Set([
  `${RDFS}label`,
  `${RDFS}comment`,
  `${RDFS}seeAlso`,
  `${RDFS}isDefinedBy`,
  `${OWL}versionInfo`,
  `${OWL}versionIRI`,
  `${OWL}priorVersion`,
  `${OWL}backwardCompatibleWith`,
  `${OWL}incompatibleWith`,
  `${OWL}deprecated`,
]);

/** Classes whose `rdf:type` triples are declarations (read and ignored). */
export const DECLARATION_TYPES: ReadonlySet<string> = new Set([
  V.OwlClass,
  V.Class,
  V.ObjectProperty,
  V.DatatypeProperty,
  V.AnnotationProperty,
  V.Property,
  V.NamedIndividual,
  V.Datatype,
  V.Ontology,
  V.List,
  `${OWL}DeprecatedClass`,
  `${OWL}DeprecatedProperty`,
  `${OWL}OntologyProperty`,
  `${OWL}DataRange`,
]);

/** Whether an IRI is in one of the reserved vocabularies (RDF, RDFS, OWL, XSD). */
export function isReserved(iri: string): boolean {
  return iri.startsWith(RDF) || iri.startsWith(RDFS) || iri.startsWith(OWL) || iri.startsWith(XSD);
}

/**
 * Direct subtypes of the XSD datatypes (XML Schema 1.1 Part 2, §3 built-in datatype hierarchy),
 * plus `owl:rational ⊑ owl:real` with xsd:decimal under owl:rational.
 */
const SUBTYPES: Readonly<Record<string, readonly string[]>> = {
  [V.real]: [V.rational],
  [V.rational]: [`${XSD}decimal`],
  [`${XSD}decimal`]: [`${XSD}integer`],
  [`${XSD}integer`]: [`${XSD}nonPositiveInteger`, `${XSD}long`, `${XSD}nonNegativeInteger`],
  [`${XSD}nonPositiveInteger`]: [`${XSD}negativeInteger`],
  [`${XSD}long`]: [`${XSD}int`],
  [`${XSD}int`]: [`${XSD}short`],
  [`${XSD}short`]: [`${XSD}byte`],
  [`${XSD}nonNegativeInteger`]: [`${XSD}unsignedLong`, `${XSD}positiveInteger`],
  [`${XSD}unsignedLong`]: [`${XSD}unsignedInt`],
  [`${XSD}unsignedInt`]: [`${XSD}unsignedShort`],
  [`${XSD}unsignedShort`]: [`${XSD}unsignedByte`],
  [`${XSD}string`]: [`${XSD}normalizedString`],
  [`${XSD}normalizedString`]: [`${XSD}token`],
  [`${XSD}token`]: [`${XSD}language`, `${XSD}Name`, `${XSD}NMTOKEN`],
  [`${XSD}Name`]: [`${XSD}NCName`],
  [`${XSD}NCName`]: [`${XSD}ID`, `${XSD}IDREF`, `${XSD}ENTITY`],
  [`${XSD}dateTime`]: [`${XSD}dateTimeStamp`],
  [V.PlainLiteral]: [`${XSD}string`, V.langString],
};

/**
 * The datatype IRIs whose literals belong to `datatype`: itself and its subtypes, sorted;
 * undefined for rdfs:Literal (every literal).
 */
export function datatypeMembers(datatype: string): readonly string[] | undefined {
  if (datatype === V.Literal) return undefined;
  const out = new Set<string>();
  const visit = (d: string): void => {
    if (out.has(d)) return;
    out.add(d);
    for (const s of SUBTYPES[d] ?? []) visit(s);
  };
  visit(datatype);
  return [...out].sort();
}

/** Value bounds of the datatypes derived from xsd:integer by bounds (XML Schema 1.1 Part 2, §3.4). */
const INTEGER_BOUNDS: Readonly<Record<string, readonly [bigint | undefined, bigint | undefined]>> = {
  [`${XSD}nonNegativeInteger`]: [0n, undefined],
  [`${XSD}positiveInteger`]: [1n, undefined],
  [`${XSD}nonPositiveInteger`]: [undefined, 0n],
  [`${XSD}negativeInteger`]: [undefined, -1n],
  [`${XSD}long`]: [-(2n ** 63n), 2n ** 63n - 1n],
  [`${XSD}int`]: [-(2n ** 31n), 2n ** 31n - 1n],
  [`${XSD}short`]: [-32768n, 32767n],
  [`${XSD}byte`]: [-128n, 127n],
  [`${XSD}unsignedLong`]: [0n, 2n ** 64n - 1n],
  [`${XSD}unsignedInt`]: [0n, 2n ** 32n - 1n],
  [`${XSD}unsignedShort`]: [0n, 65535n],
  [`${XSD}unsignedByte`]: [0n, 255n],
};

/**
 * How to test that a literal is in a datatype's value space: its datatype IRI is one of
 * `datatypes` (all literals when undefined) and, for the integer types bounded by value
 * (xsd:nonNegativeInteger, xsd:int, …), its value lies within `min`…`max`, so that
 * `"1"^^xsd:integer` is an xsd:nonNegativeInteger. Other value-space overlaps (between
 * primitive types, or by lexical form, as for xsd:token) are not recognised.
 */
export interface DatatypeTest {
  /** The datatype IRIs admitted, sorted; undefined: any literal. */
  readonly datatypes: readonly string[] | undefined;
  /** The least value admitted. */
  readonly min?: bigint;
  /** The greatest value admitted. */
  readonly max?: bigint;
}

/** The test of literals against a datatype. */
export function datatypeTest(datatype: string): DatatypeTest {
  const bounds = INTEGER_BOUNDS[datatype];
  if (bounds === undefined) return { datatypes: datatypeMembers(datatype) };
  const [min, max] = bounds;
  return { datatypes: datatypeMembers(`${XSD}integer`), ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** Whether a literal passes a datatype test (on its datatype IRI and lexical form). */
export function passes(test: DatatypeTest, datatype: string, lexical: string): boolean {
  if (test.datatypes !== undefined && !test.datatypes.includes(datatype)) return false;
  if (test.min === undefined && test.max === undefined) return true;
  if (!/^[+-]?[0-9]+$/.test(lexical.trim())) return false;
  const value = BigInt(lexical.trim());
  return (test.min === undefined || value >= test.min) && (test.max === undefined || value <= test.max);
}

/** Whether an IRI names a built-in datatype (XSD, rdf:PlainLiteral, rdfs:Literal, owl:real, …). */
export function isBuiltinDatatype(iri: string): boolean {
  return (
    iri.startsWith(XSD) ||
    iri === V.Literal ||
    iri === V.PlainLiteral ||
    iri === V.langString ||
    iri === V.XMLLiteral ||
    iri === V.HTML ||
    iri === V.real ||
    iri === V.rational
  );
}
