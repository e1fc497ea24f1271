/**
 * quadlog: an embeddable RDF knowledge-graph store with Datalog reasoning and SPARQL.
 *
 * Start a {@link Server}, open a {@link ServerConnection} through {@link ConnectionFactory},
 * create a data store and work with it through a {@link DataStoreConnection}.
 * @module
 */
export { Server, type ServerOptions, type ShutdownListener } from './server/server.js';
export type { RecoveryEvent, StoreLoadReport } from './server/recovery.js';
export { VERSION } from './server/version.js';
export { ConnectionFactory } from './api/connection-factory.js';
export { ConnectionBase } from './api/connection-base.js';
export { ServerConnection } from './api/server-connection.js';
export { type AccessType, ACCESS_TYPES, GUEST_ROLE, type PasswordSpecificationType, type Privilege, type RoleDescription } from './server/roles.js';
export { Cursor, AnswerBindings, type BindingsLike, type CursorPage } from './api/cursor.js';
export {
  DataStoreConnection,
  IMPLICIT_LOCK_TIMEOUT_MS,
  type BeginTransactionOptions,
  type FactCountOptions,
  type ImportAxiomsOptions,
  type ExportOptions,
  type ImportDataOptions,
  type ImportResult,
  type MaterializationOptions,
  type SavedQuery,
  type TransactionType,
  type UpdateOptions,
} from './api/data-store-connection.js';
export { open, EmbeddedStore, OWNER_ROLE, DEFAULT_STORE_NAME, type OpenOptions } from './api/embedded-store.js';
export { DEFAULT_PROGRESS_INTERVAL_MS, type ProgressOperation, type ProgressOptions, type ProgressReport } from './api/progress.js';
export { SnapshotDataset, type PatternTerm, type QuadStreamListener, type QuadStream } from './api/rdfjs-source.js';
export type { QuadSource } from './formats/rdfjs-quads.js';
export type { DataSourceColumnRow, DataSourceRow, DataSourceSample, DataSourceTableRow } from './server/data-sources.js';
export {
  ANSWER_MEDIA_TYPES,
  answerMediaType,
  compileRowFilter,
  createTableWriter,
  sparqlOperationType,
  supportsBooleanAnswers,
  type SparqlOperationType,
  type SparqlTextOptions,
  type TableWriter,
  type TableWriterOptions,
} from './server/answer-tables.js';
export type { PropertyRow, TupleTableRow } from './server/data-store.js';
export type { ComponentInfoRow } from './server/component-info.js';
export { ShaclViolationError, type ShaclFactDomain, type ValidationOptions, type ValidationReport, type ValidationResult } from './server/shacl-report.js';
export { ShaclShapeError } from './shacl/errors.js';
export { reportText as validationReportText } from './server/shacl-report-output.js';
export type { ReplicatedStoreStatus, ReplicationNodeStatus, ReplicationRole, ReplicationStatus } from './server/replication-status.js';
export type { ImportOptions, ImportSource, IriListSource, UpdateType } from './server/import.js';
export type { ByteExportOutput, ChunkWritable, ExportOutput, ExportParameters } from './server/export.js';
export type { FactDomain } from './storage/tuple-table.js';
export type { ContentSource } from './formats/content-source.js';
export type { QueryAnswer, QueryOptions } from './sparql/query.js';
export { QuadlogDataFactory as DataFactory } from './model/terms.js';
export {
  EXPLANATION_JSON,
  EXPLANATION_TYPES,
  checkExplanationType,
  explanationToJson,
  renderExplanation,
  type Explanation,
  type ExplanationFact,
  type ExplanationJson,
  type ExplanationJsonFact,
  type ExplanationOptions,
  type ExplanationRuleInstance,
  type ExplanationType,
} from './server/explanation.js';
export type { QueryTerm } from './sparql/query-terms.js';
export type {
  DeltaQueryAnswer,
  DeltaQueryChange,
  DeltaQueryDescription,
  DeltaQueryEvaluationMode,
  DeltaQueryEvent,
  DeltaQueryOptions,
  DeltaQueryRow,
  DeltaQueryVersionAnswer,
  DeltaQueryWatch,
  WatchOptions,
} from './server/delta-queries.js';
export { type NotificationRow, type NotificationType, NOTIFICATION_COLUMNS, formatNotification } from './formats/notifications.js';
export { TURTLE, N_TRIPLES, N_QUADS, TRIG, DATALOG, JSON_LD, RDF_XML, CONTENT_MEDIA_TYPES, unsupportedMediaTypeMessage, baseMediaType } from './formats/media-types.js';
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
  ReplicaWriteError,
  VersionTimeoutError,
  ReplicationError,
  ConstraintViolationError,
} from './model/errors.js';
export { firstInvalidUtf8 } from './model/utf8.js';
