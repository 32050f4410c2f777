/**
 * Emscripten's C++ exceptions without a trip through JavaScript on every call. A module built
 * with Emscripten's JavaScript exception handling (gdal3.js is) calls each function that may
 * throw, or that has destructors to run, through an imported `invoke_<sig>(index, ...args)`
 * written in JavaScript: save the stack pointer, call table entry `index` back in WebAssembly,
 * and on a thrown C++ exception (a number) restore the stack pointer and set `__THREW__`. Three
 * crossings between JavaScript and WebAssembly per call: GeoPackage -> GeoJSON made 124 million
 * of them for 1.3 million points (about 40 per coordinate, most in the C++ stream that formats
 * it), and they were a third of the run (14.4 s of CPU with them, 8.1 s without; native ogr2ogr
 * 6.1 s). Here the same trampolines are WebAssembly functions in a small helper module built at
 * load time, with WebAssembly's own try/catch_all: no crossing unless something is thrown.
 *
 * Same behaviour as the JavaScript ones: only the numbers Emscripten throws for C++ exceptions
 * and longjmp are caught (the functions that throw them are wrapped to say so); anything else
 * (an abort, a JavaScript error) goes on up. Nothing is replaced when the module does not look
 * as expected (its stack and setThrew exports not found by their code, the throwing functions
 * not found by name, 64-bit signatures), or when the engine cannot compile the helper.
 */
import { exportedBodies, name, section, uleb, vec, WASM_HEADER } from "./wasm-binary";

/** Changes a module's imports before it is instantiated; what it returns gets the instance before Emscripten does. */
export type ImportsAdapter = (imports: WebAssembly.Imports) => ((instance: WebAssembly.Instance) => void) | undefined;

/** The JavaScript functions that throw what an invoke catches: a C++ exception's pointer, or longjmp's Infinity. */
const THROWERS = ["___cxa_throw", "___cxa_rethrow", "___resumeException", "__emscripten_throw_longjmp"];

/** Signature letters (after `invoke_`) this handles: results and parameters of i32, f32, f64 (i64 ones go through JS `dynCall_*`). */
const INVOKE = /^invoke_([vifd][ifd]*)$/;

const VALUE: Record<string, number> = { i: 0x7f, f: 0x7d, d: 0x7c };
const ZERO: Record<string, number[]> = { i: [0x41, 0x00], f: [0x43, 0, 0, 0, 0], d: [0x44, 0, 0, 0, 0, 0, 0, 0, 0] };
const OP = { localGet: 0x20, localSet: 0x21, i32Const: 0x41, call: 0x10, callIndirect: 0x11, try: 0x06, catchAll: 0x19, rethrow: 0x09, if: 0x04, eqz: 0x45, end: 0x0b, empty: 0x40 };

/** Slots of the helper's second table: the main module's stack and setThrew functions. */
const SLOT = { stackSave: 0, stackRestore: 1, setThrew: 2 };

interface StackExports {
  stackSave: string;
  stackRestore: string;
  setThrew: string;
}

const hex = (body: Uint8Array) => Array.from(body, (b) => b.toString(16).padStart(2, "0")).join("");
/** A signed LEB128 constant, in hex. */
const CONST = "((?:[89a-f][0-9a-f])*[0-7][0-9a-f])";

/**
 * Emscripten's stackSave (`global.get $sp`), stackRestore (`global.set $sp`) and setThrew
 * (`if (!__THREW__) { __THREW__ = threw; __threwValue = value; }`), found by their code: their
 * export names are minified.
 */
export function findStackExports(bodies: Map<string, Uint8Array>): StackExports | undefined {
  const saves = new Map<string, string>();
  const restores = new Map<string, string>();
  const setThrew: string[] = [];
  const threw = new RegExp(`^0041${CONST}28020045044041(?:\\1)200036020041${CONST}20013602000b0b$`);
  for (const [key, body] of bodies) {
    const code = hex(body);
    const save = /^0023([0-7][0-9a-f])0b$/.exec(code);
    const restore = /^00200024([0-7][0-9a-f])0b$/.exec(code);
    if (save) saves.set(save[1], key);
    if (restore) restores.set(restore[1], key);
    if (threw.test(code)) setThrew.push(key);
  }
  const pairs = [...restores].filter(([global]) => saves.has(global));
  if (pairs.length !== 1 || setThrew.length !== 1) return undefined;
  return { stackSave: saves.get(pairs[0][0])!, stackRestore: pairs[0][1], setThrew: setThrew[0] };
}

