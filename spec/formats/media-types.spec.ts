import { expect } from 'chai';
import {
  CONTENT_MEDIA_TYPES,
  DATALOG,
  JSON_LD,
  N_QUADS,
  N_TRIPLES,
  RDF_FORMATS,
  RDF_XML,
  TRIG,
  TURTLE,
  baseMediaType,
  canonicalMediaType,
  detectMediaType,
  mediaTypeOfFileName,
  recognizeMediaType,
  unsupportedMediaTypeMessage,
} from '../../lib/formats/media-types.js';
import { UNKNOWN_PREFIX_ADVICE, unknownPrefixMessage } from '../../lib/model/messages.js';

describe('media types', () => {
  it('names the six RDF formats and Datalog', () => {
    expect([TURTLE, N_TRIPLES, N_QUADS, TRIG, JSON_LD, RDF_XML, DATALOG]).to.deep.equal([
      'text/turtle',
      'application/n-triples',
      'application/n-quads',
      'application/trig',
      'application/ld+json',
      'application/rdf+xml',
      'application/x.datalog',
    ]);
    expect([...RDF_FORMATS].sort()).to.deep.equal([N_QUADS, N_TRIPLES, TRIG, TURTLE, JSON_LD, RDF_XML].sort());
  });

  describe('canonicalMediaType', () => {
    const cases: Array<[string, string]> = [
      ['text/turtle', TURTLE],
      ['application/x-turtle', TURTLE],
      ['application/turtle', TURTLE],
      ['turtle', TURTLE],
      ['ttl', TURTLE],
      ['application/n-triples', N_TRIPLES],
      ['text/plain+ntriples', N_TRIPLES],
      ['ntriples', N_TRIPLES],
      ['n-triples', N_TRIPLES],
      ['nt', N_TRIPLES],
      ['application/n-quads', N_QUADS],
      ['text/x-nquads', N_QUADS],
      ['nquads', N_QUADS],
      ['n-quads', N_QUADS],
      ['nq', N_QUADS],
      ['application/trig', TRIG],
      ['application/x-trig', TRIG],
      ['trig', TRIG],
      ['application/x.datalog', DATALOG],
      ['datalog', DATALOG],
      ['dlog', DATALOG],
      ['application/ld+json', JSON_LD],
      ['jsonld', JSON_LD],
      ['json-ld', JSON_LD],
      ['application/rdf+xml', RDF_XML],
      ['rdfxml', RDF_XML],
      ['rdf', RDF_XML],
      ['owl', RDF_XML],
    ];
    for (const [alias, canonical] of cases) {
      it(`maps ${alias} to ${canonical}`, () => {
        expect(canonicalMediaType(alias)).to.equal(canonical);
      });
    }

    it('ignores case, surrounding spaces and parameters', () => {
      expect(canonicalMediaType('Text/Turtle')).to.equal(TURTLE);
      expect(canonicalMediaType('  application/n-quads  ')).to.equal(N_QUADS);
      expect(canonicalMediaType('text/turtle; charset=utf-8')).to.equal(TURTLE);
      expect(canonicalMediaType('application/trig;q=0.9;charset=UTF-8')).to.equal(TRIG);
    });

    it('gives undefined for unknown types', () => {
      for (const unknown of ['text/csv', 'text/plain', 'application/json', 'application/xml', '', 'turtle2', 'text/turtle2']) {
        expect(canonicalMediaType(unknown), unknown).to.equal(undefined);
      }
    });
  });

  describe('unsupportedMediaTypeMessage', () => {
    it('names the type and lists every content type by default', () => {
      expect(CONTENT_MEDIA_TYPES).to.deep.equal([...RDF_FORMATS, DATALOG]);
      expect(unsupportedMediaTypeMessage('text/csv')).to.equal(
        "unsupported media type 'text/csv' (supported: text/turtle, application/n-triples, application/n-quads, application/trig, application/ld+json, application/rdf+xml, application/x.datalog)",
      );
    });

    it('lists the types given, and says what the type was for', () => {
      expect(unsupportedMediaTypeMessage('text/csv', [TURTLE, TRIG], 'a prefix body')).to.equal("unsupported media type 'text/csv' for a prefix body (supported: text/turtle, application/trig)");
    });
  });

  describe('unknownPrefixMessage', () => {
    it('names the prefix with its colon, then the advice', () => {
      expect(unknownPrefixMessage('ex')).to.equal("unknown prefix 'ex:': declare it in the input or add it to the store's prefixes");
      expect(unknownPrefixMessage('ex:')).to.equal(unknownPrefixMessage('ex'));
      expect(unknownPrefixMessage('')).to.equal(`unknown prefix ':': ${UNKNOWN_PREFIX_ADVICE}`);
    });

    it('puts a position worded by the path between the name and the advice', () => {
      expect(unknownPrefixMessage('ex:', 'at line 2, column 5')).to.equal("unknown prefix 'ex:' at line 2, column 5: declare it in the input or add it to the store's prefixes");
    });
  });

  describe('mediaTypeOfFileName', () => {
    it('uses the extension, ignoring a trailing .gz and case', () => {
      expect(mediaTypeOfFileName('data.ttl')).to.equal(TURTLE);
      expect(mediaTypeOfFileName('/some/dir/data.nt')).to.equal(N_TRIPLES);
      expect(mediaTypeOfFileName('data.nq.gz')).to.equal(N_QUADS);
      expect(mediaTypeOfFileName('file:///x/y.trig')).to.equal(TRIG);
      expect(mediaTypeOfFileName('RULES.DLOG')).to.equal(DATALOG);
      expect(mediaTypeOfFileName('archive.tar.ttl.gz')).to.equal(TURTLE);
      expect(mediaTypeOfFileName('data.jsonld')).to.equal(JSON_LD);
      expect(mediaTypeOfFileName('univ-bench.owl')).to.equal(RDF_XML);
      expect(mediaTypeOfFileName('data.rdf.gz')).to.equal(RDF_XML);
    });

    it('gives undefined without a known extension', () => {
      for (const name of ['data', 'data.gz', 'data.xml', 'data.ttl.zip', 'data.json', 'dir.ttl/file']) {
        expect(mediaTypeOfFileName(name), name).to.equal(undefined);
      }
    });
  });

  describe('detectMediaType', () => {
    const samples: Array<[string, string, string]> = [
      ['one N-Triples line', '<http://a> <http://b> <http://c> .', N_TRIPLES],
      ['N-Triples with literals of every kind', '<http://a> <http://b> "x" .\n<http://a> <http://b> "y"@en-GB .\n<http://a> <http://b> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .\n', N_TRIPLES],
      ['N-Triples with blank nodes and comments', '# header\n_:b1 <http://b> _:b2 . # trailing\n\n<http://a> <http://b> "has # inside" .', N_TRIPLES],
      ['N-Triples with escaped quotes', '<http://a> <http://b> "say \\"hi\\" { }" .', N_TRIPLES],
      ['N-Quads: one line with a graph', '<http://a> <http://b> <http://c> .\n<http://a> <http://b> <http://c> <http://g> .', N_QUADS],
      ['N-Quads with a blank graph', '<http://a> <http://b> "x" _:g .', N_QUADS],
      ['a sample cut in the middle of its last line', '<http://a> <http://b> <http://c> .\n<http://a> <http://b> "unfinish', N_TRIPLES],
      ['Turtle with @prefix', '@prefix ex: <http://ex/> .\nex:a ex:b ex:c .', TURTLE],
      ['Turtle with SPARQL-style PREFIX', 'PREFIX ex: <http://ex/>\nex:a ex:b ex:c .', TURTLE],
      ['Turtle with BASE', 'BASE <http://ex/>\n<a> <b> <c> .', TURTLE],
      ['Turtle with prefixed names only', 'ex:a ex:b ex:c .', TURTLE],
      ['Turtle with predicate lists', '<http://a> <http://b> <http://c> ;\n  <http://d> "e" .', TURTLE],
      ['Turtle with a brace inside a string', 'ex:a ex:b "{" .', TURTLE],
      ['Turtle with a brace inside a comment', '# { not a graph\nex:a ex:b ex:c .', TURTLE],
      ['TriG with a graph block', '<http://g> { <http://a> <http://b> <http://c> }', TRIG],
      ['TriG with GRAPH and prefixes', '@prefix ex: <http://ex/> .\nGRAPH ex:g { ex:a ex:b ex:c }', TRIG],
      ['Datalog rules', '[?x, a, :Person] :- [?x, :name, ?n] .', DATALOG],
      ['a JSON-LD object', '{\n  "@context": {"ex": "http://ex/"}, "@id": "ex:a"\n}', JSON_LD],
      ['a JSON-LD array after a byte order mark', '\uFEFF [ { "@id": "http://a" } ]', JSON_LD],
      ['RDF/XML with an XML declaration', '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', RDF_XML],
      ['RDF/XML without a declaration', '<rdf:RDF\n  xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/>', RDF_XML],
      ['RDF/XML starting with a comment', '<!-- an ontology -->\n<rdf:RDF/>', RDF_XML],
      ['TriG with a default graph block', '{ <http://a> <http://b> <http://c> }', TRIG],
      ['Turtle starting with an anonymous node', '[] <http://b> <http://c> .', TURTLE],
      ['empty content', '', TURTLE],
      ['only comments', '# nothing here\n', TURTLE],
    ];
    for (const [what, sample, expected] of samples) {
      it(`${what} → ${expected}`, () => {
        expect(detectMediaType(sample)).to.equal(expected);
      });
    }
  });

  describe('recognizeMediaType', () => {
    it('agrees with detectMediaType when the content is recognisable', () => {
      expect(recognizeMediaType('<http://a> <http://b> <http://c> .')).to.equal(N_TRIPLES);
      expect(recognizeMediaType('<http://a> <http://b> <http://c> <http://g> .')).to.equal(N_QUADS);
      expect(recognizeMediaType('@prefix ex: <http://ex/> .')).to.equal(TURTLE);
      expect(recognizeMediaType('<http://g> { }')).to.equal(TRIG);
      expect(recognizeMediaType('a(?x) :- b(?x) .')).to.equal(DATALOG);
    });

    it('gives undefined instead of guessing Turtle for content it cannot place', () => {
      expect(recognizeMediaType('<http://a> <http://b> "unterminated .\n<http://a> <http://b> <http://c> .')).to.equal(undefined);
      expect(recognizeMediaType('ex:a ex:b ex:c .')).to.equal(undefined);
      expect(recognizeMediaType('')).to.equal(undefined);
    });
  });

  describe('baseMediaType', () => {
    it('drops the parameters and lower-cases the type of a Content-Type value', () => {
      expect(baseMediaType('Text/Turtle; charset=UTF-8')).to.equal('text/turtle');
      expect(baseMediaType('  application/sparql-query  ')).to.equal('application/sparql-query');
      expect(baseMediaType('application/x-www-form-urlencoded;charset=utf-8')).to.equal('application/x-www-form-urlencoded');
      expect(baseMediaType('')).to.equal('');
      expect(baseMediaType(undefined)).to.equal('');
    });
  });
});
