/**
 * Compiles sparqlalgebrajs expression trees into closures over a variable getter: operators
 * (§17.3, with the error-tolerant `||`/`&&` of §17.2), function forms that take their arguments
 * lazily (BOUND, IF, COALESCE, IN, NOT IN, EXISTS), built-in functions (§17.4), XSD
 * constructor functions (§17.5), and the functions of `function-library.ts` called by IRI (the
 * XPath `fn:` and `math:` functions and RDFox's own; their unprefixed names are rewritten to
 * those IRIs before parsing, see `function-names.ts`).
 * @module
 */
import type * as RDF from '@rdfjs/types/data-model.js';
import { DataFactory, Literal as N3Literal } from 'n3';
import { Algebra } from './sparql-libraries.js';
import * as calendar from './calendar.js';
import { castFunction } from './casts.js';
import { sparqlOrderCompare, termOrderEquals, valueEquals } from './comparison.js';
import { dateTimeFromDate } from './datetime.js';
import { effectiveBooleanValue } from './ebv.js';
import { ExpressionError, fail } from './errors.js';
import { argumentCount, FUNCTION_LIBRARY } from './function-library.js';
import { HASH_ALGORITHMS, hash } from './hash.js';
import { type Numeric, numericAdd, numericDivide, numericMultiply, numericNegate, numericSubtract } from './numeric.js';
import * as strings from './strings.js';
import { TERM_ORDER_IN, TERM_ORDER_NOT_IN, TERM_ORDER_OPERATORS } from './term-order.js';
import * as terms from './terms.js';
import * as tripleTerms from './triple-terms.js';
import { directionOf, languageLiteral } from '../model/terms.js';
import * as directions from './directions.js';
import { type Value, dateTimeLiteral, numericLiteral, requireNumeric, requireSimple } from './values.js';
import { FALSE, TRUE, XSD_DATE_TIME, booleanLiteral } from './vocabulary.js';

/** Returns the bound value of a variable (name without `?`) or undefined. */
export type Getter = (variable: string) => Value | undefined;

/** A compiled expression. */
export type Evaluator = (get: Getter) => Value;

/** What compiled expressions need from their surroundings. */
export interface EvaluationContext {
  /** The query's fixed NOW() (same value for the whole evaluation). */
  readonly now: Date;
  /** Base IRI for IRI()/URI() with relative arguments. */
  readonly baseIRI?: string;
  /** Evaluates EXISTS/NOT EXISTS (SPARQL only); absent → EXISTS throws ExpressionError. Gets the pattern and the current bindings. */
  readonly exists?: (pattern: Algebra.Operation, bindings: (variable: string) => Value | undefined) => boolean;
  /** For BNODE(): returns a fresh blank node, or the same one for the same label within one solution (the caller resets per solution). */
  readonly bnode?: (label?: string) => RDF.BlankNode;
  /** For AGENT(): the name of the role evaluating the expression; absent → AGENT() is an error. */
  readonly agent?: string;
}

/** Per-compilation state. */
interface Compilation {
  readonly context: EvaluationContext;
  /** NOW() as a literal, made once. */
  now: RDF.Literal | undefined;
  /** BNODE(label) without a context callback: labels of the current evaluation. */
  labels: Map<string, RDF.BlankNode> | undefined;
  /** Whether BNODE(label) is used without a context callback (the labels reset per call). */
  usesLabels: boolean;
}

let bnodeCounter = 0;
const BNODE_PREFIX = `e${Math.floor(Math.random() * 0x100000).toString(36)}_`;

function freshBlankNode(): RDF.BlankNode {
  return DataFactory.blankNode(`${BNODE_PREFIX}${(bnodeCounter++).toString(36)}`);
}

/** Rethrows anything that is not an expression error (bugs, interrupts from callbacks). */
function expressionError(e: unknown): ExpressionError {
  if (e instanceof ExpressionError) return e;
  throw e;
}

/** A strict function: all arguments are evaluated (left to right) before it is applied. */
function strict(args: readonly Evaluator[], fn: (...values: Value[]) => Value): Evaluator {
  switch (args.length) {
    case 0:
      return () => fn();
    case 1: {
      const [a] = args as [Evaluator];
      return (get) => fn(a(get));
    }
    case 2: {
      const [a, b] = args as [Evaluator, Evaluator];
      return (get) => fn(a(get), b(get));
    }
    case 3: {
      const [a, b, c] = args as [Evaluator, Evaluator, Evaluator];
      return (get) => fn(a(get), b(get), c(get));
    }
    default:
      return (get) => fn(...args.map((a) => a(get)));
  }
}

