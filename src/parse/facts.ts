/**
 * The plain records the parse stage emits for one Go file. They carry no tree-sitter node, so they can
 * be cached on disk, sent between worker threads and consumed by the pure stages after this one.
 */

export type TypeExpr =
  | { k: 'named'; pkg?: string; n: string; args?: TypeExpr[] }
  | { k: 'ptr'; e: TypeExpr }
  | { k: 'slice'; e: TypeExpr }
  | { k: 'array'; e: TypeExpr }
  | { k: 'map'; key: TypeExpr; e: TypeExpr }
  | { k: 'chan'; e: TypeExpr; dir: 'both' | 'send' | 'recv' }
  | { k: 'func'; params: Param[]; results: Param[]; variadic?: boolean }
  | { k: 'iface'; methods: MethodSig[]; embeds: TypeExpr[] }
  | { k: 'struct'; fields: FieldDecl[] }
  | { k: 'unknown' };

export interface Param {
  name?: string;
  t: TypeExpr;
  variadic?: boolean;
}

export interface MethodSig {
  name: string;
  params: Param[];
  results: Param[];
}

export interface FieldDecl {
  name: string;
  t: TypeExpr;
  embedded: boolean;
  line: number;
}

/** Expressions, reduced to what name and type resolution needs. `l` is a 1-based line. */
export type Expr =
  | { k: 'id'; n: string; l: number }
  | { k: 'sel'; x: Expr; n: string; l: number }
  | { k: 'call'; f: Expr; a: Expr[]; l: number; targs?: TypeExpr[]; spread?: boolean }
  | { k: 'comp'; t?: TypeExpr; elems: { key?: string; v: Expr }[]; l: number }
  | { k: 'un'; op: string; x: Expr }
  | { k: 'fn'; i: number }
  | { k: 'assert'; x: Expr; t?: TypeExpr }
  | { k: 'idx'; x: Expr; i: Expr[]; targs?: TypeExpr[] }
  | { k: 'slice'; x: Expr }
  | { k: 'bin'; op: string; x: Expr; y: Expr }
  | { k: 'lit'; t: 'int' | 'float' | 'imag' | 'string' | 'rune' | 'bool' | 'nil'; v?: string }
  | { k: 'type'; t: TypeExpr }
  | { k: 'conv'; t: TypeExpr; x: Expr }
  | { k: 'other' };

export type BindFrom = 'define' | 'var' | 'range' | 'typeswitch' | 'param' | 'result' | 'recv' | 'select';

/** A local name coming into scope at `pos` (byte offset) and valid until `end`. */
export interface Bind {
  n: string;
  from: BindFrom;
  t?: TypeExpr;
  /** The value expression and, for multi-value right-hand sides, which value. */
  v?: Expr;
  vi?: number;
  /** Number of names on the left when the right side is one expression (a, b := f()). */
  arity?: number;
  pos: number;
  end: number;
}

export type CallMode = 'call' | 'go' | 'defer';

export interface CallFact {
  f: Expr;
  a: Expr[];
  l: number;
  col: number;
  mode: CallMode;
  targs?: TypeExpr[];
  pos: number;
}

/** A value-position reference that may be a method value or function value (`wait.Until(kl.f, ...)`). */
export interface RefFact {
  x: Expr;
  l: number;
  pos: number;
}

export interface AssignFact {
  lhs: Expr;
  rhs: Expr;
  vi?: number;
  l: number;
  pos: number;
}

export type ChanOp = 'send' | 'recv' | 'close' | 'range';

export interface ChanFact {
  op: ChanOp;
  ch: Expr;
  l: number;
  pos: number;
  /** Index of the select statement within the function, when the operation is a select case. */
  select?: number;
  /** 0-based case index inside that select. */
  caseIndex?: number;
}

export interface ReturnFact {
  vals: Expr[];
  l: number;
  pos: number;
}

export interface FuncFacts {
  /** Name as it appears in the ID after the package: `Run`, `(*Kubelet).Run`, `Kubelet.Run`, `Run.func1.2`, `init.0`, `glob..func1`. */
  local: string;
  kind: 'func' | 'method' | 'closure';
  name: string;
  recv?: { name?: string; type: string; ptr: boolean; tparams?: string[] };
  tparams?: string[];
  params: Param[];
  results: Param[];
  variadic?: boolean;
  line: number;
  endLine: number;
  col: number;
  doc?: string;
  fingerprint: string;
  /** Index of the enclosing function in the file's list, for closures. */
  parent?: number;
  binds: Bind[];
  calls: CallFact[];
  refs: RefFact[];
  assigns: AssignFact[];
  returns: ReturnFact[];
  chans: ChanFact[];
  selects: { l: number; cases: number }[];
  /** Indexes (into the file's func list) of closures defined directly in this function. */
  closures: number[];
  /** Byte range of the body. */
  start: number;
  end: number;
}

export interface TypeFacts {
  name: string;
  t: TypeExpr;
  alias: boolean;
  tparams?: string[];
  line: number;
  endLine: number;
  doc?: string;
  fingerprint: string;
}

export interface ValueFacts {
  name: string;
  kind: 'var' | 'const';
  t?: TypeExpr;
  v?: Expr;
  vi?: number;
  arity?: number;
  line: number;
  doc?: string;
}

export interface ImportFacts {
  alias?: string;
  path: string;
  line: number;
}

export interface FileDiagnostic {
  code: 'syntax' | 'encoding' | 'too-large' | 'read' | 'extract';
  message: string;
  line: number;
}

export interface FileFacts {
  /** Relative path, forward slashes. */
  path: string;
  pkg: string;
  imports: ImportFacts[];
  funcs: FuncFacts[];
  types: TypeFacts[];
  values: ValueFacts[];
  diagnostics: FileDiagnostic[];
}
