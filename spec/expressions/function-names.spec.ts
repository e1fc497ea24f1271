/**
 * RDFox's unprefixed function names: the name map and the rewrite of calls in SPARQL and
 * expression text to calls of the functions' IRIs, with positions mapped back and arities checked.
 */
import { expect } from 'chai';
import { FUNCTION_LIBRARY } from '../../lib/expressions/function-library.js';
import {
  FUNCTION_NAMES,
  functionArityProblem,
  functionName,
  functionNameEdits,
  rewriteFunctionNames,
} from '../../lib/expressions/function-names.js';
import { sparqlParser } from '../../lib/expressions/sparql-libraries.js';

const LOG = '<http://www.w3.org/2005/xpath-functions/math#log>';
const SQRT = '<http://www.w3.org/2005/xpath-functions/math#sqrt>';
const MINFN = '<urn:quadlog:function:minfn>';

/** The rewritten text. */
function rewritten(text: string): string {
  return rewriteFunctionNames(text).text;
}

/** The unprefixed names sparqljs itself parses as built-ins or keywords (none of them may be in the map). */
const SPARQL_NAMES = `STR LANG LANGMATCHES DATATYPE BOUND IRI URI BNODE RAND ABS CEIL FLOOR ROUND CONCAT STRLEN UCASE LCASE
  ENCODE_FOR_URI CONTAINS STRSTARTS STRENDS STRBEFORE STRAFTER YEAR MONTH DAY HOURS MINUTES SECONDS TIMEZONE TZ NOW UUID
  STRUUID MD5 SHA1 SHA256 SHA384 SHA512 COALESCE IF STRLANG STRDT SAMETERM ISIRI ISURI ISBLANK ISLITERAL ISNUMERIC REGEX
  SUBSTR REPLACE EXISTS NOT IN COUNT SUM MIN MAX AVG SAMPLE GROUP_CONCAT SEPARATOR TRIPLE SUBJECT PREDICATE OBJECT ISTRIPLE
  SELECT CONSTRUCT DESCRIBE ASK WHERE FILTER BIND VALUES OPTIONAL UNION MINUS GRAPH SERVICE AS BY ORDER GROUP HAVING DISTINCT
  REDUCED LIMIT OFFSET ASC DESC A TRUE FALSE UNDEF INSERT DELETE DATA WITH USING DEFAULT NAMED ALL LOAD CLEAR DROP CREATE ADD
  MOVE COPY TO INTO SILENT PREFIX BASE FROM TT`.split(/\s+/);