type Builtin = {
  readonly min: number;
  readonly max: number;
  readonly fn: (...values: Value[]) => Value;
};

function fixed(n: number, fn: (...values: Value[]) => Value): Builtin {
  return { min: n, max: n, fn };
}

function arithmetic(op: (a: Numeric, b: Numeric) => Numeric, symbol: string): Builtin {
  return fixed(2, (a, b) => numericLiteral(op(requireNumeric(a, symbol), requireNumeric(b, symbol))));
}

/** Strict built-ins, by lower-case operator name. */
const BUILTINS: ReadonlyMap<string, Builtin> = new Map<string, Builtin>([
  ['!', fixed(1, (a) => booleanLiteral(!effectiveBooleanValue(a)))],
  ['=', fixed(2, (a, b) => booleanLiteral(valueEquals(a, b)))],
  ['!=', fixed(2, (a, b) => booleanLiteral(!valueEquals(a, b)))],
  ['<', fixed(2, (a, b) => booleanLiteral(sparqlOrderCompare(a, b) < 0))],
  ['>', fixed(2, (a, b) => booleanLiteral(sparqlOrderCompare(a, b) > 0))],
  ['<=', fixed(2, (a, b) => booleanLiteral(sparqlOrderCompare(a, b) <= 0))],
  ['>=', fixed(2, (a, b) => booleanLiteral(sparqlOrderCompare(a, b) >= 0))],
  ['+', arithmetic(numericAdd, '+')],
  ['*', arithmetic(numericMultiply, '*')],
  ['/', arithmetic(numericDivide, '/')],
  [
    '-',
    {
      min: 1,
      max: 2,
      fn: (a: Value, b?: Value) =>
        numericLiteral(b === undefined ? numericNegate(requireNumeric(a, '-')) : numericSubtract(requireNumeric(a, '-'), requireNumeric(b, '-'))),
    },
  ],
  ['uplus', fixed(1, (a) => numericLiteral(requireNumeric(a, '+')))],
  ['uminus', fixed(1, (a) => numericLiteral(numericNegate(requireNumeric(a, '-'))))],
  ['str', fixed(1, terms.str)],
  ['lang', fixed(1, terms.lang)],
  ['langmatches', fixed(2, strings.langMatches)],
  ['datatype', fixed(1, terms.datatype)],
  ['rand', fixed(0, terms.rand)],
  ['abs', fixed(1, terms.abs)],
  ['ceil', fixed(1, terms.ceil)],
  ['floor', fixed(1, terms.floor)],
  ['round', fixed(1, terms.round)],
  ['concat', { min: 0, max: Infinity, fn: (...args) => strings.concat(args) }],
  ['substr', { min: 2, max: 3, fn: (s: Value, start: Value, len?: Value) => strings.substr(s, start, len) }],
  ['strlen', fixed(1, strings.strlen)],
  ['replace', { min: 3, max: 4, fn: (s: Value, p: Value, r: Value, f?: Value) => strings.replace(s, p, r, f) }],
  ['ucase', fixed(1, strings.ucase)],
  ['lcase', fixed(1, strings.lcase)],
  ['encode_for_uri', fixed(1, strings.encodeForUri)],
  ['contains', fixed(2, strings.contains)],
  ['strstarts', fixed(2, strings.strstarts)],
  ['strends', fixed(2, strings.strends)],
  ['strbefore', fixed(2, strings.strbefore)],
  ['strafter', fixed(2, strings.strafter)],
  ['year', fixed(1, calendar.year)],
  ['month', fixed(1, calendar.month)],
  ['day', fixed(1, calendar.day)],
  ['hours', fixed(1, calendar.hours)],
  ['minutes', fixed(1, calendar.minutes)],
  ['seconds', fixed(1, calendar.seconds)],
  ['timezone', fixed(1, calendar.timezone)],
  ['tz', fixed(1, calendar.tz)],
  ['uuid', fixed(0, terms.uuid)],
  ['struuid', fixed(0, terms.struuid)],
  ['strlang', fixed(2, terms.strlang)],
  ['strdt', fixed(2, terms.strdt)],
  ['sameterm', fixed(2, terms.sameTerm)],
  ['isiri', fixed(1, terms.isIri)],
  ['isuri', fixed(1, terms.isIri)],
  ['isblank', fixed(1, terms.isBlank)],
  ['isliteral', fixed(1, terms.isLiteral)],
  ['isnumeric', fixed(1, terms.isNumeric)],
  ['triple', fixed(3, tripleTerms.triple)],
  ['subject', fixed(1, tripleTerms.subject)],
  ['predicate', fixed(1, tripleTerms.predicate)],
  ['object', fixed(1, tripleTerms.object)],
  ['istriple', fixed(1, tripleTerms.isTriple)],
  ['langdir', fixed(1, directions.langdir)],
  ['haslang', fixed(1, directions.hasLang)],
  ['haslangdir', fixed(1, directions.hasLangDir)],
  ['strlangdir', fixed(3, directions.strLangDir)],
  ['regex', { min: 2, max: 3, fn: (t: Value, p: Value, f?: Value) => strings.regex(t, p, f) }],
  ...Object.keys(HASH_ALGORITHMS).map((name): [string, Builtin] => [name, fixed(1, (a) => hash(HASH_ALGORITHMS[name]!, a))]),
  // the comparisons of rules (term-order.ts); SPARQL text cannot name these operators
  ...[...TERM_ORDER_OPERATORS].map(([name, fn]): [string, Builtin] => [name, fixed(2, fn)]),
]);

