/**
 * The database module depends on nothing of the domain (ADR 245): opening the database
 * once seeded the reference drones, whose audit log opened the database again. This walks
 * the static imports reachable from db.server.ts and fails if a domain module is among them.
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { expect, test } from 'vitest'

const root = process.cwd()
/** Configuration (the database path) and the schema are all the database module may reach. */
const ALLOWED = ['app/lib/db/', 'app/lib/config/', 'app/lib/http/zod-input.ts', 'db/schema.ts', 'db/enums.ts']

function resolveLocal(specifier: string, from: string): string | null {
  if (specifier.startsWith('#app/')) return path.join(root, 'app', specifier.slice(5))
  if (specifier.startsWith('#db/')) return path.join(root, 'db', specifier.slice(4))
  if (specifier.startsWith('.')) return path.resolve(path.dirname(from), specifier)
  return null // a package or node built-in
}

function localImportsReachableFrom(entry: string): string[] {
  const seen = new Set<string>()
  const queue = [path.join(root, entry)]
  while (queue.length) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    for (const { fileName } of importedFiles) {
      const target = resolveLocal(fileName, file)
      if (target) queue.push(target)
    }
  }
  seen.delete(path.join(root, entry))
  return [...seen].map((f) => path.relative(root, f).split(path.sep).join('/'))
}

test('db.server.ts reaches no domain module through its imports', () => {
  const reached = localImportsReachableFrom('app/lib/db/db.server.ts')
  expect(reached).toContain('db/schema.ts')
  const outside = reached.filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
  expect(outside).toEqual([])
})

/** Every module under app/ the browser may load: not `*.server.ts`, not a test. */
function browserModules(dir = path.join(root, 'app')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name)
    if (entry.isDirectory()) return browserModules(file)
    if (!/\.tsx?$/.test(entry.name) || /\.(server|test)\.tsx?$/.test(entry.name)) return []
    return [file]
  })
}

/** The names a module takes from `#db/schema.ts` as values (type-only imports are erased). */
function schemaValueImports(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const names: string[] = []
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement)
    if (!isImport && !ts.isExportDeclaration(statement)) continue
    const from = statement.moduleSpecifier
    if (!from || !ts.isStringLiteral(from) || !/^#db\/schema(\.ts)?$/.test(from.text)) continue
    if (isImport) {
      const clause = statement.importClause
      if (!clause || clause.isTypeOnly) continue
      if (clause.name) names.push(clause.name.text)
      const bindings = clause.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) names.push(`* as ${bindings.name.text}`)
      if (bindings && ts.isNamedImports(bindings))
        names.push(...bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text))
    } else if (!statement.isTypeOnly) {
      const clause = statement.exportClause
      if (!clause || !ts.isNamedExports(clause)) names.push('*')
      else names.push(...clause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text))
    }
  }
  return names
}

// A value from the schema drags drizzle into the browser's bundle: the lists a
// form or label needs come from db/enums.ts, queries live in *.server.ts.
test('no browser module imports a value from db/schema.ts', () => {
  const offenders = browserModules().flatMap((file) =>
    schemaValueImports(file).map((name) => `${path.relative(root, file)}: ${name}`),
  )
  expect(offenders).toEqual([])
})
