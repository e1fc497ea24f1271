/**
 * The functions called by IRI beyond the XSD casts: the XPath `fn:` and `math:` functions RDFox
 * supports and RDFox's own functions, each with its IRI, the short names RDFox calls it by
 * (`LOG` for `math:log`), its number of arguments and its implementation. Functions without a
 * standard IRI (MINFN, DAY_OF_THE_WEEK, …) have one in {@link FUNCTION_NS}. SPARQL 1.1's
 * built-ins keep their own names (sparqljs parses them); their `fn:` IRIs are listed here.
 * @module
 */
import * as calendar from './calendar.js';
import { effectiveBooleanValue } from './ebv.js';
import { fail } from './errors.js';
import * as math from './math.js';
import * as strings from './strings.js';
import * as constructors from './temporal-constructors.js';
import * as terms from './terms.js';
import { type Value, stringLiteral } from './values.js';
import { booleanLiteral, FN, FUNCTION_NS, MATH } from './vocabulary.js';

/** What library functions may need from the evaluation context. */
export interface FunctionContext {
  /** The name of the agent (role) evaluating the expression, for AGENT(); absent when there is none. */
  readonly agent?: string;
}

/** A function of the library. */
export interface LibraryFunction {
  /** Its IRI. */
  readonly iri: string;
  /** The short names (upper case) RDFox calls it by without a prefix; empty when it has none. */
  readonly names: readonly string[];
  /** Fewest arguments. */
  readonly min: number;
  /** Most arguments (`Infinity`: any number). */
  readonly max: number;
  /** The function, given the evaluation context once when the expression is compiled. */
  readonly bind: (context: FunctionContext) => (...args: Value[]) => Value;
}

/** How many arguments a function takes, for messages: `1 argument`, `2 or 3 arguments`, `at least 1 argument`. */
export function argumentCount(min: number, max: number): string {
  const count = max === Infinity ? `at least ${min}` : min === max ? `${min}` : min + 1 === max ? `${min} or ${max}` : `${min} to ${max}`;
  return `${count} ${min === 1 && (max === 1 || max === Infinity) ? 'argument' : 'arguments'}`;
}

type Fn = (...args: Value[]) => Value;

const entries: LibraryFunction[] = [];

/** Adds a function that does not need the context. `names` are its short names. */
function add(iri: string, names: readonly string[], min: number, max: number, fn: Fn): void {
  entries.push({ iri, names, min, max, bind: () => fn });
}

// Mathematical functions (XPath math: and RDFox's additions)
add(`${MATH}pi`, ['PI'], 0, 0, math.pi);
add(`${MATH}pow`, ['POW'], 2, 2, math.power);
add(`${MATH}sqrt`, ['SQRT'], 1, 1, math.sqrt);
add(`${MATH}log`, ['LOG'], 1, 1, math.log);
add(`${MATH}log10`, ['LOG10'], 1, 1, math.log10);
add(`${MATH}exp`, ['EXP'], 1, 1, math.exp);
add(`${MATH}exp10`, ['EXP10'], 1, 1, math.exp10);
add(`${MATH}sin`, ['SIN'], 1, 1, math.sin);
add(`${MATH}cos`, ['COS'], 1, 1, math.cos);
add(`${MATH}tan`, ['TAN'], 1, 1, math.tan);
add(`${MATH}asin`, ['ASIN'], 1, 1, math.asin);
add(`${MATH}acos`, ['ACOS'], 1, 1, math.acos);
add(`${MATH}atan`, ['ATAN'], 1, 1, math.atan);
add(`${MATH}atan2`, ['ATAN2'], 2, 2, math.atan2);
const ownMath: ReadonlyArray<readonly [string, number, Fn]> = [
  ['CBRT', 1, math.cbrt],
  ['HYPOT', 2, math.hypot],
  ['LOG2', 1, math.log2],
  ['EXP2', 1, math.exp2],
  ['SINH', 1, math.sinh],
  ['COSH', 1, math.cosh],
  ['TANH', 1, math.tanh],
  ['ASINH', 1, math.asinh],
  ['ACOSH', 1, math.acosh],
  ['ATANH', 1, math.atanh],
  ['ERF', 1, math.errorFunction],
  ['ERFC', 1, math.complementaryErrorFunction],
  ['GAMMA', 1, math.gammaFunction],
  ['LGAMMA', 1, math.logGammaFunction],
  ['IDIV', 2, math.idiv],
  ['MOD', 2, math.mod],
];
for (const [name, arity, fn] of ownMath) add(`${FUNCTION_NS}${name.toLowerCase()}`, [name], arity, arity, fn);
add(`${FUNCTION_NS}minfn`, ['MINFN'], 1, Infinity, math.minFn);
add(`${FUNCTION_NS}maxfn`, ['MAXFN'], 1, Infinity, math.maxFn);

// XPath names of SPARQL's numeric functions, and fn:not
add(`${FN}abs`, [], 1, 1, terms.abs);
add(`${FN}round`, [], 1, 1, terms.round);
add(`${FN}ceiling`, [], 1, 1, terms.ceil);
add(`${FN}floor`, [], 1, 1, terms.floor);
add(`${FN}not`, [], 1, 1, (a) => booleanLiteral(!effectiveBooleanValue(a)));