function arity(name: string, args: readonly unknown[], min: number, max: number): void {
  if (args.length < min || args.length > max) throw new ExpressionError(`${name.toUpperCase()} takes ${min === max ? min : `${min} to ${max}`} arguments, got ${args.length}`);
}

function toValue(term: RDF.Term): Value {
  switch (term.termType) {
    case 'NamedNode':
      return DataFactory.namedNode(term.value);
    case 'BlankNode':
      return DataFactory.blankNode(term.value);
    case 'Literal': {
      const lit = term;
      const direction = directionOf(lit);
      if (lit.language !== '') return languageLiteral(lit.value, lit.language, direction);
      return DataFactory.literal(lit.value, DataFactory.namedNode(lit.datatype.value));
    }
    case 'Quad':
      return DataFactory.quad(toValue(term.subject) as RDF.Quad_Subject, toValue(term.predicate) as RDF.Quad_Predicate, toValue(term.object));
    default:
      throw new ExpressionError(`a ${term.termType} cannot occur in an expression`);
  }
}

function compileTerm(term: RDF.Term): Evaluator {
  if (term.termType === 'Variable') {
    const name = term.value;
    // One error object per variable occurrence, thrown each time it is unbound (cheap to throw).
    const unbound = new ExpressionError(`?${name} is unbound`);
    return (get) => {
      const v = get(name);
      if (v === undefined) throw unbound;
      return v;
    };
  }
  if (term.termType === 'Quad' && holdsVariable(term)) {
    // a triple term written with variables (`BIND(<<( ?s :p ?o )>> AS ?t)`): TRIPLE of its parts
    const parts = [compileTerm(term.subject), compileTerm(term.predicate), compileTerm(term.object)] as const;
    return (get) => tripleTerms.triple(parts[0](get), parts[1](get), parts[2](get));
  }
  const value = toValue(term);
  return () => value;
}

/** Whether a term is, or holds at any depth, a variable. */
function holdsVariable(t: RDF.Term): boolean {
  return t.termType === 'Variable' || (t.termType === 'Quad' && (holdsVariable(t.subject) || holdsVariable(t.predicate) || holdsVariable(t.object)));
}

function compileOr(args: readonly Evaluator[]): Evaluator {
  return (get) => {
    let error: ExpressionError | undefined;
    for (const arg of args) {
      try {
        if (effectiveBooleanValue(arg(get))) return TRUE;
      } catch (e) {
        error = expressionError(e);
      }
    }
    if (error !== undefined) throw error;
    return FALSE;
  };
}

function compileAnd(args: readonly Evaluator[]): Evaluator {
  return (get) => {
    let error: ExpressionError | undefined;
    for (const arg of args) {
      try {
        if (!effectiveBooleanValue(arg(get))) return FALSE;
      } catch (e) {
        error = expressionError(e);
      }
    }
    if (error !== undefined) throw error;
    return TRUE;
  };
}

