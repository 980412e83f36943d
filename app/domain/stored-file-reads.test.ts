/**
 * With FILE_STORE=s3, DATA_DIR is a cache: a stored file may be evicted at any time and is
 * read only through the store (`withLocalFile`, `readStoredFile`, `openStoredRead`,
 * `storedFileStat`/`isStoredFile` in app/lib/storage/file-cache.server.ts), which fetches it
 * back and holds it while it is read. This check fails when a domain module reads a stored
 * path with `fs` directly: the first argument of an fs read names a stored path (a call of a
 * function that gives one, or a local const made from such a call). A read that is right on
 * purpose (a file this very module just wrote, bytes freed at a removal) says why on the line
 * above: `// Not through the store: <why>`.
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const domain = path.join(process.cwd(), 'app/domain')

/** fs calls that read a file or look at it. */
const FS_READS = new Set([
  'readFile',
  'readFileSync',
  'createReadStream',
  'open',
  'openSync',
  'existsSync',
  'stat',
  'statSync',
  'lstat',
  'lstatSync',
  'access',
  'accessSync',
  'copyFile',
  'copyFileSync',
  'link',
])

/** Functions whose answer is (or holds) the path of a stored file under DATA_DIR. */
const STORED_PATH_SOURCES = new Set([
  'absolutePathOf',
  'storagePaths',
  'jobFolder',
  'viewDir',
  'stillPath',
  'stillsFolder',
  'localPathOfKey',
  'viewFileFor',
  'viewFileWithoutAccessCheck',
  'threeDFileWithoutAccessCheck',
  'getDownloadableFile',
  'getDownloadableCopy',
])

const EXEMPT = /\/\/ Not through the store: \S/

/** Reads in modules this check cannot annotate yet, each with its reason (`file:code`). */
// A deliberate direct read names its reason here (`file:line text`); none is needed today.
const KNOWN: string[] = []

function modules(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return modules(file)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : []
  })
}

/** `fs.readFile(…)`, `fs.promises.stat(…)`, `fsp.readFile(…)`: the method's name, else null. */
function fsMethod(call: ts.CallExpression) {
  const callee = call.expression
  if (!ts.isPropertyAccessExpression(callee) || !FS_READS.has(callee.name.text)) return null
  const target = callee.expression.getText()
  return /^(fs|fsp|fs\.promises)$/.test(target) ? callee.name.text : null
}

/** The direct reads of stored paths in one module's text: `line: code` for each. */
function directStoredReads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  // Local names bound (const/let, destructuring too) to a value made from a stored path.
  const tainted = new Set<string>()
  const isTainted = (node: ts.Node): boolean => {
    if (ts.isIdentifier(node) && tainted.has(node.text)) return true
    if (ts.isCallExpression(node)) {
      const callee = node.expression
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : null
      if (name && STORED_PATH_SOURCES.has(name)) return true
      // A value read through the store is no stored path any more.
      if (name === 'withLocalFile' || name === 'ensureLocalFile') return false
    }
    return ts.forEachChild(node, (child) => (isTainted(child) ? true : undefined)) ?? false
  }
  const bind = (name: ts.BindingName) => {
    if (ts.isIdentifier(name)) tainted.add(name.text)
    else for (const element of name.elements) if (!ts.isOmittedExpression(element)) bind(element.name)
  }
  const found: string[] = []
  const lines = text.split('\n')
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.initializer && isTainted(node.initializer)) bind(node.name)
    if (ts.isCallExpression(node) && fsMethod(node) && node.arguments[0] && isTainted(node.arguments[0])) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line
      if (!EXEMPT.test(lines[line - 1] ?? '')) found.push(`${line + 1}: ${lines[line]!.trim()}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

test('no domain module reads a stored file with fs directly (only through the store)', () => {
  const found = modules(domain).flatMap((file) =>
    directStoredReads(file, fs.readFileSync(file, 'utf8')).map(
      (hit) => `${path.relative(process.cwd(), file)}:${hit.replace(/^\d+: /, '')}`,
    ),
  )
  expect(found.filter((hit) => !KNOWN.includes(hit))).toEqual([])
  // An entry goes once its read does.
  expect(KNOWN.filter((known) => !found.includes(known))).toEqual([])
})

test('the check finds a direct read, through a local name too, and lets an explained one pass', () => {
  const text = [
    "import fs from 'node:fs'",
    'export function a(file) {',
    '  const full = absolutePathOf(file)',
    '  const { path: copy } = viewFileFor(user, 1, 2, "cog")',
    '  fs.existsSync(full)',
    '  fs.readFileSync(copy)',
    '  fs.promises.readFile(storagePaths().views + "/1/facts.json")',
    '  // Not through the store: the bytes freed by a removal',
    '  fs.statSync(full)',
    '  fs.readFileSync("/etc/hostname")',
    '  return withLocalFile(full, (local) => fs.readFileSync(local))',
    '}',
  ].join('\n')
  expect(directStoredReads('a.ts', text)).toEqual([
    '5: fs.existsSync(full)',
    '6: fs.readFileSync(copy)',
    '7: fs.promises.readFile(storagePaths().views + "/1/facts.json")',
  ])
})
