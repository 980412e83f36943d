/**
 * No folders of app/domain import each other at run time, directly or through others: a concept that needs another
 * one's code sits above it, never beside it. And app/lib (infrastructure) imports no domain
 * module at run time: a concept plugs into it (the daily tasks, the file hooks), never the reverse. Type-only imports are erased by the compiler and
 * do not count; static imports, re-exports and `import()` do. Tests are not part of the graph.
 * A shared piece goes down to app/lib/ or into the folder that owns it.
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const root = process.cwd()
const domain = path.join(root, 'app/domain')
const lib = path.join(root, 'app/lib')

/**
 * Known loops still to untangle (their folders, sorted), each with its reason; the
 * test fails once one is gone, so the entry goes with the last import.
 */
const KNOWN = [
  // threed/model-copy.server.ts reads the model's ZIP with processing's archive reader; the
  // reader (no domain imports of its own) moves to app/lib/zip/ once the import rework lands.
  'deliverables, processing, threed',
]

function modules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return modules(file)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

const folderOf = (file: string) => {
  const relative = path.relative(domain, file)
  return relative.startsWith('..') ? null : relative.split(path.sep)[0]
}

function resolveLocal(specifier: string, from: string): string | null {
  if (specifier.startsWith('#app/')) return path.join(root, 'app', specifier.slice(5))
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier)
  return null // a package, a built-in, #db/...
}

/** The specifiers a module loads at run time (value imports, re-exports, import()). */
function runtimeImports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const bindings = clause?.namedBindings
      const onlyTypes =
        clause?.isTypeOnly ||
        (clause &&
          !clause.name &&
          bindings &&
          ts.isNamedImports(bindings) &&
          bindings.elements.length > 0 &&
          bindings.elements.every((element) => element.isTypeOnly))
      if (!onlyTypes) found.push(node.moduleSpecifier.text)
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause
      const onlyTypes =
        node.isTypeOnly ||
        (clause &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly))
      if (!onlyTypes) found.push(node.moduleSpecifier.text)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** folder → folder it imports → the imports that make the edge ("file → specifier"). */
function folderGraph() {
  const edges = new Map<string, Map<string, string[]>>()
  for (const file of modules(domain)) {
    const from = folderOf(file)!
    for (const specifier of runtimeImports(file)) {
      const target = resolveLocal(specifier, file)
      const to = target && folderOf(target)
      if (!to || to === from) continue
      if (!edges.has(from)) edges.set(from, new Map())
      const why = edges.get(from)!
      why.set(to, [...(why.get(to) ?? []), `${path.relative(root, file)} → ${specifier}`])
    }
  }
  return edges
}

/**
 * The import loops of a graph of any length: its strongly connected components with more than
 * one folder (Tarjan's algorithm), each sorted, so a loop through three or four folders counts
 * as much as a pair.
 */
export function importLoops(edges: Map<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const loops: string[][] = []
  const visit = (node: string) => {
    index.set(node, index.size)
    low.set(node, index.get(node)!)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) loops.push(component.sort())
  }
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node)
  return loops.sort((a, b) => a.join().localeCompare(b.join()))
}

test('no app/domain folders import each other at run time, through any number of folders', () => {
  const edges = folderGraph()
  const loops = importLoops(new Map([...edges].map(([from, targets]) => [from, targets.keys()])))
  // Each loop with the imports that make it, so the message says where to cut.
  const explained = loops.map((loop) => ({
    loop: loop.join(', '),
    imports: loop.flatMap((from) =>
      [...(edges.get(from) ?? [])].filter(([to]) => loop.includes(to)).flatMap(([, why]) => why),
    ),
  }))
  const unexpected = explained.filter(({ loop }) => !KNOWN.includes(loop))
  expect(unexpected).toEqual([])
  // A known loop that is gone leaves the list.
  expect(KNOWN.filter((loop) => !explained.some((found) => found.loop === loop))).toEqual([])
})

test('the loop finder sees pairs and longer loops, not chains', () => {
  const graph = (pairs: string[]) => {
    const edges = new Map<string, string[]>()
    for (const pair of pairs) {
      const [from, to] = pair.split('>')
      edges.set(from, [...(edges.get(from) ?? []), to])
    }
    return edges
  }
  expect(importLoops(graph(['a>b', 'b>c', 'c>d']))).toEqual([])
  expect(importLoops(graph(['a>b', 'b>a']))).toEqual([['a', 'b']])
  expect(importLoops(graph(['p>d', 'd>t', 't>p', 'x>p']))).toEqual([['d', 'p', 't']])
  expect(importLoops(graph(['a>b', 'b>c', 'c>d', 'd>a', 'e>f', 'f>e']))).toEqual([
    ['a', 'b', 'c', 'd'],
    ['e', 'f'],
  ])
})

