/**
 * PGlite queries through named prepared statements, as postgres.js runs every query on a
 * PostgreSQL server. PGlite's own `query` parses, plans and describes each query anew, in five
 * trips into its WASM module; here each distinct SQL text is parsed and described once, and a
 * query is then one trip (Bind, Describe, Execute, Sync) on a statement whose plan Postgres keeps.
 * Measured on the tool call's job insert: 0.80 -> 0.30 ms, and 1.6 -> 0.8 ms when the process
 * had been idle (caches cold, as between a client's calls). Results, errors and notifications go
 * through PGlite's own protocol wrappers and result parser, so callers see what `query` answers.
 */
import { parse, protocol, type PGlite, type QueryOptions, type Results } from "@electric-sql/pglite";

const { serialize } = protocol;

/** Distinct SQL texts kept prepared: the hot ones stay, texts that vary (IN lists of any length) come and go. */
export const MAX_STATEMENTS = 256;

/** Postgres refuses a prepared statement whose result columns changed under it (a table altered). */
const RESULT_TYPE_CHANGED = "cached plan must not change result type";

/** Statement names, unique in the process: several instances may share one PGlite (tests do). */
let named = 0;

interface Statement {
  name: string;
  /** The parameters' type OIDs, as Postgres inferred them: they choose each value's serializer. */
  paramTypes: number[];
}

export class PgliteStatements {
  /** By SQL text, least recently used first (a Map keeps insertion order; a use moves one to the end). */
  private readonly statements = new Map<string, Statement>();
  /** Evicted statements, closed with the next message sent outside a transaction. */
  private closing: string[] = [];

  constructor(
    private readonly pg: PGlite,
    private readonly max = MAX_STATEMENTS,
    /**
     * Whether a query outside a transaction ends with PGlite's syncToFs, as its own `query` does.
     * Off where the file system writes through (NodeFS: Postgres's writes are the host's files),
     * whose syncToFs does nothing but still costs a lock and two awaits on every statement.
     */
    private readonly syncsFs = true,
  ) {}

  /** Whether `query` answers these options as PGlite would (a blob or explicit parameter types go to PGlite's own path). */
  handles(options: QueryOptions | undefined): boolean {
    return !options?.blob && !options?.paramTypes;
  }

  /** PGlite's `query`, on a prepared statement. `inTransaction`: called by a transaction's callback, which holds PGlite's transaction lock. */
  async query<T>(text: string, params: unknown[] = [], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    if (inTransaction) return this.pg._runExclusiveQuery(() => this.run<T>(text, params, options, true));
    await this.pg._checkReady();
    return this.pg._runExclusiveTransaction(() => this.pg._runExclusiveQuery(() => this.run<T>(text, params, options, false)));
  }

  /** The SQL texts prepared now, least recently used first (for tests). */
  texts(): string[] {
    return [...this.statements.keys()];
  }

  private async run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      return await this.execute<T>(text, params, options, inTransaction);
    } catch (err) {
      // A table altered under a prepared statement: prepare it again (once; in a transaction the error has aborted it).
      if (inTransaction || !String((err as Error).message).includes(RESULT_TYPE_CHANGED)) throw withQuery(err, text, params, options);
      this.forget(text);
      try {
        return await this.execute<T>(text, params, options, inTransaction);
      } catch (again) {
        throw withQuery(again, text, params, options);
      }
    }
  }

  private async execute<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    const statement = this.use(text) ?? (await this.prepare(text, inTransaction));
    const values = params.map((value, i) => serializeParam(this.pg, value, statement.paramTypes[i], options));
    const messages = await this.pg.execProtocolStream(
      Buffer.concat([
        ...this.closes(inTransaction),
        serialize.bind({ statement: statement.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    // Outside a transaction PGlite flushes its file system after each query (a no-op on disk, not in IndexedDB).
    if (!inTransaction && this.syncsFs) await this.pg.syncToFs();
    return parse.parseResults(messages, this.pg.parsers, options)[0] as Results<T>;
  }

  /** The statement of `text`, now the most recently used, if it is prepared. */
  private use(text: string): Statement | undefined {
    const statement = this.statements.get(text);
    if (!statement) return undefined;
    this.statements.delete(text);
    this.statements.set(text, statement);
    return statement;
  }

  /** Parses and describes `text` as a new named statement; nothing is kept when Postgres refuses it. */
  private async prepare(text: string, inTransaction: boolean): Promise<Statement> {
    const name = `vk_${++named}`;
    const messages = await this.pg.execProtocolStream(Buffer.concat([...this.closes(inTransaction), serialize.parse({ name, text }), serialize.describe({ type: "S", name }), serialize.sync()]), { syncToFs: false });
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.statements.set(text, statement);
    if (this.statements.size > this.max) this.forget(this.statements.keys().next().value!);
    return statement;
  }

  /** Drops `text` from the cache; its statement is closed with the next message outside a transaction. */
  private forget(text: string): void {
    const statement = this.statements.get(text);
    if (!statement) return;
    this.statements.delete(text);
    this.closing.push(statement.name);
  }

  /**
   * Close messages for the evicted statements. Sent outside transactions only: an aborted
   * transaction would refuse them and they would be lost.
   */
  private closes(inTransaction: boolean): Uint8Array[] {
    if (inTransaction || this.closing.length === 0) return [];
    const names = this.closing;
    this.closing = [];
    return names.map((name) => serialize.close({ type: "S", name }));
  }
}

/** A parameter as PGlite's `query` sends it: null stays null, else the serializer of its type, else its string. */
function serializeParam(pg: PGlite, value: unknown, type: number | undefined, options: QueryOptions | undefined): string | null {
  if (value === null || value === undefined) return null;
  const serializer = (type !== undefined && (options?.serializers?.[type] ?? pg.serializers[type])) || null;
  return serializer ? serializer(value) : String(value);
}

/** The error as PGlite's `query` throws it: the query, its params and options attached. */
function withQuery(err: unknown, text: string, params: unknown[], options: QueryOptions | undefined): unknown {
  if (err instanceof Error && "code" in err) Object.assign(err, { query: text, params, queryOptions: options });
  return err;
}
