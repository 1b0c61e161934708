/**
 * Converts tree-sitter type nodes into plain TypeExpr records.
 * Mirrored in C by src/parse/native/extract_facts.c, which must write the same bytes for the files it
 * takes: a change here is made there too (test/parse/native-extract.test.ts compares the two).
 */
import type { SyntaxNode } from './light.js';
import type { TypeExpr, Param, MethodSig, FieldDecl } from './facts.js';

const UNKNOWN: TypeExpr = { k: 'unknown' };

export function typeOf(node: SyntaxNode | null | undefined): TypeExpr {
  if (!node) return UNKNOWN;
  switch (node.type) {
    case 'type_identifier':
      return { k: 'named', n: node.text };
    case 'identifier':
      return { k: 'named', n: node.text };
    case 'qualified_type': {
      const pkg = node.childForFieldName('package')?.text;
      const name = node.childForFieldName('name')?.text ?? '';
      return { k: 'named', pkg, n: name };
    }
    case 'generic_type': {
      const base = typeOf(node.childForFieldName('type'));
      const args = node.childForFieldName('type_arguments');
      if (base.k !== 'named') return base;
      return { ...base, args: args ? args.namedChildren.map(typeArg) : undefined };
    }
    case 'pointer_type':
      return { k: 'ptr', e: typeOf(node.namedChildren[0]) };
    case 'slice_type':
      return { k: 'slice', e: typeOf(node.childForFieldName('element')) };
    case 'array_type':
    case 'implicit_length_array_type':
      return { k: 'array', e: typeOf(node.childForFieldName('element')) };
    case 'map_type':
      return { k: 'map', key: typeOf(node.childForFieldName('key')), e: typeOf(node.childForFieldName('value')) };
    case 'channel_type': {
      const text = node.text;
      const dir = text.startsWith('<-') ? 'recv' : /^chan\s*<-/.test(text) ? 'send' : 'both';
      return { k: 'chan', e: typeOf(node.childForFieldName('value')), dir };
    }
    case 'function_type': {
      const { params, variadic } = paramList(node.childForFieldName('parameters'));
      return { k: 'func', params, results: resultList(node.childForFieldName('result')), variadic };
    }
    case 'interface_type':
      return interfaceType(node);
    case 'struct_type':
      return { k: 'struct', fields: structFields(node) };
    case 'parenthesized_type':
      return typeOf(node.namedChildren[0]);
    case 'type_elem':
      return node.namedChildren.length === 1 ? typeOf(node.namedChildren[0]) : UNKNOWN;
    case 'negated_type':
      return typeOf(node.namedChildren[0]);
    default:
      return UNKNOWN;
  }
}

function typeArg(node: SyntaxNode): TypeExpr {
  return node.type === 'type_elem' && node.namedChildren.length === 1 ? typeOf(node.namedChildren[0]) : typeOf(node);
}

/** Parameters of a parameter_list, one entry per name (or one per unnamed type). */
export function paramList(list: SyntaxNode | null | undefined): { params: Param[]; variadic: boolean } {
  const params: Param[] = [];
  let variadic = false;
  if (!list) return { params, variadic };
  for (const decl of list.namedChildren) {
    if (decl.type === 'parameter_declaration') {
      const t = typeOf(decl.childForFieldName('type'));
      const names = decl.childrenForFieldName('name');
      if (names.length === 0) params.push({ t });
      for (const n of names) params.push({ name: n.text, t });
    } else if (decl.type === 'variadic_parameter_declaration') {
      variadic = true;
      const t: TypeExpr = { k: 'slice', e: typeOf(decl.childForFieldName('type')) };
      const name = decl.childForFieldName('name')?.text;
      params.push({ name, t, variadic: true });
    }
  }
  return { params, variadic };
}

export function resultList(node: SyntaxNode | null | undefined): Param[] {
  if (!node) return [];
  if (node.type === 'parameter_list') return paramList(node).params;
  return [{ t: typeOf(node) }];
}

function interfaceType(node: SyntaxNode): TypeExpr {
  const methods: MethodSig[] = [];
  const embeds: TypeExpr[] = [];
  for (const el of node.namedChildren) {
    if (el.type === 'method_elem') {
      methods.push({
        name: el.childForFieldName('name')?.text ?? '',
        params: paramList(el.childForFieldName('parameters')).params,
        results: resultList(el.childForFieldName('result')),
      });
    } else if (el.type === 'type_elem') {
      // A single named type is an embedded interface; unions and ~T are constraints only.
      if (el.namedChildren.length === 1) embeds.push(typeOf(el.namedChildren[0]));
    }
  }
  return { k: 'iface', methods, embeds };
}

function structFields(node: SyntaxNode): FieldDecl[] {
  const fields: FieldDecl[] = [];
  const list = node.namedChildren.find((c) => c.type === 'field_declaration_list');
  if (!list) return fields;
  for (const decl of list.namedChildren) {
    if (decl.type !== 'field_declaration') continue;
    const line = decl.startPosition.row + 1;
    const typeNode = decl.childForFieldName('type');
    const names = decl.childrenForFieldName('name');
    if (names.length === 0) {
      let t = typeOf(typeNode);
      // An embedded `*T` shows as a '*' token before the type.
      if (decl.children.some((c) => c.type === '*')) t = { k: 'ptr', e: t };
      const base = t.k === 'ptr' ? t.e : t;
      const name = base.k === 'named' ? base.n : '';
      fields.push({ name, t, embedded: true, line });
    } else {
      const t = typeOf(typeNode);
      for (const n of names) fields.push({ name: n.text, t, embedded: false, line });
    }
  }
  return fields;
}

export function typeParamNames(list: SyntaxNode | null | undefined): string[] | undefined {
  if (!list) return undefined;
  const names: string[] = [];
  for (const decl of list.namedChildren) {
    for (const n of decl.childrenForFieldName('name')) names.push(n.text);
  }
  return names.length ? names : undefined;
}
