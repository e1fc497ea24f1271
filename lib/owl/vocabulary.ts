/**
 * IRIs of the RDF, RDFS, OWL and XSD vocabularies used by the OWL 2 RL axiom translation, and
 * the datatype hierarchy used to test literals against OWL 2 RL datatypes.
 * @module
 */

/** The RDF namespace. */
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** The RDFS namespace. */
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
/** The OWL namespace. */
export const OWL = 'http://www.w3.org/2002/07/owl#';
/** The XSD namespace. */
export const XSD = 'http://www.w3.org/2001/XMLSchema#';

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