function compileIn(args: readonly Evaluator[], negated: boolean, equals: (a: Value, b: Value) => boolean): Evaluator {
  const [left, ...list] = args as [Evaluator, ...Evaluator[]];
  const found = negated ? FALSE : TRUE;
  const notFound = negated ? TRUE : FALSE;
  return (get) => {
    const x = left(get);
    let error: ExpressionError | undefined;
    for (const item of list) {
      try {
        if (equals(x, item(get))) return found;
      } catch (e) {
        error = expressionError(e);
      }
    }
    if (error !== undefined) throw error;
    return notFound;
  };
}

function compileCoalesce(args: readonly Evaluator[]): Evaluator {
  return (get) => {
    for (const arg of args) {
      try {
        return arg(get);
      } catch (e) {
        expressionError(e);
      }
    }
    return fail('COALESCE: every argument is an error');
  };
}

/** CONCAT without an array of its argument values per call. */
function compileConcat(args: readonly Evaluator[]): Evaluator {
  if (args.length === 0) return strict(args, () => strings.concat([]));
  return (get) => {
    const first = args[0]!(get);
    if (args.length === 1) return strings.concat([first]);
    const parts = strings.concatenation(first);
    for (let i = 1; i < args.length; i++) parts.add(args[i]!(get));
    return parts.result();
  };
}

function compileBnode(args: readonly Evaluator[], c: Compilation): Evaluator {
  const callback = c.context.bnode;
  if (args.length === 0) return callback === undefined ? () => freshBlankNode() : () => callback();
  const [arg] = args as [Evaluator];
  if (callback !== undefined) return (get) => callback(requireSimple(arg(get), 'BNODE'));
  c.usesLabels = true;
  return (get) => {
    const label = requireSimple(arg(get), 'BNODE');
    c.labels ??= new Map();
    let node = c.labels.get(label);
    if (node === undefined) {
      node = freshBlankNode();
      c.labels.set(label, node);
    }
    return node;
  };
}

function compileOperator(e: Algebra.OperatorExpression, c: Compilation): Evaluator {
  const name = e.operator.toLowerCase();
  const raw = e.args;
  switch (name) {
    case 'bound': {
      arity(name, raw, 1, 1);
      const arg = raw[0]!;
      if (arg.expressionType !== Algebra.expressionTypes.TERM || arg.term.termType !== 'Variable') throw new ExpressionError('BOUND takes a variable');
      const variable = arg.term.value;
      return (get) => booleanLiteral(get(variable) !== undefined);
    }
    case 'exists':
    case 'notexists':
      throw new ExpressionError(`unexpected operator ${name}`);
    default:
      break;
  }
  const args = raw.map((a) => compile(a, c));
  switch (name) {
    case '||':
      arity(name, args, 1, Infinity);
      return compileOr(args);
    case '&&':
      arity(name, args, 1, Infinity);
      return compileAnd(args);
    case 'in':
    case 'notin':
      arity(name, args, 1, Infinity);
      return compileIn(args, name === 'notin', valueEquals);
    case TERM_ORDER_IN:
    case TERM_ORDER_NOT_IN:
      arity(name, args, 1, Infinity);
      return compileIn(args, name === TERM_ORDER_NOT_IN, termOrderEquals);
    case 'if': {
      arity(name, args, 3, 3);
      const [cond, then, otherwise] = args as [Evaluator, Evaluator, Evaluator];
      return (get) => (effectiveBooleanValue(cond(get)) ? then(get) : otherwise(get));
    }
    case 'coalesce':
      return compileCoalesce(args);
    case 'concat':
      return compileConcat(args);
    case 'bnode':
      arity(name, args, 0, 1);
      return compileBnode(args, c);
    case 'now': {
      arity(name, args, 0, 0);
      c.now ??= dateTimeLiteral(dateTimeFromDate(c.context.now), XSD_DATE_TIME);
      const now = c.now;
      return () => now;
    }
    case 'iri':
    case 'uri': {
      arity(name, args, 1, 1);
      const base = c.context.baseIRI;
      return strict(args, (v) => terms.toIri(v, base));
    }
    default: {
      const builtin = BUILTINS.get(name);
      if (builtin === undefined) throw new ExpressionError(`unknown operator ${e.operator}`);
      arity(name, args, builtin.min, builtin.max);
      return strict(args, builtin.fn);
    }
  }
}

