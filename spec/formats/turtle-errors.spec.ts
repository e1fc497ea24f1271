/**
 * n3's Turtle errors told in the user's terms: each case is parsed by n3 itself, and the
 * described error must name the problem at the line and column of the offending text.
 */
import { expect } from 'chai';
import { Parser } from 'n3';
import { ImportError } from '../../lib/index.js';
import { describeTurtleError, type DescribedError, type N3ErrorContext } from '../../lib/formats/turtle-errors.js';
import { expectError, useServer } from '../helpers/server.js';

const PREFIX = '@prefix ex: <http://e/> .\n';

/** Parses `text` with n3 and describes its error. */
function errorOf(text: string, showContent = true): DescribedError {
  const lines = text.split('\n');
  try {
    new Parser({ format: 'text/turtle' }).parse(text);
  } catch (e) {
    return describeTurtleError(e as Error & { context?: N3ErrorContext }, { showContent, lineText: (line) => lines[line - 1] });
  }
  throw new Error('the text parsed');
}

describe('formats/turtle-errors', () => {
  it('calls an unclosed string unterminated, at the quote that opens it, quoting the line', () => {
    const e = errorOf(`${PREFIX}ex:a ex:name "Bob .\nex:b ex:p ex:c .\n`);
    expect(e).to.deep.include({ line: 2, column: 14 });
    expect(e.message).to.match(/^unterminated string: no closing " on the line/);
    expect(e.message).to.contain('(in: ex:a ex:name "Bob .)');
  });

  it("reports a missing '.' at the end of the statement that lacks it, not on the next line", () => {
    const e = errorOf(`${PREFIX}ex:a ex:p ex:b\nex:c ex:p ex:d .\n`);
    expect(e).to.deep.include({ line: 2, column: 15, message: "missing '.' after the statement (in: ex:a ex:p ex:b)" });
    expect(errorOf(`${PREFIX}ex:a ex:p ex:b`)).to.deep.include({ line: 2, column: 15 });
  });

  it('names a space inside an IRI at its column', () => {
    const e = errorOf('<http://e/a b> <http://e/p> <http://e/o> .\n');
    expect(e).to.deep.include({ line: 1, column: 12 });
    expect(e.message).to.match(/^an IRI may not hold a space: <http:\/\/e\/a b>/);
  });

  it('calls an IRI without its closing bracket unterminated', () => {
    expect(errorOf(`${PREFIX}ex:a ex:p <http://e/o .\n`).message).to.match(/^unterminated IRI/);
  });

  it('names a bad escape sequence in a string', () => {
    const e = errorOf(`${PREFIX}ex:a ex:p "a\\qb" .\n`);
    expect(e.message).to.match(/^invalid escape sequence '\\q' in a string/);
    expect(e).to.deep.include({ line: 2, column: 11 });
  });

  it('says what is missing when a statement ends early', () => {
    expect(errorOf(`${PREFIX}ex:a ex:p .\n`)).to.deep.include({ line: 2, column: 11 });
    expect(errorOf(`${PREFIX}ex:a ex:p .\n`).message).to.match(/^expected a term .*found '\.'/);
    expect(errorOf(`${PREFIX}ex:a ex:p ex:b ;\n`).message).to.match(/^the input ends inside a statement: a term is missing after ';'/);
  });

  it('refuses a literal as subject in those words', () => {
    expect(errorOf(`${PREFIX}"x" ex:p ex:b .\n`)).to.deep.include({ line: 2, column: 1, message: 'a literal can only be the object of a triple (in: "x" ex:p ex:b .)' });
  });

  it('names bad directives, prefix declarations and language tags', () => {
    expect(errorOf('@prefx ex: <http://e/> .\n').message).to.match(/^unknown directive '@prefx'/);
    expect(errorOf('@prefix ex <http://e/> .\n').message).to.match(/^invalid prefix declaration/);
    expect(errorOf('PREFIX PREFIX ex: <http://e/>\n')).to.deep.include({ line: 1, column: 8 });
    expect(errorOf('PREFIX PREFIX ex: <http://e/>\n').message).to.match(/^invalid prefix declaration/);
    expect(errorOf(`${PREFIX}ex:a ex:p "x"@ .\n`).message).to.match(/^invalid language tag/);
  });

  it('keeps the unknown prefix wording of the rest of quadlog', () => {
    const e = errorOf('ex:a ex:p ex:b .\n');
    expect(e).to.deep.include({ line: 1, column: 1 });
    expect(e.message).to.match(/ex:/);
  });

  it('quotes nothing of content that is not shown', () => {
    const cases = [`${PREFIX}ex:a ex:name "Bob .\n`, '<http://e/a b> <http://e/p> <http://e/o> .\n', `${PREFIX}ex:a ex:p "a\\qb" .\n`, 'ex:secret ex:p ex:b .\n', '@prefx ex: <http://e/> .\n'];
    for (const text of cases) {
      const e = errorOf(text, false);
      expect(e.message).not.to.match(/Bob|http:\/\/e|\\q|secret|prefx/);
      expect(e.line).to.be.a('number');
    }
  });

  it('maps lines through the caller (a preamble read before the user text)', () => {
    const preamble = '@prefix ex: <http://e/> .\n';
    const text = `${preamble}ex:a ex:p ex:b\nex:c ex:p ex:d .\n`;
    const lines = text.split('\n');
    try {
      new Parser({ format: 'text/turtle' }).parse(text);
      expect.fail('parsed');
    } catch (e) {
      const d = describeTurtleError(e as Error & { context?: N3ErrorContext }, { showContent: true, lineText: (l) => lines[l - 1], mapLine: (l) => l - 1 });
      expect(d).to.deep.include({ line: 1, column: 15 });
    }
  });

  it('shortens a long line around the error', () => {
    const long = `${PREFIX}ex:a ex:p "${'x'.repeat(300)} .\n`;
    const e = errorOf(long);
    expect(e.message).to.match(/unterminated string/);
    expect(e.message.length).to.be.below(220);
  });
});

describe('formats/turtle-errors in an import', () => {
  const env = useServer('turtle-errors');

  it("tells a store's importer what is wrong in the user's terms, at the user's line, with the store's prefixes in force", async () => {
    const ds = await env.newStore();
    await ds.setPrefixes({ 'ex:': 'http://e/' });
    const missingDot = await expectError(ds.importData('ADD', 'ex:a ex:p ex:b\nex:c ex:p ex:d .\n', { mediaType: 'text/turtle' }), ImportError);
    expect(missingDot.message).to.equal("import failed, nothing was changed: line 1: column 15: missing '.' after the statement (in: ex:a ex:p ex:b)");
    const unterminated = await expectError(ds.importData('ADD', 'ex:a ex:p ex:b .\nex:a ex:name "Bob .\n', { mediaType: 'text/turtle' }), ImportError);
    expect(unterminated.message).to.equal('import failed, nothing was changed: line 2: column 14: unterminated string: no closing " on the line (in: ex:a ex:name "Bob .)');
    expect(await ds.countFacts()).to.equal(0);
  });
});