/**
 * app/lib modules that still import the domain, each with its reason; the test fails once one
 * no longer does. apiRoute and the write gates check the session and rate limits of `auth/`;
 * the outbox, the restore check and the PDF answer reuse `files/` helpers (hashing, disk space,
 * the download header).
 */
const KNOWN_LIB = [
  'app/lib/http/api-route.server.ts → #app/domain/auth/guards.server.ts',
  'app/lib/http/origin.server.ts → #app/domain/auth/session.server.ts',
  'app/lib/http/write-limits.server.ts → #app/domain/auth/rate-limit.server.ts',
  'app/lib/pdf/pdf-response.server.ts → #app/domain/files/download.server.ts',
  'app/lib/storage/outbox.server.ts → #app/domain/files/receive.server.ts',
  'app/lib/storage/verify-restore.server.ts → #app/domain/files/disk-space.server.ts',
]

test('app/lib imports no app/domain module at run time (type-only imports aside)', () => {
  const found = modules(lib).flatMap((file) =>
    runtimeImports(file)
      .filter((specifier) => folderOf(resolveLocal(specifier, file) ?? root) !== null)
      .map((specifier) => `${path.relative(root, file)} → ${specifier}`),
  )
  expect(found.filter((edge) => !KNOWN_LIB.includes(edge))).toEqual([])
  expect(KNOWN_LIB.filter((edge) => !found.includes(edge))).toEqual([])
})

/** The names a page controller answers with; they belong in app/routes/_helpers/, beside the routes. */
const PAGE_ANSWERS = new Set(['json', 'redirect', 'redirectDocument', 'data', 'defer'])
const TOAST_MODULE = '#app/lib/http/toast.server.ts'
/** The session guards send a signed-out visitor to /login: the one redirect a service may throw. */
const MAY_REDIRECT = new Set(['app/domain/auth/guards.server.ts'])

/** The response helpers a module takes from @remix-run/* or the toast module at run time. */
function pageAnswerImports(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: string[] = []
  for (const node of source.statements) {
    if (!ts.isImportDeclaration(node) || !ts.isStringLiteral(node.moduleSpecifier)) continue
    const from = node.moduleSpecifier.text
    const clause = node.importClause
    if (!clause || clause.isTypeOnly) continue
    if (from === TOAST_MODULE) {
      found.push(from)
      continue
    }
    if (!from.startsWith('@remix-run/') || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings))
      continue
    for (const element of clause.namedBindings.elements) {
      const name = (element.propertyName ?? element.name).text
      if (!element.isTypeOnly && PAGE_ANSWERS.has(name)) found.push(`${from} ${name}`)
    }
  }
  return found
}

test('no app/domain module answers like a page (json, redirect, toasts): page controllers sit beside their routes', () => {
  const offenders = modules(domain).flatMap((file) => {
    const relative = path.relative(root, file)
    if (MAY_REDIRECT.has(relative)) return []
    return pageAnswerImports(file).map((what) => `${relative} → ${what}`)
  })
  expect(offenders).toEqual([])
})

test('the page-answer check sees json, redirect and toasts, not types or other helpers', () => {
  const text = [
    "import { json, type LoaderFunctionArgs } from '@remix-run/node'",
    "import { redirect as go } from '@remix-run/server-runtime'",
    "import type { TypedResponse } from '@remix-run/node'",
    "import { createCookie } from '@remix-run/node'",
    "import { redirectWithToast } from '#app/lib/http/toast.server.ts'",
  ].join('\n')
  expect(pageAnswerImports('example.ts', text)).toEqual([
    '@remix-run/node json',
    '@remix-run/server-runtime redirect',
    '#app/lib/http/toast.server.ts',
  ])
})

test('value imports, re-exports and import() count; type-only imports do not', () => {
  const text = [
    "import type { A } from '#app/domain/x/a.ts'",
    "import { type B } from '#app/domain/x/b.ts'",
    "import { c, type C } from '#app/domain/x/c.ts'",
    "export type { D } from '#app/domain/x/d.ts'",
    "export { e } from '#app/domain/x/e.ts'",
    "const f = await import('#app/domain/x/f.ts')",
  ].join('\n')
  expect(runtimeImports('example.ts', text)).toEqual([
    '#app/domain/x/c.ts',
    '#app/domain/x/e.ts',
    '#app/domain/x/f.ts',
  ])
})