function compileNamed(e: Algebra.NamedExpression, c: Compilation): Evaluator {
  const iri = e.name.value;
  const args = e.args.map((a) => compile(a, c));
  const cast = castFunction(iri);
  if (cast === undefined) {
    const f = FUNCTION_LIBRARY.get(iri);
    if (f === undefined) return () => fail(`unknown function <${iri}>`);
    if (args.length < f.min || args.length > f.max) return () => fail(`<${iri}> takes ${argumentCount(f.min, f.max)}, got ${args.length}`);
    return strict(args, f.bind(c.context));
  }
  if (args.length !== 1) return () => fail(`<${iri}> takes one argument, got ${args.length}`);
  return strict(args, memoizeOnLiteral(cast));
}

/** Calls after which a {@link memoizeOnLiteral} cache that mostly missed is dropped. */
const LITERAL_MEMO_TRIAL = 4096;
/** The most entries a {@link memoizeOnLiteral} cache holds. */
const LITERAL_MEMO_ENTRIES = 16384;

/**
 * A function of one term (a cast) remembered per literal, keyed by the n3 term id (the same id
 * is the same literal), errors included. Casts from strings parse and format per call; a query
 * that casts a computed string (`xsd:dateTime(CONCAT(…))`) meets the same few strings again and
 * again. The cache is dropped when more than half of the first {@link LITERAL_MEMO_TRIAL} calls
 * missed, and stops growing at {@link LITERAL_MEMO_ENTRIES}.
 */
function memoizeOnLiteral(fn: (v: Value) => Value): (v: Value) => Value {
  let cache: Map<string, Value | ExpressionError> | undefined = new Map();
  let calls = 0;
  return (v) => {
    if (cache === undefined || !(v instanceof N3Literal)) return fn(v);
    if (++calls === LITERAL_MEMO_TRIAL && cache.size * 2 > LITERAL_MEMO_TRIAL) {
      cache = undefined;
      return fn(v);
    }
    const key = v.id;
    const hit = cache.get(key);
    if (hit !== undefined) {
      if (hit instanceof ExpressionError) throw hit;
      return hit;
    }
    let result: Value | ExpressionError;
    try {
      result = fn(v);
    } catch (e) {
      result = expressionError(e);
    }
    if (cache.size < LITERAL_MEMO_ENTRIES) cache.set(key, result);
    if (result instanceof ExpressionError) throw result;
    return result;
  };
}

function compileExistence(e: Algebra.ExistenceExpression, c: Compilation): Evaluator {
  const exists = c.context.exists;
  const pattern = e.input;
  const negated = e.not;
  if (exists === undefined) return () => fail('EXISTS is not available here');
  return (get) => booleanLiteral(exists(pattern, get) !== negated);
}

function compile(e: Algebra.Expression, c: Compilation): Evaluator {
  switch (e.expressionType) {
    case Algebra.expressionTypes.TERM:
      return compileTerm(e.term);
    case Algebra.expressionTypes.OPERATOR:
      return compileOperator(e, c);
    case Algebra.expressionTypes.NAMED:
      return compileNamed(e, c);
    case Algebra.expressionTypes.EXISTENCE:
      return compileExistence(e, c);
    case Algebra.expressionTypes.AGGREGATE:
      throw new ExpressionError(`the aggregate ${e.aggregator.toUpperCase()} is not allowed here`);
    case Algebra.expressionTypes.WILDCARD:
      throw new ExpressionError('* is not allowed here');
    default:
      throw new ExpressionError(`unknown expression type ${String((e as { expressionType?: unknown }).expressionType)}`);
  }
}

/**
 * Compiles an expression once into a closure. `get` returns the bound value of a variable (name
 * without `?`) or undefined. The closure returns the value or throws {@link ExpressionError}.
 * Structural problems (an aggregate or `*` in a scalar expression, an unknown operator, a built-in
 * with the wrong number of arguments, BOUND of a non-variable) throw ExpressionError here, at
 * compile time; an unknown function IRI, or a function IRI called with the wrong number of
 * arguments, is an error when evaluated.
 */
export function compileExpression(expression: Algebra.Expression, context: EvaluationContext): (get: (variable: string) => Value | undefined) => Value {
  const c: Compilation = { context, now: undefined, labels: undefined, usesLabels: false };
  const f = compile(expression, c);
  if (!c.usesLabels) return f;
  return (get) => {
    c.labels = undefined;
    return f(get);
  };
}

