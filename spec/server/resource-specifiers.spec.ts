import { expect } from 'chai';
import { BadRequestError } from '../../lib/model/errors.js';
import { escapeSegment, parseResourceSpecifier, resourceName, specifierCovers, specifierMatches, specifierParts } from '../../lib/server/resource-specifiers.js';

const matches = (spec: string, resource: readonly string[]): boolean => specifierMatches(parseResourceSpecifier(spec), resource);
const covers = (outer: string, inner: string): boolean => specifierCovers(parseResourceSpecifier(outer), parseResourceSpecifier(inner));

describe('resource specifiers', () => {
  it('parses the resource names of RDFox and writes them back canonically', () => {
    for (const text of ['|', '>', '|requests', '|datastores', '>datastores', '|datastores|ds', '>datastores|ds', '|datastores|ds|rules', '|datastores|ds|axioms', '|datastores|ds|commitprocedure',
      '|datastores|ds|datasources', '>datastores|ds|datasources', '|datastores|ds|datasources|src', '|datastores|ds|tupletables|*', '|datastores|ds|namedgraphs|<http://ex/g>',
      '|roles', '|roles|*', '>roles', '|roles|bob', '>datastores|*', '|datastores|ds|deltaqueries|q']) {
      expect(parseResourceSpecifier(text).text, text).to.equal(text);
    }
  });

  it('unescapes || and a leading ** in names, and escapes them again', () => {
    const spec = parseResourceSpecifier('|datastores|my||store|tupletables|**star');
    expect(spec.segments).to.deep.equal(['datastores', 'my|store', 'tupletables', '*star']);
    expect(spec.text).to.equal('|datastores|my||store|tupletables|**star');
    expect(escapeSegment('*a|b*')).to.equal('**a||b*');
    expect(resourceName(['roles', '*x'])).to.equal('|roles|**x');
    expect(resourceName([])).to.equal('|');
  });

  it('refuses specifiers outside the grammar with an error naming the problem', () => {
    for (const [text, message] of [
      ['datastores', /must begin with '\|'/],
      ['|nothing', /unknown resource 'nothing'/],
      ['|datastores|ds|wrong', /unknown resource 'wrong'.*rules/],
      ['|datastores|*|rules', /'\*' may only be the last segment/],
      ['|roles|*|x', /'\*' may only be the last segment|no subordinate/],
      ['>roles|bob', /'>' needs a resource with subordinate resources/],
      ['>requests', /'>' needs a resource with subordinate/],
      ['|datastores|*x', /'\*\*'/],
      ['|datastores|', /empty segment/],
      ['|*', /unknown resource '\*'/],
    ] as const) {
      expect(() => parseResourceSpecifier(text), text).to.throw(BadRequestError, message);
    }
  });

  it('matches resources: exact names, the wildcard, and recursion', () => {
    expect(matches('|datastores', ['datastores'])).to.equal(true);
    expect(matches('|datastores', ['datastores', 'a'])).to.equal(false);
    expect(matches('>datastores', ['datastores', 'a', 'rules'])).to.equal(true);
    expect(matches('>datastores', ['roles'])).to.equal(false);
    expect(matches('|datastores|*', ['datastores', 'a'])).to.equal(true);
    expect(matches('|datastores|*', ['datastores'])).to.equal(false);
    expect(matches('|datastores|*', ['datastores', 'a', 'rules'])).to.equal(false);
    expect(matches('>datastores|*', ['datastores', 'a', 'rules'])).to.equal(true);
    expect(matches('>datastores|*', ['datastores'])).to.equal(false);
    expect(matches('>', [])).to.equal(true);
    expect(matches('>', ['roles', 'x'])).to.equal(true);
    expect(matches('|', ['roles'])).to.equal(false);
    expect(matches('|roles|**x', ['roles', '*x'])).to.equal(true);
    expect(matches('|roles|**x', ['roles', 'y'])).to.equal(false);
  });

  it('decides whether one specifier covers every resource of another', () => {
    expect(covers('>', '|roles|x')).to.equal(true);
    expect(covers('>datastores', '>datastores|*')).to.equal(true);
    expect(covers('>datastores|*', '>datastores')).to.equal(false);
    expect(covers('|datastores|*', '|datastores|a')).to.equal(true);
    expect(covers('|datastores|a', '|datastores|*')).to.equal(false);
    expect(covers('|datastores|*', '>datastores|a')).to.equal(false);
    expect(covers('>datastores|a', '|datastores|a|tupletables|*')).to.equal(true);
    expect(covers('|datastores|a|tupletables|*', '|datastores|a|tupletables|*')).to.equal(true);
    expect(covers('|datastores', '>datastores')).to.equal(false);
  });

  it('splits a > specifier into the resource and one part per kind of subordinate', () => {
    const parts = (text: string): string[] | undefined => specifierParts(parseResourceSpecifier(text))?.map((p) => p.text);
    expect(parts('>datastores')).to.deep.equal(['|datastores', '>datastores|*']);
    expect(parts('>datastores|a')).to.deep.equal(['|datastores|a', '|datastores|a|rules', '|datastores|a|axioms', '|datastores|a|commitprocedure', '>datastores|a|deltaqueries',
      '>datastores|a|datasources', '>datastores|a|tupletables', '>datastores|a|namedgraphs']);
    expect(parts('>datastores|a|tupletables')).to.deep.equal(['|datastores|a|tupletables', '|datastores|a|tupletables|*']);
    expect(parts('|datastores')).to.equal(undefined);
  });
});
