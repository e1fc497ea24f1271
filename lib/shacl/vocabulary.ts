/**
 * The IRIs of the SHACL vocabulary that validation reads and writes.
 * @module
 */

/** The SHACL namespace. */
export const SH = 'http://www.w3.org/ns/shacl#';
/** The RDF namespace. */
export const RDF_NS = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
/** The RDFS namespace. */
export const RDFS_NS = 'http://www.w3.org/2000/01/rdf-schema#';
/** The XML Schema namespace. */
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';

/** rdf:type. */
export const RDF_TYPE = `${RDF_NS}type`;
/** rdf:first. */
export const RDF_FIRST = `${RDF_NS}first`;
/** rdf:rest. */
export const RDF_REST = `${RDF_NS}rest`;
/** rdf:nil. */
export const RDF_NIL = `${RDF_NS}nil`;
/** rdf:langString. */
export const RDF_LANG_STRING = `${RDF_NS}langString`;
/** rdfs:subClassOf. */
export const RDFS_SUBCLASS_OF = `${RDFS_NS}subClassOf`;
/** rdfs:Class. */
export const RDFS_CLASS = `${RDFS_NS}Class`;
/** xsd:string. */
export const XSD_STRING = `${XSD_NS}string`;
/** xsd:boolean. */
export const XSD_BOOLEAN = `${XSD_NS}boolean`;

/** sh:Violation, the default severity. */
export const SH_VIOLATION = `${SH}Violation`;

/** The local names of the SHACL terms validation reads, as full IRIs by local name. */
export function sh(local: string): string {
  return SH + local;
}
