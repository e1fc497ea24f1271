/**
 * SPARQL 1.2's functions on the language and base direction of literals: LANGDIR, hasLANG,
 * hasLANGDIR and STRLANGDIR.
 * @module
 */
import { directionOf } from '../model/terms.js';
import { fail } from './errors.js';
import { LANGUAGE_TAG } from './terms.js';
import { type Value, describe, requireSimple, stringLiteral } from './values.js';
import { booleanLiteral } from './vocabulary.js';

/** LANGDIR: the base direction of a literal (`"ltr"`, `"rtl"`, or `""` when it has none). */
export function langdir(term: Value): Value {
  if (term.termType !== 'Literal') fail(`LANGDIR of ${describe(term)}`);
  return stringLiteral(directionOf(term));
}

/** hasLANG: whether a term is a literal with a language tag. */
export function hasLang(term: Value): Value {
  return booleanLiteral(term.termType === 'Literal' && term.language !== '');
}

/** hasLANGDIR: whether a term is a literal with a base direction. */
export function hasLangDir(term: Value): Value {
  return booleanLiteral(term.termType === 'Literal' && directionOf(term) !== '');
}

/** STRLANGDIR: a string with a language tag and a base direction (`ltr` or `rtl`) from simple literals. */
export function strLangDir(lexical: Value, tag: Value, direction: Value): Value {
  const text = requireSimple(lexical, 'STRLANGDIR');
  const language = requireSimple(tag, 'STRLANGDIR');
  const dir = requireSimple(direction, 'STRLANGDIR');
  if (!LANGUAGE_TAG.test(language)) fail(`STRLANGDIR: invalid language tag "${language}"`);
  if (dir !== 'ltr' && dir !== 'rtl') fail(`STRLANGDIR: invalid base direction "${dir}" (ltr or rtl)`);
  return stringLiteral(text, language.toLowerCase(), dir);
}