describe('expressions: unprefixed function names', () => {
  describe('the map', () => {
    it('maps the names RDFox documents to the IRIs of their functions', () => {
      expect(functionName('LOG')?.iri).to.equal('http://www.w3.org/2005/xpath-functions/math#log');
      expect(functionName('pow')?.iri).to.equal('http://www.w3.org/2005/xpath-functions/math#pow');
      expect(functionName('Escape_Html_Uri')?.iri).to.equal('http://www.w3.org/2005/xpath-functions#escape-html-uri');
      expect(functionName('YEARS')?.iri).to.equal('http://www.w3.org/2005/xpath-functions#years-from-duration');
      expect(functionName('day_of_the_week')?.iri).to.equal('urn:quadlog:function:day_of_the_week');
      expect(functionName('MINFN')).to.deep.equal({ name: 'MINFN', iri: 'urn:quadlog:function:minfn', min: 1, max: Infinity });
      expect(functionName('STR')).to.equal(undefined);
      expect(functionName('POWER')).to.equal(undefined);
    });

    it('holds every short name of the library, with the arity of its function, and no name sparqljs knows', () => {
      const names = [...FUNCTION_LIBRARY.values()].flatMap((f) => f.names);
      expect([...FUNCTION_NAMES.keys()].sort()).to.deep.equal([...names].sort());
      for (const [name, f] of FUNCTION_NAMES) {
        const fn = FUNCTION_LIBRARY.get(f.iri)!;
        expect([f.min, f.max], name).to.deep.equal([fn.min, fn.max]);
        expect(SPARQL_NAMES, name).to.not.include(name);
      }
      expect(FUNCTION_NAMES.size).to.equal(58);
    });
  });

  describe('the rewrite', () => {
    it('writes calls of the names as calls of their IRIs, in any case and with space before the parenthesis', () => {
      expect(rewritten('LOG(1/?n)')).to.equal(`${LOG}(1/?n)`);
      expect(rewritten('log(?x) + Log (?y)')).to.equal(`${LOG}(?x) + ${LOG} (?y)`);
      expect(rewritten('SQRT(MINFN(?a, ?b))')).to.equal(`${SQRT}(${MINFN}(?a, ?b))`);
      expect(rewritten('LOG # a comment\n (2)')).to.equal(`${LOG} # a comment\n (2)`);
      expect(rewritten('?x-LOG(2)')).to.equal(`?x-${LOG}(2)`);
      expect(rewritten('3*LOG(2)')).to.equal(`3*${LOG}(2)`);
      expect(rewritten('1e5-LOG(2)')).to.equal(`1e5-${LOG}(2)`);
      expect(rewritten('"s"@en||LOG(2)')).to.equal(`"s"@en||${LOG}(2)`);
    });

    it('leaves strings, IRIs, comments, prefixed names, blank nodes, variables and non-calls alone', () => {
      for (const text of [
        '"LOG(1)"',
        "'LOG(1)'",
        '"""a "LOG(1)" b"""',
        "'''LOG(1)'''",
        '"esc\\"LOG(1)"',
        '<http://example.org/LOG(1)>',
        '# LOG(1)\n?x',
        'ex:LOG(1)',
        'ex:a.LOG(1)',
        ':LOG(1)',
        'ex:a\\(LOG(1)',
        '_:LOG',
        '?LOG',
        '$log',
        'LOG',
        'LOG:x',
        'STR(?x)',
        'MYLOG(1)',
        'LOGX(1)',
        'POWER(2, 3)',
        '"x"@log',
      ]) {
        const r = rewriteFunctionNames(text);
        expect(r.text, text).to.equal(text);
        expect(r.changed, text).to.equal(false);
      }
    });

    it('keeps a query sparqljs parses', () => {
      const query = 'PREFIX ex: <http://example.org/> SELECT (LOG(?x) AS ?l) (MAXFN(?x, 1) AS ?m) WHERE { ?s ex:p ?x FILTER(SQRT(?x) > 1) } ORDER BY DESC(EXP(?x))';
      const parsed = sparqlParser().parse(rewritten(query));
      expect(parsed.type).to.equal('query');
    });

    it('returns texts without a candidate as they are, without scanning', () => {
      const text = 'SELECT * WHERE { ?s ?p ?o FILTER(STRLEN(?o) > 3) }';
      const r = rewriteFunctionNames(text);
      expect(r.text).to.equal(text);
      expect(r.changed).to.equal(false);
      expect(r.originalOffset(12)).to.equal(12);
      expect(functionNameEdits(text)).to.deep.equal([]);
    });

    it('maps offsets of the new text back to the text as written', () => {
      const text = 'LOG(?x) + SQRT(?y) + ?z';
      const r = rewriteFunctionNames(text);
      const at = (needle: string): number => r.text.indexOf(needle);
      expect(r.originalOffset(0)).to.equal(0);
      expect(r.originalOffset(5)).to.equal(0); // inside the IRI: the start of the name
      expect(r.originalOffset(LOG.length)).to.equal(3); // the end of the IRI: the end of the name
      expect(r.originalOffset(at('?x'))).to.equal(text.indexOf('?x'));
      expect(r.originalOffset(at(SQRT) + 1)).to.equal(text.indexOf('SQRT'));
      expect(r.originalOffset(at('?y'))).to.equal(text.indexOf('?y'));
      expect(r.originalOffset(at('?z'))).to.equal(text.indexOf('?z'));
      expect(r.originalOffset(r.text.length)).to.equal(text.length);
      expect(r.nameAt(3)).to.equal('LOG');
      expect(r.nameAt(at(SQRT) + 10)).to.equal('SQRT');
      expect(r.nameAt(at('?x'))).to.equal(undefined);
    });

    it('gives the edits it makes, for the SPARQL parser', () => {
      expect(functionNameEdits('1 + log(2)')).to.deep.equal([{ start: 4, end: 7, replacement: LOG }]);
    });
  });

  describe('arity', () => {
    it('reports the first call with a wrong number of arguments, at its name', () => {
      expect(rewriteFunctionNames('LOG(1, 2)').arityProblem).to.deep.equal({ offset: 0, message: 'LOG takes 1 argument, got 2' });
      expect(functionArityProblem('?a + SQRT()')).to.deep.equal({ offset: 5, message: 'SQRT takes 1 argument, got 0' });
      expect(functionArityProblem('PI(1)')).to.deep.equal({ offset: 0, message: 'PI takes 0 arguments, got 1' });
      expect(functionArityProblem('pow(2)')?.message).to.equal('POW takes 2 arguments, got 1');
      expect(functionArityProblem('DATE_TIME(1, 2, 3)')?.message).to.equal('DATE_TIME takes 6 or 7 arguments, got 3');
      expect(functionArityProblem('MINFN()')?.message).to.equal('MINFN takes at least 1 argument, got 0');
      expect(functionArityProblem('LOG(SQRT(1, 2), 3)')).to.deep.equal({ offset: 0, message: 'LOG takes 1 argument, got 2' });
      expect(functionArityProblem('LOG(1) + SQRT(1, 2)')).to.deep.equal({ offset: 9, message: 'SQRT takes 1 argument, got 2' });
    });

    it('counts only the commas of the call itself', () => {
      for (const text of [
        'LOG(COALESCE(?a, ?b, 1))',
        'LOG(CONCAT("a,b", \'c,d\'))',
        'LOG(IF(EXISTS { ?s ?p ?o, ?o2 }, 1, 2))',
        'LOG(<http://example.org/a,b>(1, 2))',
        'LOG(1 # a, b\n)',
        'MINFN(1, 2, 3, 4, 5, 6, 7)',
        'PI( )',
        'DATE_TIME(2024, 1, 1, 0, 0, 0, 60)',
      ]) {
        expect(functionArityProblem(text), text).to.equal(undefined);
      }
    });

    it('leaves unclosed calls to the parser', () => {
      expect(functionArityProblem('LOG(1, 2')).to.equal(undefined);
    });
  });
});
