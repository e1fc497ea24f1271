/**
 * SKOLEM blank nodes: the label scheme (SHA-256 of the canonical N-Triples forms of the
 * leading arguments), and the dictionary's memory of what each SKOLEM term was made from,
 * which a rollback forgets with the terms it removes.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { TermDictionary } from '../../lib/model/dictionary.js';
import { canonicalNTriples, internSkolem, SKOLEM_LABEL_PREFIX, skolemKey, skolemLabel } from '../../lib/model/skolem.js';

describe('model/skolem', () => {
  describe('canonical N-Triples forms', () => {
    it('keeps IRIs and blank nodes, and escapes only quote, backslash, line feed and carriage return in literals', () => {
      expect(canonicalNTriples('<http://ex/a b>')).to.equal('<http://ex/a b>');
      expect(canonicalNTriples('_:b1')).to.equal('_:b1');
      expect(canonicalNTriples('"plain"')).to.equal('"plain"');
      expect(canonicalNTriples('"a"b\\c\nd\re\tf é"@en')).to.equal('"a\\"b\\\\c\\nd\\re\tf é"@en');
      expect(canonicalNTriples('"1"^^<http://www.w3.org/2001/XMLSchema#integer>')).to.equal('"1"^^<http://www.w3.org/2001/XMLSchema#integer>');
    });
  });

  describe('labels', () => {
    it('are sk_ and the first 128 bits of the SHA-256 of the forms, each ended by a line feed', () => {
      const keys = ['"Employment"', '<http://ex/Peter>', '<http://ex/Company1>'];
      const hash = createHash('sha256').update('"Employment"\n<http://ex/Peter>\n<http://ex/Company1>\n').digest('hex');
      expect(skolemLabel(keys)).to.equal(`${SKOLEM_LABEL_PREFIX}${hash.slice(0, 32)}`);
      expect(skolemLabel(keys)).to.match(/^sk_[0-9a-f]{32}$/);
      expect(skolemKey(keys)).to.equal(`_:${skolemLabel(keys)}`);
      // no arguments (arity 1): the hash of nothing
      expect(skolemLabel([])).to.equal(`sk_${createHash('sha256').digest('hex').slice(0, 32)}`);
    });

    it('tell argument lists apart: order, splitting and escaping matter', () => {
      const labels = [
        skolemLabel(['"a"', '"b"']),
        skolemLabel(['"b"', '"a"']),
        skolemLabel(['"a\nb"']),
        skolemLabel(['"a"']),
        skolemLabel(['"a"@en']),
        skolemLabel(['<a>']),
      ];
      expect(new Set(labels).size).to.equal(labels.length);
    });
  });

  describe('the dictionary remembers what SKOLEM made a term from', () => {
    it('internSkolem interns the blank node and records its inputs once', () => {
      const d = new TermDictionary();
      const a = d.intern('<http://ex/a>');
      const b = d.intern('"b"');
      const id = internSkolem(d, [a, b]);
      expect(d.keyOf(id)).to.equal(skolemKey(['<http://ex/a>', '"b"']));
      expect([...d.skolemInputs(id)!]).to.deep.equal([a, b]);
      expect(internSkolem(d, Uint32Array.of(a, b))).to.equal(id);
      expect(d.skolemInputs(a)).to.equal(undefined);
    });

    it('truncating forgets SKOLEM terms that go and those made of terms that go', () => {
      const d = new TermDictionary();
      const a = d.intern('<http://ex/a>');
      const kept = internSkolem(d, [a]);
      const mark = d.size;
      const b = d.intern('<http://ex/b>');
      const gone = internSkolem(d, [b]);
      d.truncate(mark);
      expect(d.skolemInputs(kept)).to.not.equal(undefined);
      expect(d.skolemInputs(gone)).to.equal(undefined);
      // a SKOLEM term interned before the mark, recorded from a term interned after it
      const early = new TermDictionary();
      const x = early.intern('"x"');
      const label = early.intern(skolemKey(['"y"']));
      const at = early.size;
      const y = early.intern('"y"');
      early.recordSkolem(label, [y]);
      expect(early.skolemInputs(label)).to.not.equal(undefined);
      early.truncate(at);
      expect(early.skolemInputs(label), 'its inputs are gone').to.equal(undefined);
      expect(early.keyOf(x)).to.equal('"x"');
    });
  });
});
