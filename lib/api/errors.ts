/**
 * The public error classes (defined in the model layer so every layer can throw them).
 * @module
 */
export {
  QuadlogError,
  ParsingError,
  ImportError,
  QueryCompilationError,
  RuleCompilationError,
  AuthenticationError,
  AccessDeniedError,
  UnknownResourceError,
  DuplicateResourceError,
  ResourceInUseError,
  TransactionError,
  LockTimeoutError,
  InterruptedError,
  MemoryLimitError,
  MemoryExhaustedError,
  BadRequestError,
  InvalidConnectionError,
} from '../model/errors.js';
