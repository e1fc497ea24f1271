/**
 * Effective boolean value (§17.2.2).
 * @module
 */
import { fail } from './errors.js';
import { numericIsTrue } from './numeric.js';
import { type Value, decode, describe } from './values.js';
import { INTEGER_SUBTYPES, XSD_BOOLEAN, XSD_DECIMAL, XSD_DOUBLE, XSD_FLOAT, XSD_INTEGER } from './vocabulary.js';

function isNumericOrBoolean(datatype: string): boolean {
  return (
    datatype === XSD_BOOLEAN ||
    datatype === XSD_INTEGER ||
    datatype === XSD_DECIMAL ||
    datatype === XSD_FLOAT ||
    datatype === XSD_DOUBLE ||
    INTEGER_SUBTYPES.has(datatype)
  );
}

/**
 * The effective boolean value of a value (§17.2.2): a boolean is its value; a number is false
 * when zero or NaN; a string (simple, xsd:string or language-tagged — "plain literals") is false
 * when empty; a boolean or number with an invalid lexical form is false. Anything else (IRIs,
 * blank nodes, other datatypes) has none: throws ExpressionError.
 */
export function effectiveBooleanValue(value: Value): boolean {
  if (value.termType === 'Literal') {
    const v = decode(value);
    switch (v.kind) {
      case 'boolean':
        return v.value;
      case 'numeric':
        return numericIsTrue(v.numeric);
      case 'string':
        return v.lexical.length > 0;
      case 'invalid':
        if (isNumericOrBoolean(v.datatype)) return false;
        break;
      default:
        break;
    }
  }
  return fail(`${describe(value)} has no effective boolean value`);
}
