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
const ALLOWED = ['app/domain/db/', 'app/domain/config/', 'app/domain/http/zod-input.ts', 'db/schema.ts']

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
  const reached = localImportsReachableFrom('app/domain/db/db.server.ts')
  expect(reached).toContain('db/schema.ts')
  const outside = reached.filter((file) => !ALLOWED.some((allowed) => file.startsWith(allowed)))
  expect(outside).toEqual([])
})