// Functions on terms
add(`${FUNCTION_NS}isinteger`, ['ISINTEGER'], 1, 1, terms.isInteger);
add(`${FUNCTION_NS}isdecimal`, ['ISDECIMAL'], 1, 1, terms.isDecimal);
add(`${FUNCTION_NS}strex`, ['STREX'], 1, 1, terms.strex);
entries.push({
  iri: `${FUNCTION_NS}agent`,
  names: ['AGENT'],
  min: 0,
  max: 0,
  bind: (context) => {
    const agent = context.agent;
    if (agent === undefined) return () => fail('AGENT: no agent evaluates this expression');
    const value = stringLiteral(agent);
    return () => value;
  },
});

// Strings: XPath names of SPARQL's string functions, and two XPath functions SPARQL lacks
add(`${FN}encode-for-uri`, [], 1, 1, strings.encodeForUri);
add(`${FN}escape-html-uri`, ['ESCAPE_HTML_URI'], 1, 1, strings.escapeHtmlUri);
add(`${FN}iri-to-uri`, ['IRI_TO_URI'], 1, 1, strings.iriToUri);
add(`${FN}contains`, [], 2, 2, strings.contains);
add(`${FN}starts-with`, [], 2, 2, strings.strstarts);
add(`${FN}ends-with`, [], 2, 2, strings.strends);
add(`${FN}lower-case`, [], 1, 1, strings.lcase);
add(`${FN}upper-case`, [], 1, 1, strings.ucase);
add(`${FN}string-length`, [], 1, 1, strings.strlen);
add(`${FN}substring`, [], 2, 3, strings.substr);
add(`${FN}substring-before`, [], 2, 2, strings.strbefore);
add(`${FN}substring-after`, [], 2, 2, strings.strafter);
add(`${FN}concat`, [], 0, Infinity, (...args) => strings.concat(args));
add(`${FN}matches`, [], 2, 3, strings.regex);
add(`${FN}replace`, [], 3, 4, strings.replace);

// Constructors of date/time and duration values
add(`${FUNCTION_NS}duration`, ['DURATION'], 6, 6, constructors.duration);
add(`${FUNCTION_NS}year_month_duration`, ['YEAR_MONTH_DURATION'], 2, 2, constructors.yearMonthDuration);
add(`${FUNCTION_NS}day_time_duration`, ['DAY_TIME_DURATION'], 4, 4, constructors.dayTimeDuration);
add(`${FUNCTION_NS}date_time`, ['DATE_TIME'], 6, 7, constructors.dateTime);
add(`${FUNCTION_NS}date_time_stamp`, ['DATE_TIME_STAMP'], 7, 7, constructors.dateTimeStamp);
add(`${FUNCTION_NS}date`, ['DATE'], 3, 4, constructors.date);
add(`${FUNCTION_NS}time`, ['TIME'], 3, 4, constructors.time);
add(`${FUNCTION_NS}g_year`, ['G_YEAR'], 1, 2, constructors.gYear);
add(`${FUNCTION_NS}g_year_month`, ['G_YEAR_MONTH'], 2, 3, constructors.gYearMonth);
add(`${FUNCTION_NS}g_month`, ['G_MONTH'], 1, 2, constructors.gMonth);
add(`${FUNCTION_NS}g_month_day`, ['G_MONTH_DAY'], 2, 3, constructors.gMonthDay);
add(`${FUNCTION_NS}g_day`, ['G_DAY'], 1, 2, constructors.gDay);

// Dates, times and durations
for (const kind of ['dateTime', 'date']) {
  add(`${FN}year-from-${kind}`, [], 1, 1, calendar.year);
  add(`${FN}month-from-${kind}`, [], 1, 1, calendar.month);
  add(`${FN}day-from-${kind}`, [], 1, 1, calendar.day);
}
for (const kind of ['dateTime', 'time', 'duration']) {
  add(`${FN}hours-from-${kind}`, [], 1, 1, calendar.hours);
  add(`${FN}minutes-from-${kind}`, [], 1, 1, calendar.minutes);
  add(`${FN}seconds-from-${kind}`, [], 1, 1, calendar.seconds);
}
for (const kind of ['dateTime', 'date', 'time']) add(`${FN}timezone-from-${kind}`, [], 1, 1, calendar.timezone);
add(`${FN}years-from-duration`, ['YEARS'], 1, 1, calendar.years);
add(`${FN}months-from-duration`, ['MONTHS'], 1, 1, calendar.months);
add(`${FN}days-from-duration`, ['DAYS'], 1, 1, calendar.days);
add(`${FUNCTION_NS}duration_months`, ['DURATION_MONTHS'], 1, 1, calendar.durationMonths);
add(`${FUNCTION_NS}duration_seconds`, ['DURATION_SECONDS'], 1, 1, calendar.durationSeconds);
add(`${FUNCTION_NS}time_on_timeline`, ['TIME_ON_TIMELINE'], 1, 1, calendar.timeOnTimeline);
add(`${FUNCTION_NS}to_timezone`, ['TO_TIMEZONE'], 1, 2, calendar.toTimezone);
for (const kind of ['dateTime', 'date', 'time'] as const) add(`${FN}adjust-${kind}-to-timezone`, [], 1, 2, calendar.adjustToTimezone(kind));
add(`${FUNCTION_NS}day_of_the_week`, ['DAY_OF_THE_WEEK'], 1, 1, calendar.dayOfTheWeek);

/** The library functions by IRI. */
export const FUNCTION_LIBRARY: ReadonlyMap<string, LibraryFunction> = new Map(entries.map((f) => [f.iri, f]));