/** Function types, numbered as added: `params>result` in signature letters. */
class Types {
  readonly list: string[] = [];
  index(params: string, result: string): number {
    const key = `${params}>${result}`;
    const at = this.list.indexOf(key);
    return at >= 0 ? at : this.list.push(key) - 1;
  }
  encode(): number[][] {
    return this.list.map((key) => {
      const [params, result] = key.split(">");
      return [0x60, ...vec(Array.from(params, (c) => [VALUE[c]])), ...vec(Array.from(result, (c) => [VALUE[c]]))];
    });
  }
}

/**
 * One trampoline: `sp = stackSave(); try { return table[index](args) } catch_all { stackRestore(sp);
 * if (!pending()) rethrow; setThrew(1, 0); return 0 }`. Function 0 is the imported `pending`,
 * table 0 the main module's table, table 1 its stack functions.
 */
function trampoline(types: Types, sig: string): { type: number; body: number[] } {
  const result = sig[0] === "v" ? "" : sig[0];
  const params = sig.slice(1);
  const sp = params.length + 1; // the local after the index and the arguments
  const stackCall = (slot: number, type: number) => [OP.i32Const, slot, OP.callIndirect, ...uleb(type), 1];
  const args = Array.from(params, (_, i) => [OP.localGet, ...uleb(i + 1)]).flat();
  const code = [
    ...stackCall(SLOT.stackSave, types.index("", "i")),
    OP.localSet, ...uleb(sp),
    OP.try, result ? VALUE[result] : OP.empty,
    ...args, OP.localGet, 0, OP.callIndirect, ...uleb(types.index(params, result)), 0,
    OP.catchAll,
    OP.localGet, ...uleb(sp), ...stackCall(SLOT.stackRestore, types.index("i", "")),
    OP.call, 0, OP.eqz, OP.if, OP.empty, OP.rethrow, 1, OP.end,
    OP.i32Const, 1, OP.i32Const, 0, ...stackCall(SLOT.setThrew, types.index("ii", "")),
    ...(result ? ZERO[result] : []),
    OP.end, OP.end,
  ];
  const body = [...vec([[1, VALUE.i]]), ...code]; // one i32 local: sp
  return { type: types.index(`i${params}`, result), body: [...uleb(body.length), ...body] };
}

/** The helper module: one exported trampoline per `[import key, signature]`. */
export function helperModule(invokes: [key: string, sig: string][]): Uint8Array {
  const types = new Types();
  const pending = types.index("", "i");
  const functions = invokes.map(([, sig]) => trampoline(types, sig));
  const funcref = 0x70;
  const imports = vec([
    [...name("h"), ...name("pending"), 0x00, ...uleb(pending)],
    [...name("h"), ...name("table"), 0x01, funcref, 0x00, 0],
    [...name("h"), ...name("stack"), 0x01, funcref, 0x00, 3],
  ]);
  const exports = vec(invokes.map(([key], i) => [...name(key), 0x00, ...uleb(i + 1)]));
  return new Uint8Array([
    ...WASM_HEADER,
    ...section(1, vec(types.encode())),
    ...section(2, imports),
    ...section(3, vec(functions.map((f) => uleb(f.type)))),
    ...section(7, exports),
    ...section(10, [...uleb(functions.length), ...functions.flatMap((f) => f.body)]),
  ]);
}

type Fn = (...args: unknown[]) => unknown;

/** The import namespace holding the glue's functions (`env`, or a minified name). */
function glueImports(imports: WebAssembly.Imports): Record<string, unknown> | undefined {
  return Object.values(imports).find((ns) => Object.values(ns).some((f) => typeof f === "function" && INVOKE.test(f.name))) as Record<string, unknown> | undefined;
}

