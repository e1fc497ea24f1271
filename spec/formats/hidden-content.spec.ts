import { expect } from 'chai';
import { parseDatalog } from '../../lib/formats/datalog-parser.js';
import { NTriplesParser } from '../../lib/formats/ntriples-parser.js';

/** Broken Datalog, each quoting `secret` where a message could. */
const DATALOG = [
  'secret',
  'secret(',
  'secret(<http://example.com/a>',
  '[?secret, <http://example.com/p>] .',
  '<http://example.com/p>[?secret .',
  '@prefix secret: "x" .',
  '@prefix secret: <http://example.com/> . secret:a[?x] :- secret:b(?x .',
  'undeclaredsecret:a[?x] :- [?x, <http://example.com/p>, ?y] .',
  '[?x, <http://example.com/p>, ?y] :- [?x, <http://example.com/q>, ?y], FILTER(?x > "secret" secret) .',
  '[?x, <http://example.com/p>, ?y] :- [?x, <http://example.com/q>, ?y], BIND(secret(?y) AS ?z) .',
  '[?x, <http://example.com/p>, ?y] :- AGGREGATE(secret(?x) ON ?x BIND SECRETFN(?y) AS ?n) .',
  '<relative-secret>[<http://example.com/a>] .',
  '[<http://example.com/a>, <http://example.com/p>, "secret" "secret"] .',
  '[<http://example.com/a>, <http://example.com/p>, "\\q secret"] .',
  '[<http://example.com/a>, <http://example.com/p>, _:secret secret] .',
  '[<http://example.com/a>, <http://example.com/p>, 12secret] .',
  '[<http://example.com/a>, <http://example.com/p>, "x"@secret secret] .',
  '[<http://example.com/a>, <http://example.com/p>, ?x] :- NOT EXISTS ?secret secret .',
];

/** Broken N-Triples, each quoting `secret`. */
const NTRIPLES = [
  'secret <http://example.com/p> <http://example.com/o> .',
  '<secret> <http://example.com/p> <http://example.com/o> .',
  '<http://example.com/\\usecret> <http://example.com/p> <http://example.com/o> .',
  '<http://example.com/s> secret <http://example.com/o> .',
  '<http://example.com/s> <http://example.com/p> "x"@-secret .',
  '<http://example.com/s> <http://example.com/p> "x\\secret" .',
  '<http://example.com/s> <http://example.com/p> _:-secret .',
  '<http://example.com/s> <http://example.com/p> "x"^^secret .',
  '<http://example.com/s> <http://example.com/p> <http://example.com/o> secret',
  '<http://example.com/s> <http://example.com/p> <http://example.com/o> . secret',
  '<http://example.com/s> <http://example.com/p> <http://example.com/o> <http://example.com/g> secret .',
  '<http://exa mple.com/secret> <http://example.com/p> <http://example.com/o> .',
];

/** The messages of N-Triples (or N-Quads) input. */
function ntriplesErrors(text: string, quads: boolean, showContent: boolean): string[] {
  const messages: string[] = [];
  const parser = new NTriplesParser({ intern: () => 0, statement: () => undefined, error: (_line, _column, message) => void messages.push(message) }, { quads, showContent });
  parser.write(new TextEncoder().encode(`${text}\n`));
  parser.end();
  return messages;
}

describe('formats: errors of content that is not shown quote none of it', () => {
  it('Datalog: says what was expected and what kind of token was found, or that the statement is not valid', () => {
    for (const text of DATALOG) {
      const shown = parseDatalog(text).errors;
      const hidden = parseDatalog(text, { showContent: false }).errors;
      expect(hidden.length, text).to.equal(shown.length).and.to.be.greaterThan(0);
      hidden.forEach((e, i) => {
        expect(e.message, text).to.not.match(/secret/i);
        expect([e.line, e.column], text).to.deep.equal([shown[i]!.line, shown[i]!.column]);
      });
    }
    expect(parseDatalog('secret(<http://example.com/a>', { showContent: false }).errors[0]!.message).to.equal("expected ',' or ')', found end of input");
  });

  it('N-Triples and N-Quads: say what was expected and the kind of what was found', () => {
    for (const quads of [false, true]) {
      for (const text of NTRIPLES) {
        const shown = ntriplesErrors(text, quads, true);
        const hidden = ntriplesErrors(text, quads, false);
        expect(hidden.length, text).to.equal(shown.length).and.to.be.greaterThan(0);
        for (const message of hidden) expect(message, text).to.not.match(/secret|'[a-z\\]/i);
      }
    }
    expect(ntriplesErrors('secret <http://example.com/p> <http://example.com/o> .', false, false)).to.deep.equal(['expected subject (IRI or blank node), found a character that is not allowed there']);
  });
});