/**
 * An adapter that replaces the module's `invoke_*` imports by WebAssembly trampolines, given the
 * module's bytes; undefined when the module does not look as expected. `replaced` counts the
 * imports replaced at the last instantiation.
 */
export function fastInvokes(bytes: Uint8Array): { adapt: ImportsAdapter; replaced: number } | undefined {
  let found: StackExports | undefined;
  try {
    found = findStackExports(exportedBodies(bytes));
  } catch {
    return undefined; // not a module: compiling it says so
  }
  if (!found) return undefined;
  const stack = found;
  const state = { adapt, replaced: 0 };
  function adapt(imports: WebAssembly.Imports): ReturnType<ImportsAdapter> {
    state.replaced = 0;
    const glue = glueImports(imports);
    if (!glue) return undefined;
    const entries = Object.entries(glue).filter((e): e is [string, Fn] => typeof e[1] === "function");
    const throwers = entries.filter(([, f]) => THROWERS.includes(f.name));
    if (throwers.length !== THROWERS.length) return undefined;
    const invokes = entries.flatMap(([key, f]): [string, string][] => {
      const sig = INVOKE.exec(f.name)?.[1];
      return sig ? [[key, sig]] : [];
    });
    let pending = false; // set when a thrower threw, taken by the trampoline that catches it
    const table = new WebAssembly.Table({ element: "anyfunc", initial: 0 });
    const stackTable = new WebAssembly.Table({ element: "anyfunc", initial: 3 });
    let helper: WebAssembly.Instance;
    try {
      const take = () => (pending ? ((pending = false), 1) : 0);
      helper = new WebAssembly.Instance(new WebAssembly.Module(helperModule(invokes) as Uint8Array<ArrayBuffer>), { h: { pending: take, table, stack: stackTable } });
    } catch {
      return undefined; // an engine without WebAssembly exception handling: keep the JavaScript ones
    }
    for (const [key, f] of throwers) {
      glue[key] = (...args: unknown[]) => {
        try {
          return f(...args);
        } catch (err) {
          if (err === (err as number) + 0) {
            pending = true; // what the JavaScript invokes catch: a number
            // One that no trampoline caught reached JavaScript: it must not pass for the next error.
            queueMicrotask(() => (pending = false));
          }
          throw err;
        }
      };
    }
    for (const [key] of invokes) glue[key] = helper.exports[key];
    // The invokes left in JavaScript (64-bit signatures) catch numbers themselves: once one returns
    // or throws, no number it could have caught is still in flight for a trampoline to take.
    for (const [key, f] of entries.filter(([, f]) => /^invoke_/.test(f.name) && !INVOKE.test(f.name))) {
      glue[key] = (...args: unknown[]) => {
        try {
          return f(...args);
        } finally {
          pending = false;
        }
      };
    }
    state.replaced = invokes.length;
    return (instance) => {
      const exports = instance.exports as Record<string, unknown>;
      const main = Object.values(exports).find((x): x is WebAssembly.Table => x instanceof WebAssembly.Table);
      if (!main) throw new Error("the module exports no function table");
      mirror(main, table);
      stackTable.set(SLOT.stackSave, exports[stack.stackSave] as Fn);
      stackTable.set(SLOT.stackRestore, exports[stack.stackRestore] as Fn);
      stackTable.set(SLOT.setThrew, exports[stack.setThrew] as Fn);
    };
  }
  return state;
}

/**
 * Copies the main module's function table into the helper's (the helper is made before the
 * module exists, so it cannot import the table itself). Emscripten's addFunction grows the main
 * table; a host that calls it must mirror again (the GIS engine never does).
 */
export function mirror(main: WebAssembly.Table, copy: WebAssembly.Table): void {
  if (copy.length < main.length) copy.grow(main.length - copy.length);
  for (let i = 0; i < main.length; i++) copy.set(i, main.get(i));
}
